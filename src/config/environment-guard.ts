import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import type { ConfigProblem } from './problems.js';
import type { ConfigValues } from './schema.js';
import type { Secret } from './secret.js';

/** Every acquirer address key; the bearer tokens and the merchant key travel to them. */
export const ACQUIRER_URL_KEYS = [
  'authUrl',
  'requestUrl',
  'queryUrl',
  'parametersUrl',
  'registrationUrl',
  'walletUrl',
  'ecommerceUrl',
  'ecommerceQueryUrl',
] as const;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' || h.endsWith('.localhost') || /^127\./.test(h) || h === '::1' || h === '0.0.0.0' || h === '::'
  );
}

/**
 * What a production terminal refuses: virtual devices, the embedded sandbox host, loopback
 * acquirer addresses and the sandbox's credentials. One problem per refused part, named by key.
 */
export function productionProblems(values: ConfigValues, clientSecret: Secret | undefined): ConfigProblem[] {
  if (values.environment !== 'production') return [];
  const problems: ConfigProblem[] = [];
  const refuse = (path: string, what: string): void => {
    problems.push({ path, message: `${what} is not allowed in production` });
  };
  if (values.pinpad.device.kind === 'virtual') refuse('pinpad.device.kind', 'a virtual pinpad');
  if (values.printer.kind === 'virtual') refuse('printer.kind', 'a virtual printer');
  if (values.sandbox.embedded) refuse('sandbox.embedded', 'the embedded sandbox host');
  for (const key of ACQUIRER_URL_KEYS) {
    const url = values.acquirer[key];
    if (url !== undefined && isLoopbackHost(new URL(url).hostname))
      refuse(`acquirer.${key}`, 'a loopback acquirer address');
  }
  if (values.acquirer.clientId === SANDBOX_CREDENTIALS.clientId) refuse('acquirer.clientId', 'the sandbox client id');
  if (values.acquirer.merchantId === SANDBOX_CREDENTIALS.merchantId)
    refuse('acquirer.merchantId', 'the sandbox merchant id');
  if (clientSecret?.reveal() === SANDBOX_CREDENTIALS.clientSecret) {
    refuse('acquirer.clientSecretFile', 'the sandbox client secret');
  }
  return problems;
}
