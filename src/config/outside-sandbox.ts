import type { ConfigProblem } from './problems.js';
import type { ConfigValues } from './schema.js';
import { acquirerAddresses, acquirerKeys } from './acquirer-kinds.js';
import { isLoopbackHost } from './environment-guard.js';

/** What the sandbox may leave out and the real host needs : each named by its key. */
const REQUIRED_OUTSIDE_SANDBOX: readonly { path: string; get: (v: ConfigValues) => unknown; why: string }[] = [
  {
    path: 'terminal.orderIdTerminal',
    get: (v) => v.terminal.orderIdTerminal,
    why: 'MerchantOrderIds must be unique across every merchant of the acquirer client',
  },
  {
    path: 'terminal.softDescriptor',
    get: (v) => v.terminal.softDescriptor,
    why: "the cardholder's statement shows it",
  },
];

/**
 * What a homologation or production terminal refuses besides the production guard: a key the
 * real host needs left out (the acquirer kind's own, then the terminal's), and an acquirer address that is not https (a loopback address stays
 * allowed in homologation: a local TLS proxy or the test host; production refuses loopback).
 */
export function outsideSandboxProblems(values: ConfigValues): ConfigProblem[] {
  if (values.environment === 'sandbox') return [];
  const problems: ConfigProblem[] = [];
  const a = acquirerKeys(values);
  const required = [
    ...a.rules.requiredOutsideSandbox(a.keys).map((r) => ({ ...r, path: `${a.path}.${r.key}` })),
    ...REQUIRED_OUTSIDE_SANDBOX.map((r) => ({ ...r, value: r.get(values) })),
  ];
  for (const r of required) {
    if (r.value === undefined) problems.push({ path: r.path, message: `is required outside the sandbox (${r.why})` });
  }
  for (const [key, url] of acquirerAddresses(values)) {
    const u = new URL(url);
    if (u.protocol === 'https:') continue;
    if (values.environment === 'homologation' && isLoopbackHost(u.hostname)) continue;
    problems.push({
      path: key,
      message: `must be an https address outside the sandbox (bearer tokens and the merchant key travel there), got ${u.protocol}//${u.host}`,
    });
  }
  // A terminal-built code is paid only where the acquirer registers such codes; the wallet manual
  // pays only codes it generated (QR manual v4, 422.002 "Não foi encontrado o registro de geração do
  // QRCode", lines 343-345). Until the acquirer says otherwise, only the sandbox may build its own.
  if (values.qr.provider === 'terminal')
    problems.push({
      path: 'qr.provider',
      message: `"terminal" is refused in ${values.environment}: the acquirer pays only QR codes it registered (use "ecommerce")`,
    });
  // Telemetry names the merchant and the day's sales: told here, by `config check`, not first at start.
  const mqtt = values.fleet.mqtt;
  if (mqtt && !mqtt.url.startsWith('mqtts://'))
    problems.push({
      path: 'fleet.mqtt.url',
      message: `must be mqtts:// in ${values.environment} (the broker in clear)`,
    });
  return problems;
}

/** The sandbox's defaults for the keys the real host needs (outside the sandbox they are required). */
export function applySandboxDefaults(values: ConfigValues): void {
  const sandbox = values.environment === 'sandbox';
  values.qr.provider ??= sandbox ? 'terminal' : 'ecommerce';
  if (!sandbox) return;
  const a = acquirerKeys(values);
  a.rules.applySandboxDefaults(a.keys);
  values.terminal.orderIdTerminal ??= values.terminal.ordinal;
  values.terminal.softDescriptor ??= 'OMNIPOS';
}
