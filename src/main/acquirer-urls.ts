import type { Config } from '../config/index.js';
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
