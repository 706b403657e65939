import { Agent } from 'undici';
import { createAcquirer, type Acquirer, type AcquirerSettings } from '../../src/acquirer/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A throwaway HTTP server on loopback for the client tests: real sockets, no interception. */
export async function loopback(
  handler: (req: Recorded, res: ServerResponse) => void | Promise<void>,
): Promise<{ url: string; seen: Recorded[]; close(): Promise<void> }> {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(rec);
      void Promise.resolve(handler(rec, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * The acquirer clients pointed at loopback servers: every address at `url` unless `settings` names
 * another (e.g. `ecommerceQueryUrl`), test credentials, a silent log. The caller closes it.
 */
export function loopbackAcquirer(
  url: string,
  settings: Partial<AcquirerSettings> = {},
  o: { ecommerce?: boolean } = {},
): Acquirer {
  return createAcquirer({
    settings: {
      authUrl: url,
      requestUrl: url,
      queryUrl: url,
      parametersUrl: url,
      walletUrl: url,
      ecommerceUrl: url,
      clientId: 'c',
      timeoutMs: 5000,
      ...settings,
    },
    clientSecret: { reveal: () => 'x' },
    ...(o.ecommerce
      ? { ecommerce: { merchantId: '00000000-0000-4000-8000-000000000009', merchantKey: { reveal: () => 'k' } } }
      : {}),
    environment: 'sandbox',
    clock: { now: () => new Date() },
    log: createLogger({ level: 'silent' }),
    dispatcher: new Agent(),
  });
}
