import { buildApp, listenApi, type ApiDeps } from '../api/index.js';
import { X509Certificate } from 'node:crypto';
import type { Config } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import { listenLan } from './api-lan.js';
import type { Held } from './held.js';

/** Where the cash register's API listens: loopback, and the LAN when configured; none without the API. */
export interface DaemonApi {
  readonly api: { readonly url: string } | undefined;
  readonly lan: { readonly url: string } | undefined;
}

/**
 * The cash register's API of a starting daemon (none with `api: false`): its handler, listening on
 * the configured host and port (or `port`), and the same handler over TLS on the LAN (`api.lan`);
 * each listener registered in `held` to close.
 */
export async function startApi(
  held: Held,
  config: Config,
  opts: { api: boolean | undefined; port: number | undefined; log: Logger },
  app: Omit<ApiDeps, 'log'>,
): Promise<DaemonApi> {
  if (opts.api === false) return { api: undefined, lan: undefined };
  const values = config.values;
  const handler = buildApp({ ...app, hosts: lanNames(config), log: opts.log.child({ component: 'api' }) });
  const api = await held.step("the cash register's API", () =>
    listenApi(handler, values.api.host, opts.port ?? values.api.port),
  );
  held.add("the cash register's API", () => api.close());
  // The optional LAN listener: the same handler over TLS (api.lan).
  const lan = await held.step("the cash register's API on the LAN (api.lan)", () => listenLan(handler, config));
  if (lan) held.add("the cash register's API on the LAN", () => lan.close());
  return { api, lan };
}

/**
 * The names a cash register on the LAN reaches the API by, which its `Host` carries: `api.lan.host`
 * (not a wildcard) and the names and addresses of the LAN certificate (what the register verifies).
 */
export function lanNames(config: Config): string[] {
  const lan = config.values.api.lan;
  if (!lan) return [];
  const names = lan.host === '0.0.0.0' || lan.host === '::' ? [] : [lan.host];
  if (config.apiLanCert) {
    const san = new X509Certificate(config.apiLanCert).subjectAltName ?? '';
    for (const entry of san.split(/,\s*/)) {
      const m = /^(?:DNS|IP Address):(.+)$/.exec(entry.trim());
      if (m) names.push(m[1] as string);
    }
  }
  return names;
}
