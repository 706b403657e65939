import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '../core/index.js';

/** The methods the API serves. */
export type Method = 'GET' | 'POST' | 'DELETE';

type Schema = Record<string, unknown>;

/** The path parameters a template names: `/v1/payments/{id}/void` gives `{ id: string }`. */
export type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}`
  ? Record<K, string> & PathParams<Rest>
  : unknown;

/** What an operation's handler is given: the request, the answer, the path's parameters and the query. */
export interface RouteCall<P = unknown> {
  req: IncomingMessage;
  res: ServerResponse;
  params: P;
  query: URLSearchParams;
}

/** The reference's groups (an operation's `tag`), in the order it shows them. */
export const TAGS = [
  {
    name: 'payments',
    description: 'Start a payment (card, wallet QR, Pix), read it, decide it (confirm, undo, cancel).',
  },
  { name: 'receipts', description: "A payment's receipt: view it, reprint it, answer the receipt question." },
  {
    name: 'voids',
    description: 'Void a confirmed card sale, or refund a Pix or an e-commerce QR sale, with a supervisor.',
  },
  {
    name: 'card-not-present',
    description:
      'Sales without the card present (phone orders, pre-authorizations), the card typed on the pinpad or saved at the host; saved cards; recurrences the host schedules.',
  },
  { name: 'events', description: 'The server-sent event stream and its single-use ticket.' },
  { name: 'day', description: "The business day's report and close." },
  { name: 'health', description: "The terminal's health: pinpad, printer, acquirer, outbox, alarms." },
  { name: 'reference', description: 'This document, as JSON and as a page.' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];

/**
 * An operation's `security`, as the OpenAPI document writes it: `[]` for an operation open without a
 * token (the document and its page), `bearer` and `ticket` for the event stream. Absent: the cash
 * register's bearer token (the document's default). The router reads the same field.
 */
export type SecurityRequirement = Partial<Record<'bearer' | 'ticket', readonly string[]>>;

/**
 * What a screen's token (`kiosk-token`, `cashier-token`, src/api/scopes.ts) reaches of an operation:
 * `any`, or `own` for one payment, which must be one this screen started (another's is 404). Absent:
 * the operation answers 401 to a screen's token, and the document lists no screen scheme on it.
 */
export type ScreenReach = 'any' | 'own';

/**
 * An operation's `screens`: one reach for both screens, or each screen's own (`{ cashier: 'own' }`:
 * the kiosk's token is refused it). A screen not named reaches nothing of it.
 */
export type ScreenReaches = ScreenReach | Readonly<Partial<Record<'kiosk' | 'cashier', ScreenReach>>>;

/** The document's fields of an operation, in the order it writes them (the declaration's order). */
interface OperationText {
  summary: string;
  description?: string;
  security?: readonly SecurityRequirement[];
  requestBody?: Schema;
  /** Every answer by status. The error answers' codes come from `errors`, each at its catalogue status. */
  responses: Readonly<Record<string, Schema>>;
}

interface OperationBase<D, P extends string> extends OperationText {
  method: Method;
  /** An OpenAPI path template (`/v1/payments/{id}`): the router matches on it, the document is keyed by it. */
  path: P;
  /** What a generated client calls it: part of the API, never renamed (docs/integration.md). */
  operationId: string;
  tag: Tag;
  screens?: ScreenReaches;
  /**
   * Every code it answers, from the one catalogue (src/core/errors/codes.ts gives each its status):
   * the document lists them per status as an enum of `Error.code`, and the tests hold every answer of
   * the daemon to it. `UNAUTHORIZED` (behind the token) and `MISDIRECTED_REQUEST` are added for all.
   */
  errors: readonly ErrorCode[];
  handle(call: RouteCall<PathParams<P>>, deps: D): Promise<void> | void;
}

/**
 * One operation of the API, declared once: the router serves it (src/api/app.ts) and the OpenAPI
 * document describes it (src/api/openapi.ts) from this one object, listed in
 * src/api/operations.ts. A path with a `{parameter}` must declare its `parameters`; its handler
 * reads them typed.
 */
export type Operation<D, P extends string = string> = OperationBase<D, P> &
  (P extends `${string}{${string}}${string}` ? { parameters: readonly Schema[] } : { parameters?: readonly Schema[] });

/** The operations of one area, typed by what they need of the daemon: `const op = operationsOf<DayApiDeps>()`. */
export const operationsOf =
  <D>() =>
  <const P extends string>(o: Operation<D, P>): Operation<D> =>
    o;

/** `METHOD path`, as the router and the document name an operation. */
export const operationKey = (o: { method: Method; path: string }): string => `${o.method} ${o.path}`;

/** True for an operation open without a token (`security: []`: the document and its page). */
export const isPublic = (o: { security?: readonly SecurityRequirement[] }): boolean => o.security?.length === 0;

/** True for an operation that also takes a single-use `?ticket=` (the event stream: a browser's EventSource sends no header). */
export const takesTicket = (o: { security?: readonly SecurityRequirement[] }): boolean =>
  o.security?.some((s) => s.ticket !== undefined) === true;

/**
 * Matches `pathname` against a path template segment by segment; the `{name}` segments become
 * parameters. An empty segment matches nothing: `/v1//health` and `/v1/health/` are not `/v1/health`.
 */
export function matchPath(template: string, pathname: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith('{') && w.endsWith('}')) {
      if (g === '') return undefined;
      params[w.slice(1, -1)] = g;
    } else if (w !== g) return undefined;
  }
  return params;
}
