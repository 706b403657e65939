import type { Dispatcher } from 'undici';
import { createAcquirer, type Acquirer } from '../acquirer/index.js';
import type { Config } from '../config/index.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log/index.js';
import type { RunningSandbox } from '../sandbox/index.js';

const URL_KEYS = ['authUrl', 'requestUrl', 'queryUrl', 'parametersUrl', 'walletUrl', 'ecommerceUrl'] as const;

/** The acquirer addresses; those naming the embedded sandbox's configured port (any loopback one when it is 0) point where it really listens. */
export function acquirerUrls(config: Config, sandbox: RunningSandbox | undefined): Record<(typeof URL_KEYS)[number], string> {
  const out = {} as Record<(typeof URL_KEYS)[number], string>;
  for (const k of URL_KEYS) {
    const u = new URL(config.values.acquirer[k]);
    const port = config.values.sandbox.port;
    const local = sandbox && (u.hostname === '127.0.0.1' || u.hostname === 'localhost') && (port === 0 || Number(u.port) === port);
    out[k] = local ? `${sandbox.url}${u.pathname === '/' ? '' : u.pathname}` : config.values.acquirer[k];
  }
  return out;
}

/** What {@link acquirerFromConfig} needs besides the configuration. */
export interface AcquirerWiring {
  /** The embedded sandbox host, when one runs here: the addresses naming it point where it listens. */
  sandbox?: RunningSandbox | undefined;
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
  const a = config.values.acquirer;
  return createAcquirer({
    settings: {
      ...acquirerUrls(config, wiring.sandbox),
      ...(a.registrationUrl ? { registrationUrl: a.registrationUrl } : {}),
      clientId: a.clientId,
      timeoutMs: a.timeoutMs,
    },
    clientSecret: config.secrets.clientSecret,
    environment: config.values.environment,
    clock: wiring.clock,
    log: wiring.log,
    ...(wiring.dispatcher ? { dispatcher: wiring.dispatcher } : {}),
    ...(wiring.onHostDate ? { onHostDate: wiring.onHostDate } : {}),
    ...(a.merchantId && config.secrets.merchantKey ? { ecommerce: { merchantId: a.merchantId, merchantKey: config.secrets.merchantKey } } : {}),
  });
}
