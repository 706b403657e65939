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
  /** A connection whose handshake is not done by then is dropped, ms (default 10 s). */
  handshakeTimeoutMs?: number;
  /** Connections at once; one more is closed at once (default 64: a shop's registers and screens). */
  maxConnections?: number;
}

/**
 * TLS 1.2's suites: ECDHE (forward secrecy) with an AEAD cipher only, no CBC, no SHA-1, no RSA key
 * exchange. TLS 1.3's own suites (all ECDHE and AEAD) stay as Node sets them.
 */
export const LAN_TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
] as const;

/**
 * The same API handler over TLS (node:https), for a cash register on another machine. TLS 1.2 at
 * least, with ECDHE and AEAD suites only; a handshake not done in 10 s is dropped and connections
 * are capped; the bearer token is still required on every route but the OpenAPI document.
 * Loopback keeps its own plain listener (`listenApi`).
 */
export async function listenApiTls(
  handler: Handler,
  o: TlsListenOptions,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer(
    {
      cert: o.cert,
      key: o.key,
      minVersion: 'TLSv1.2',
      ciphers: LAN_TLS12_CIPHERS.join(':'),
      honorCipherOrder: true,
      handshakeTimeout: o.handshakeTimeoutMs ?? 10_000,
    },
    handler,
  );
  server.maxConnections = o.maxConnections ?? 64;
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
