import type { Dispatcher } from 'undici';
import { createAcquirer, type Acquirer } from '../acquirer/index.js';
import type { Config, KindSecrets, OmniKeys } from '../config/index.js';
import type { Clock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
// The addresses' table alone, not the sandbox host (src/main.ts imports that only when embedded).
import { CONFIG_KEY_OF_BASE, readInUse } from '../sandbox/addresses.js';
import type { ListenOptions, RunningSandbox, SandboxBase } from '../sandbox/index.js';

/** Where this state directory's sandbox listens now, for the commands (read without loading the sandbox host). */
export { readInUse };

/** Where a sandbox's listeners are: each base's address and port. */
export type SandboxListeners = Pick<RunningSandbox, 'urls' | 'ports'>;

const URL_KEYS = [
  'authUrl',
  'requestUrl',
  'queryUrl',
  'parametersUrl',
  'walletUrl',
  'ecommerceUrl',
  'registrationUrl',
  'ecommerceQueryUrl',
] as const;
type UrlKey = (typeof URL_KEYS)[number];

const BASE_OF_KEY = Object.fromEntries(
  (Object.entries(CONFIG_KEY_OF_BASE) as [SandboxBase, string][]).map(([b, k]) => [k, b]),
) as Record<UrlKey, SandboxBase>;

/** The omni kind's own keys (`acquirer.omni`): the embedded sandbox plays the omni host. */
export function omniKeys(config: Config): OmniKeys {
  const a = config.values.acquirer;
  if (a.kind !== 'omni') throw new Error(`acquirer.kind is ${JSON.stringify(a.kind)}, not omni: no omni keys`);
  return a.omni;
}

/** The omni kind's secrets (`Config.secrets.acquirer.omni`); throws for another kind. */
function omniSecrets(config: Config): KindSecrets<'omni'> {
  const s = config.secrets.acquirer;
  if (s.kind !== 'omni') throw new Error(`acquirer.kind is ${JSON.stringify(s.kind)}, not omni: no omni secrets`);
  return s.omni;
}

/**
 * The omni kind's address keys, or none for another kind: the embedded sandbox plays the omni host, so
 * another kind's addresses never point at it (and it listens on its own ports only).
 */
function omniAddresses(config: Config): Partial<Record<UrlKey, string>> {
  const a = config.values.acquirer;
  return a.kind === 'omni' ? a.omni : {};
}

const isLoopback = (host: string): boolean => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';

/** A configured address's port (the scheme's default when it names none). */
const portOf = (u: URL): number => (u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

/** The ports the configuration's loopback addresses give each base (a port two bases or the controls share gives none). */
function plannedPorts(config: Config): Partial<Record<SandboxBase, number>> {
  const controls = config.values.sandbox.port;
  const seen = new Map<number, number>([[controls, 2]]);
  const wanted: [SandboxBase, number][] = [];
  const keys = omniAddresses(config);
  for (const k of URL_KEYS) {
    const v = keys[k];
    if (!v) continue;
    const u = new URL(v);
    if (!isLoopback(u.hostname)) continue;
    const p = portOf(u);
    seen.set(p, (seen.get(p) ?? 0) + 1);
    wanted.push([BASE_OF_KEY[k], p]);
  }
  const out: Partial<Record<SandboxBase, number>> = {};
  for (const [b, p] of wanted) if (seen.get(p) === 1) out[b] = p;
  return out;
}

/**
 * Where the embedded sandbox listens: the controls on `sandbox.port` (or `controlsPort`), and each
 * base on the port its configured address names (config/omnipos.json gives each base its own), so
 * an address points at the listener that plays that base. With the controls on port 0 (tests),
 * every base takes a free port too, and the addresses are mapped by their key.
 */
export function sandboxListenOptions(config: Config, controlsPort = config.values.sandbox.port): ListenOptions {
  return { port: controlsPort, ports: controlsPort === 0 ? {} : plannedPorts(config) };
}

/**
 * The acquirer addresses (the omni kind's; another kind has none here). Those naming the embedded sandbox (a loopback address on one of the
 * ports the configuration gives it, or any loopback one when `sandbox.port` is 0) point where it
 * really listens: the listener on that port when there is one, else the one playing the key's
 * base; the configured path (e.g. `/api/v0.1`) is kept.
 */
export function acquirerUrls(config: Config, sandbox: SandboxListeners | undefined): Record<UrlKey, string> {
  const out = {} as Record<UrlKey, string>;
  const ours = new Set<number>([config.values.sandbox.port, ...Object.values(plannedPorts(config))]);
  const byPort = new Map<number, SandboxBase>();
  if (sandbox) for (const [b, p] of Object.entries(sandbox.ports) as [SandboxBase, number][]) byPort.set(p, b);
  const keys = omniAddresses(config);
  for (const k of URL_KEYS) {
    const v = keys[k];
    if (v === undefined) continue;
    const u = new URL(v);
    const port = portOf(u);
    if (!sandbox || !isLoopback(u.hostname) || (config.values.sandbox.port !== 0 && !ours.has(port))) {
      out[k] = v;
      continue;
    }
    const base = byPort.get(port) ?? BASE_OF_KEY[k];
    const listener = new URL(sandbox.urls[base]);
    out[k] = `${listener.protocol}//${listener.host}${u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '')}`;
  }
  return out;
}

/** What {@link acquirerFromConfig} needs besides the configuration. */
export interface AcquirerWiring {
  /**
   * The embedded sandbox host when one runs here, or where this state directory's sandbox listens (its
   * record): the addresses naming it point where it listens.
   */
  sandbox?: SandboxListeners | undefined;
  clock: Clock;
  log: Logger;
  dispatcher?: Dispatcher;
  onHostDate?: (date: Date) => void;
}

/**
 * The acquirer's clients as the configuration names them: its addresses (the embedded sandbox's
 * where it runs), the client credentials, the environment (homologation sends its header) and,
 * when the terminal has them, the e-commerce credentials. One place for the daemon and the
 * commands that talk to the acquirer on their own.
 */
export function acquirerFromConfig(config: Config, wiring: AcquirerWiring): Acquirer {
  const a = omniKeys(config);
  const secrets = omniSecrets(config);
  return createAcquirer({
    settings: {
      ...acquirerUrls(config, wiring.sandbox),
      clientId: a.clientId,
      timeoutMs: a.timeoutMs,
    },
    clientSecret: secrets.clientSecret,
    environment: config.values.environment,
    clock: wiring.clock,
    log: wiring.log,
    ...(wiring.dispatcher ? { dispatcher: wiring.dispatcher } : {}),
    ...(wiring.onHostDate ? { onHostDate: wiring.onHostDate } : {}),
    ...(a.merchantId && secrets.merchantKey
      ? { ecommerce: { merchantId: a.merchantId, merchantKey: secrets.merchantKey } }
      : {}),
  });
}
