import { type Handler, listenApiTls } from '../api/index.js';
import type { Config } from '../config/index.js';

/** The API's LAN listener over TLS when `api.lan` is configured (the same handler as loopback); none otherwise. */
export async function listenLan(
  handler: Handler,
  config: Config,
): Promise<Awaited<ReturnType<typeof listenApiTls>> | undefined> {
  const lan = config.values.api.lan;
  if (!lan || !config.apiLanCert || !config.secrets.apiLanKey) return undefined;
  return listenApiTls(handler, {
    host: lan.host,
    port: lan.port,
    cert: config.apiLanCert,
    key: config.secrets.apiLanKey.reveal(),
  });
}
