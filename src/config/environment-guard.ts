import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import { exposureProblems } from './exposure-guard.js';
import { isLoopbackHost } from './loopback.js';
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

export { isLoopbackHost } from './loopback.js';

/**
 * What a production terminal refuses: virtual devices, the embedded sandbox host, loopback
 * acquirer addresses, the sandbox's credentials, and what exposes the terminal (exposure-guard.ts).
 * One problem per refused part, named by key.
 */
export function productionProblems(
  values: ConfigValues,
  clientSecret: Secret | undefined,
  merchantKey?: Secret,
): ConfigProblem[] {
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
  if (merchantKey?.reveal() === SANDBOX_CREDENTIALS.merchantKey)
    refuse('acquirer.merchantKeyFile', 'the sandbox merchant key');
  for (const p of exposureProblems(values)) refuse(p.path, p.what);
  return problems;
}
