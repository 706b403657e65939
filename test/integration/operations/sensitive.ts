import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';
import { SANDBOX_KEYS } from '../../../tables/sandbox-keys.js';
import { clearCardData } from '../../helpers/scan-card-data.js';

/**
 * What must never be in an evidence bundle or a support archive, as `what: found` lines: a test
 * card's PAN or track 2 (test/helpers/scan-card-data), the sandbox BDK, the OAuth client secret,
 * the e-commerce MerchantKey, the API token, a private key, and a PIN block, track, card number
 * or security code under its own field name unless redacted.
 */
export function sensitiveIn(text: string, extra: Record<string, string> = {}): string[] {
  const found: string[] = [];
  for (const n of clearCardData()) if (text.includes(n)) found.push(`card data: ${n.slice(0, 6)}…`);
  const secrets: Record<string, string> = {
    bdk: SANDBOX_KEYS.bdk,
    clientSecret: SANDBOX_CREDENTIALS.clientSecret,
    merchantKey: SANDBOX_CREDENTIALS.merchantKey,
    ...extra,
  };
  for (const [what, v] of Object.entries(secrets))
    if (v && text.toLowerCase().includes(v.toLowerCase())) found.push(`${what}: found`);
  if (/PRIVATE KEY/.test(text)) found.push('a private key');
  const field =
    /"(PinBlock|EncryptedPinBlock|pinBlock|TrackTwoData|trackTwoData|CardNumber|cardNumber|SecurityCode|securityCode|Cvv|cvv|access_token|accessToken)"\s*:\s*"(?!\[REDACTED\])[^"]+"/g;
  for (const m of text.matchAll(field)) found.push(`${m[1]} in clear`);
  return found;
}
