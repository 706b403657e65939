import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpStatusOf, isAllowedHost, isOmniposError, type Logger } from '../core/index.js';
import { RefusalLog } from './refusals.js';
import type { Outbox } from '../store/index.js';
import { admit } from './auth.js';
import { checkScope, PaymentOwners, scopeOf, type ApiTokens, type Scope, type ScreenScope } from './scopes.js';
import { ApiError, refuseBody, sendError, sendJson } from './http-kit.js';
import { EventHub, serveEvents } from './events.js';
import { healthView, type HealthSources } from './health.js';
import { EventTickets } from './event-tickets.js';
import { StreamCaps } from './stream-caps.js';
import { isScreensPath, loadScreens, serveScreens } from './screens.js';
import { serveDocument, serveReference, serveStreamDocument } from './reference.js';
import { act, createPayment, getPayment, listPayments, type PaymentsDeps } from './payments.js';
import { answerReceipt, reprintReceipt, showReceipt, type ReceiptService } from './receipts.js';
import { DAY_ROUTES, type DayApiDeps } from './day.js';
import { VOID_ROUTES, type VoidsApiDeps } from './voids.js';
import { CNP_SALE_ROUTES, type CnpSalesApiDeps } from './card-not-present.js';
import { CNP_CAPTURE_ROUTES, type CnpCaptureApiDeps } from './card-not-present-capture.js';
import { CNP_CARD_ROUTES, type CnpCardsApiDeps } from './card-not-present-cards.js';
import { CNP_RECURRENCE_ROUTES } from './card-not-present-recurrences.js';
import { matchPath, type Route } from './routes.js';
import { serveMetrics, type MetricsSource } from './metrics.js';

