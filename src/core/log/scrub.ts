/**
 * The logger's redaction, applied to every argument of every call: values under sensitive keys
 * (tracks, CVV, PIN blocks, KSNs, keys, tokens, MerchantKey, Authorization) at any depth are
 * replaced, and PAN-shaped digit runs (13 to 19 digits passing Luhn, spaces or dashes allowed
 * between digits) inside any string keep at most their first six and last four digits.
 * Byte buffers are never logged: the frame logger masks by field before it logs hex.
 */

import { CHIP_TAGS_OPAQUE } from '../chip-tags.js';

export const REDACTED = '[REDACTED]';

const SENSITIVE_KEY =
  /secret|password|passwd|passphrase|token$|accesstoken|refreshtoken|ksn|pinblock|cvv|cvc|securitycode|track|^pin$|^newpin$|^bdk$|^ipek$|^key$|datakey|pinkey|mackey|sessionkey|privatekey|merchantkey|^authorization$|^proxyauthorization$|cardnumber|emvdata|encryptedcarddata|cardholdername|cardexpirationdate/;

/** Keys whose values are identifiers we want readable (never card data), exempt from redaction. */
const SAFE_KEYS = new Set(['idempotencykey', 'tokenurl', 'tokenfile']);

/**
 * Keys whose values are our own numeric identifiers. A 15-digit MerchantOrderId passes Luhn one
 * time in ten; under these keys it is an identifier, not a card number, and stays readable.
 * (In free text it is masked like any PAN-shaped run: log identifiers as fields.)
 */
const IDENTIFIER_KEYS = new Set([
  'merchantorderid',
  'merchantvoidid',
  'orderid',
  'paymentid',
  'voidid',
  'nsu',
  'idempotencykey',
  'qrcode',
]);

export function isIdentifierKey(key: string): boolean {
  return IDENTIFIER_KEYS.has(key.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/**
 * An identifier's value as we issue or receive them: up to 15 digits (MerchantOrderId, NSU), a
 * UUID (PaymentId, VoidId), whose all-digit groups can look like a dashed PAN, the webservice 1.5's
 * TID (its PaymentId: 20 to 40 letters and digits, xsd:686-690, the affiliation's digits first, whose
 * digit run before a letter can read as a Luhn-valid PAN: the manual's own 10069930690360EF1001,
 * ws15 examples), or a QR payload we built, whose runs of digits can too.
 */
export function isIdentifierValue(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value) && String(value).length <= 15;
  return (
    typeof value === 'string' &&
    (/^\d{1,15}$/.test(value) ||
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) ||
      /^[0-9A-Za-z]{20,40}$/.test(value) ||
      // A merchant-presented EMV QR payload (merchant number, amounts, dates: digits, never a card).
      /^000201[\x20-\x7e]*6304[0-9A-F]{4}$/.test(value))
  );
}

/**
 * EMV tags whose values are cryptograms, counters, verification results, amounts, dates, codes
 * and identifiers of the terminal or the application (src/core/chip-tags.ts) — never the PAN or a
 * track (those are 5A, 57, 56, 9F6B, 9F1F, 9F20, which stay checked). Their bytes are random enough
 * that 16 hex digits can all be decimal and pass Luhn (an application cryptogram did, once in a CI run).
 */
const OPAQUE_EMV_TAGS = CHIP_TAGS_OPAQUE;

/** An opaque EMV tag (see above) holding hex, as the card's and the issuer's data are kept by tag. */
export function isOpaqueEmvField(key: string, value: unknown): boolean {
  return (
    OPAQUE_EMV_TAGS.has(key.toUpperCase()) &&
    typeof value === 'string' &&
    value.length <= 512 &&
    /^[0-9A-Fa-f]*$/.test(value)
  );
}

export function isSensitiveKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return !SAFE_KEYS.has(k) && SENSITIVE_KEY.test(k);
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const PAN_CANDIDATE = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;

/** Masks every PAN-shaped run in `text` to first six and last four digits. */
export function scrubText(text: string): string {
  if (text.length < 13) return text;
  return text.replace(PAN_CANDIDATE, (run) => {
    const digits = run.replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19 || !luhnValid(digits)) return run;
    return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
  });
}

const MAX_DEPTH = 10;

interface PlainError {
  type: string;
  message: string;
  stack?: string;
  code?: unknown;
  context?: unknown;
  cause?: unknown;
}

export function scrubError(e: Error, depth = 0): PlainError {
  const out: PlainError = { type: e.name, message: scrubText(e.message) };
  if (e.stack) out.stack = scrubText(e.stack);
  const rec = e as Error & { code?: unknown; context?: unknown };
  if (rec.code !== undefined) out.code = scrubValue(rec.code, depth + 1);
  if (rec.context !== undefined) out.context = scrubValue(rec.context, depth + 1);
  if (e.cause !== undefined) out.cause = scrubValue(e.cause, depth + 1);
  return out;
}

/** A redacted deep copy of `value`, safe to log. */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint' || typeof value === 'number')
      return scrubText(String(value)) === String(value) ? value : scrubText(String(value));
    return value;
  }
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (value instanceof Error) return scrubError(value, depth);
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  if (value instanceof Map) return scrubValue(Object.fromEntries(value), depth);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (isSensitiveKey(k) && v !== undefined && v !== null && v !== '') out[k] = REDACTED;
    else if ((isIdentifierKey(k) && isIdentifierValue(v)) || isOpaqueEmvField(k, v)) out[k] = v;
    else out[k] = scrubValue(v, depth + 1);
  }
  return out;
}
