import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import type { SandboxCredential } from './acquirer-kind.js';
import { acquirerKeys } from './acquirer-kinds.js';
import { exposureProblems } from './exposure-guard.js';
import { hostAddresses } from './host-addresses.js';
import { isLoopbackHost } from './loopback.js';
import type { ConfigProblem } from './problems.js';
import type { ConfigValues } from './schema.js';
import type { Secret } from './secret.js';
import { portKinds } from './port-kinds.js';

export { isLoopbackHost } from './loopback.js';

/** The sandbox's credentials in the words of the refusal. */
const WORDS: Readonly<Record<SandboxCredential, string>> = {
  clientId: 'client id',
  clientSecret: 'client secret',
  merchantId: 'merchant id',
  merchantKey: 'merchant key',
  webservice15Key: "webservice 1.5 test store's key",
};

/**
 * What a production terminal refuses: virtual devices, the embedded sandbox host, loopback
 * host addresses (the acquirer's and the card-not-present kind's: host-addresses.ts), the sandbox's credentials, and what exposes the terminal (exposure-guard.ts).
 * One problem per refused part, named by key.
 */
export function productionProblems(
  values: ConfigValues,
  /** Each port's configured kind's secrets, by the names its `secrets` list gives them. */
  secrets: Readonly<Record<keyof ReturnType<typeof portKinds>, Readonly<Record<string, Secret | undefined>>>>,
): ConfigProblem[] {
  if (values.environment !== 'production') return [];
  const problems: ConfigProblem[] = [];
  const refuse = (path: string, what: string): void => {
    problems.push({ path, message: `${what} is not allowed in production` });
  };
  if (values.pinpad.device.kind === 'virtual') refuse('pinpad.device.kind', 'a virtual pinpad');
  if (values.printer.kind === 'virtual') refuse('printer.kind', 'a virtual printer');
  if (values.sandbox.embedded) refuse('sandbox.embedded', 'the embedded sandbox host');
  for (const [key, url] of hostAddresses(values))
    if (isLoopbackHost(new URL(url).hostname)) refuse(key, 'a loopback host address');
  const a = acquirerKeys(values);
  for (const id of a.rules.sandboxIdentities(a.keys))
    if (id.value !== undefined && id.value === SANDBOX_CREDENTIALS[id.sandbox])
      refuse(`${a.path}.${id.key}`, `the sandbox ${WORDS[id.sandbox]}`);
  for (const [port, k] of Object.entries(portKinds(values)))
    for (const s of k.rules.secrets)
      if (s.sandbox && secrets[port as keyof typeof secrets][s.secret]?.reveal() === SANDBOX_CREDENTIALS[s.sandbox])
        refuse(`${k.path}.${s.key}`, `the sandbox ${WORDS[s.sandbox]}`);
  for (const p of exposureProblems(values)) refuse(p.path, p.what);
  return problems;
}