export interface ApiDeps
  extends PaymentsDeps, DayApiDeps, VoidsApiDeps, CnpSalesApiDeps, CnpCaptureApiDeps, CnpCardsApiDeps {
  token: string;
  outbox: Outbox;
  log: Logger;
  /** Where the engines' events are fanned out to `GET /v1/events` (none: the stream stays quiet). */
  events?: EventHub | undefined;
  /** The heartbeat comment on the event stream, ms (default 15 s). */
  heartbeatMs?: number | undefined;
  /** What `GET /v1/health` reports besides busy and the outbox. */
  health?: HealthSources | undefined;
  /** Receipt views and reprints (none: those routes answer 409). */
  receipts?: ReceiptService | undefined;
  /** Single-use tickets for `GET /v1/events?ticket=` (a browser's EventSource sends no header); one set per app by default. */
  tickets?: EventTickets | undefined;
  /** The screens' own tokens (`kiosk-token`, `cashier-token`): each reaches only its own sales (src/api/scopes.ts). */
  screenTokens?: Partial<Record<ScreenScope, string>> | undefined;
  /** Which screen started which payment; one per app by default. */
  owners?: PaymentOwners | undefined;
  /** The scope of the request being served (set by the router, per request). */
  scope?: Scope | undefined;
  /** The caps on open event streams (per client, in total); one set per app by default. */
  streams?: StreamCaps | undefined;
  /** `GET /metrics`'s Prometheus exposition (none: 404). */
  metrics?: MetricsSource | undefined;
  /** The screens' files (default: read once from src/screens). */
  screens?: ReturnType<typeof loadScreens> | undefined;
  /**
   * The names a request's `Host` may carry besides the loopback ones (the LAN listener's host and
   * its certificate's names); any other Host is refused (421), against DNS rebinding.
   */
  hosts?: readonly string[] | undefined;
  /** Told of each request refused for its bearer token (the `/metrics` counter). */
  onAuthFailure?: (() => void) | undefined;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const quietHub = new EventHub();

/**
 * Every route the API serves: the router matches on this table and the OpenAPI test lists the
 * routes from it.
 */
export const ROUTES: readonly Route<ApiDeps>[] = [
  { method: 'POST', path: '/v1/payments', handle: ({ req, res }, deps) => createPayment(req, res, deps) },
  { method: 'GET', path: '/v1/payments', handle: ({ res, query }, deps) => listPayments(res, deps, query) },
  {
    method: 'GET',
    path: '/v1/payments/{id}',
    handle: ({ res, params }, deps) => getPayment(res, deps, params.id as string),
  },
  ...(['confirm', 'undo', 'cancel'] as const).map((action): Route<ApiDeps> => ({
    method: 'POST',
    path: `/v1/payments/{id}/${action}`,
    handle: ({ req, res, params }, deps) => act(req, res, deps, params.id as string, action),
  })),
  {
    method: 'POST',
    path: '/v1/events/ticket',
    handle: ({ req, res }, deps) => {
      refuseBody(req);
      sendJson(res, 201, ticketsOf(deps).issue(deps.scope));
    },
  },
  {
    method: 'GET',
    path: '/v1/events',
    ticket: true,
    handle: ({ req, res }, deps) =>
      serveEvents(req, res, deps.events ?? quietHub, {
        heartbeatMs: deps.heartbeatMs,
        caps: deps.streams,
        visible: screenSees(deps),
      }),
  },
  {
    method: 'GET',
    path: '/v1/payments/{id}/receipt',
    handle: ({ res, params, query }, deps) => showReceipt(res, deps, params.id as string, query),
  },
  {
    method: 'POST',
    path: '/v1/payments/{id}/receipt/print',
    handle: ({ req, res, params }, deps) => reprintReceipt(req, res, deps, params.id as string),
  },
  {
    method: 'POST',
    path: '/v1/payments/{id}/receipt/answer',
    handle: ({ req, res, params }, deps) => answerReceipt(req, res, deps, params.id as string),
  },
  { method: 'GET', path: '/v1/health', handle: ({ res }, deps) => sendJson(res, 200, healthView(deps)) },
  ...DAY_ROUTES,
  ...VOID_ROUTES,
  ...CNP_SALE_ROUTES,
  ...CNP_CAPTURE_ROUTES,
  ...CNP_CARD_ROUTES,
  ...CNP_RECURRENCE_ROUTES,
  { method: 'GET', path: '/v1/openapi.json', auth: false, handle: ({ req, res }) => serveDocument(req, res) },
  { method: 'GET', path: '/v1/docs', auth: false, handle: ({ req, res }) => serveReference(req, res) },
  {
    method: 'GET',
    path: '/v1/events.openapi.json',
    auth: false,
    handle: ({ req, res }) => serveStreamDocument(req, res),
  },
  { method: 'GET', path: '/metrics', handle: ({ res }, deps) => serveMetrics(res, deps.metrics) },
];

/** What a screen's stream shows: the events of the payments it started; the register's, everything. */
function screenSees(deps: ApiDeps): ((e: { id?: unknown }) => boolean) | undefined {
  const { scope, owners } = deps;
  if (scope === undefined || scope === 'register' || !owners) return undefined;
  return (e) => typeof e.id === 'number' && owners.owns(e.id, scope);
}

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

/** buildApp gives every app its own tickets. */
function ticketsOf(deps: ApiDeps): EventTickets {
  if (!deps.tickets) throw new ApiError(404, 'NOT_FOUND', 'no event tickets');
  return deps.tickets;
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
    const matches = ROUTES.map((r) => ({ r, params: matchPath(r.path, url.pathname) })).filter(
      (m) => m.params !== undefined,
    );
    const hit = matches.find((m) => m.r.method === method);
    const byTicket =
      hit?.r.ticket === true
        ? (ticketsOf(deps).redeemScope(url.searchParams.get('ticket')) as Scope | undefined)
        : undefined;
    if (byTicket) admit(req, byTicket);
    const scope = byTicket ?? (matches.some((m) => m.r.auth !== false) ? authenticate(req) : undefined);
    if (!hit) {
      if (matches.length === 0) authenticate(req);
      throw new ApiError(404, 'NOT_FOUND', `no route ${method} ${url.pathname}`);
    }
    const params = hit.params as Record<string, string>;
    if (scope !== undefined && hit.r.auth !== false)
      checkScope(scope, `${method} ${hit.r.path}`, params.id, deps.owners!);
    return hit.r.handle({ req, res, params, query: url.searchParams }, scoped(deps, scope));
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
