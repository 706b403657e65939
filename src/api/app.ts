import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpStatusOf, isAllowedHost, isOmniposError } from '../core/index.js';
import { RefusalLog } from './refusals.js';
import { admit } from './auth.js';
import { checkScope, PaymentOwners, scopeOf, type ApiTokens, type Scope } from './scopes.js';
import { ApiError, sendError } from './http-kit.js';
import { EventTickets } from './event-tickets.js';
import { ticketsOf } from './event-operations.js';
import { StreamCaps } from './stream-caps.js';
import { isScreensPath, loadScreens, serveScreens } from './screens.js';
import { isPublic, matchPath, operationKey, takesTicket } from './routes.js';
import { OPERATIONS } from './operations.js';
import type { ApiDeps } from './api-deps.js';

export type { ApiDeps } from './api-deps.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The deps one request is served with: its scope, and for a screen the claim of the payments it starts. */
function scoped(deps: ApiDeps, scope: Scope | undefined): ApiDeps {
  if (scope === undefined || scope === 'register') return { ...deps, scope };
  const owners = deps.owners;
  return {
    ...deps,
    scope,
    onStarted: (id) => owners?.claim(id, scope),
    mayRead: (id) => owners?.owns(id, scope) === true,
  };
}

/** The request target as a URL; one that does not parse (`//`, `http://[`) is a route that does not exist. */
function requestUrl(raw: string): URL {
  try {
    return new URL(raw.startsWith('/') ? `http://localhost${raw}` : raw);
  } catch {
    throw new ApiError(404, 'NOT_FOUND', 'no route for that address');
  }
}

/**
 * The cash register's local API, apart from `listen()`. Every route but the OpenAPI document (and its page)
 * needs the bearer token; nothing in a request can crash the daemon (every error becomes a JSON
 * answer).
 */
export function buildApp(given: ApiDeps): Handler {
  const deps: ApiDeps = {
    ...given,
    tickets: given.tickets ?? new EventTickets(),
    streams: given.streams ?? new StreamCaps(),
    owners: given.owners ?? new PaymentOwners(),
  };
  const tokens: ApiTokens = { register: deps.token, ...deps.screenTokens };
  const authenticate = (req: IncomingMessage): Scope => {
    const scope = scopeOf(req, tokens);
    admit(req, scope);
    return scope;
  };
  const hosts = new Set((given.hosts ?? []).map((h) => h.toLowerCase()));
  // The screens' files are read at their first request, not while the daemon starts (fast start).
  let screens = deps.screens;
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!isAllowedHost(req.headers.host, hosts))
      throw new ApiError(421, 'MISDIRECTED_REQUEST', 'this terminal does not answer for that Host');
    const url = requestUrl(req.url ?? '/');
    if (isScreensPath(url.pathname))
      return serveScreens(req, res, url, {
        token: deps.token,
        tokens,
        files: (screens ??= loadScreens()),
        environment: deps.receipts?.environment,
      });
    // Prometheus scrapes /metrics by convention; every other route is under /v1/.
    if (!url.pathname.startsWith('/v1/') && url.pathname !== '/metrics')
      throw new ApiError(404, 'NOT_FOUND', `no route ${url.pathname}`);
    const method = req.method ?? 'GET';
    const matches = OPERATIONS.map((o) => ({ o, params: matchPath(o.path, url.pathname) })).filter(
      (m) => m.params !== undefined,
    );
    const hit = matches.find((m) => m.o.method === method);
    const byTicket =
      hit && takesTicket(hit.o)
        ? (ticketsOf(deps).redeemScope(url.searchParams.get('ticket')) as Scope | undefined)
        : undefined;
    if (byTicket) admit(req, byTicket);
    const scope = byTicket ?? (matches.some((m) => !isPublic(m.o)) ? authenticate(req) : undefined);
    if (!hit) {
      if (matches.length === 0) authenticate(req);
      throw new ApiError(404, 'NOT_FOUND', `no route ${method} ${url.pathname}`);
    }
    const params = hit.params as Record<string, string>;
    if (scope !== undefined && !isPublic(hit.o))
      checkScope(scope, hit.o.screens, operationKey(hit.o), params.id, deps.owners!);
    const key = req.headers['idempotency-key'];
    if (scope !== undefined && scope !== 'register' && method === 'POST' && typeof key === 'string')
      res.once('close', deps.owners!.typing(key, scope));
    return hit.o.handle({ req, res, params, query: url.searchParams }, scoped(deps, scope));
  };
  const refusals = new RefusalLog(deps.log);
  return (req, res) => {
    Promise.resolve()
      .then(() => route(req, res))
      .catch((e: unknown) => {
        const refusal = refusalCode(e);
        if (refusal === 'UNAUTHORIZED') deps.onAuthFailure?.();
        if (refusal !== undefined) refusals.refused(req, refusal);
        else if (!(e instanceof ApiError))
          deps.log.error({ err: e, url: req.url?.split('?')[0] }, 'api handler failed');
        if (!res.headersSent) sendError(res, e);
        else res.destroy();
      });
  };
}

/**
 * The code of an expected refusal worth an audit line (a bad token, a refused supervisor, a Host
 * that is not this terminal's), or undefined for the rest: bad input answers the caller alone, and a
 * fault (no code of a refusal) is logged with its stack.
 */
function refusalCode(e: unknown): string | undefined {
  if (e instanceof ApiError) return e.status === 401 || e.status === 421 ? e.code : undefined;
  if (isOmniposError(e) && httpStatusOf(e) < 500) return e.code;
  return undefined;
}

/** Listens on loopback by default. */
export async function listenApi(
  handler: Handler,
  host: string,
  port: number,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
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
