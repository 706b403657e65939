import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Handler } from './app.js';

/** Where and with what the LAN listener answers: a PEM certificate (with its chain) and its key. */
export interface TlsListenOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  cert: string;
  key: string;
}

/**
 * The same API handler over TLS (node:https), for a cash register on another machine. TLS 1.2 at
 * least; the bearer token is still required on every route but the OpenAPI document. Loopback
 * keeps its own plain listener (`listenApi`).
 */
export async function listenApiTls(
  handler: Handler,
  o: TlsListenOptions,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer({ cert: o.cert, key: o.key, minVersion: 'TLSv1.2' }, handler);
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  // A handshake that never completes (a port scanner, a plain-HTTP client) is dropped.
  server.on('tlsClientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `https://${o.host.includes(':') ? `[${o.host}]` : o.host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
