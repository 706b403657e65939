import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../core/log/index.js';
import type { Outbox } from '../store/index.js';
import { requireToken } from './auth.js';
import { ApiError, sendError, sendJson } from './http-kit.js';
import { act, createPayment, getPayment, listPayments, type PaymentsDeps } from './payments.js';

export interface ApiDeps extends PaymentsDeps {
  token: string;
  outbox: Outbox;
  log: Logger;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The cash register's local API, apart from `listen()`. Every route needs the bearer token;
 * nothing in a request can crash the daemon (every error becomes a JSON answer).
 */
export function buildApp(deps: ApiDeps): Handler {
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v1') throw new ApiError(404, 'NOT_FOUND', `no route ${url.pathname}`);
    requireToken(req, deps.token);
    const method = req.method ?? 'GET';
    if (parts[1] === 'payments') {
      if (parts.length === 2 && method === 'POST') return createPayment(req, res, deps);
      if (parts.length === 2 && method === 'GET') return listPayments(res, deps, url.searchParams);
      if (parts.length === 3 && method === 'GET') return getPayment(res, deps, parts[2] as string);
      if (parts.length === 4 && method === 'POST' && ['confirm', 'undo', 'cancel'].includes(parts[3] as string)) {
        return act(res, deps, parts[2] as string, parts[3] as 'confirm' | 'undo' | 'cancel');
      }
    }
    if (parts[1] === 'health' && parts.length === 2 && method === 'GET') {
      const outbox = deps.outbox.depth();
      return sendJson(res, 200, { status: 'ok', busy: deps.engine.busy, outbox });
    }
    throw new ApiError(404, 'NOT_FOUND', `no route ${method} ${url.pathname}`);
  };
  return (req, res) => {
    route(req, res).catch((e: unknown) => {
      if (!(e instanceof ApiError)) deps.log.error({ err: e, url: req.url }, 'api handler failed');
      if (!res.headersSent) sendError(res, e);
      else res.destroy();
    });
  };
}

/** Listens on loopback by default. */
export async function listenApi(handler: Handler, host: string, port: number): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
