import { NO_ROW_YET } from '../engine/index.js';
import { EventHub, serveEvents } from './events.js';
import type { EventTickets } from './event-tickets.js';
import { ApiError, refuseBody, sendJson } from './http-kit.js';
import { error, int, json, ref, str, UNAUTHORIZED } from './openapi-kit.js';
import { operationsOf } from './routes.js';
import type { PaymentOwners, Scope } from './scopes.js';
import type { StreamCaps } from './stream-caps.js';

/** What the event stream and its ticket need of the daemon and of the request. */
export interface EventsApiDeps {
  /** Where the engines' events are fanned out to `GET /v1/events` (none: the stream stays quiet). */
  events?: EventHub | undefined;
  /** The heartbeat comment on the event stream, ms (default 15 s). */
  heartbeatMs?: number | undefined;
  /** Single-use tickets for `GET /v1/events?ticket=` (a browser's EventSource sends no header); one set per app by default. */
  tickets?: EventTickets | undefined;
  /** Which screen started which payment; one per app by default. */
  owners?: PaymentOwners | undefined;
  /** The scope of the request being served (set by the router, per request). */
  scope?: Scope | undefined;
  /** The caps on open event streams (per client, in total); one set per app by default. */
  streams?: StreamCaps | undefined;
}

const quietHub = new EventHub();

/** buildApp gives every app its own tickets. */
export function ticketsOf(deps: EventsApiDeps): EventTickets {
  if (!deps.tickets) throw new ApiError(404, 'NOT_FOUND', 'no event tickets');
  return deps.tickets;
}

/**
 * What a screen's stream shows: the events of the payments it started, and the pinpad's prompts of a
 * card its own open request is typing (no row yet: told by its Idempotency-Key); the register's, everything.
 */
function screenSees(deps: EventsApiDeps): ((e: { id?: unknown; idempotencyKey?: unknown }) => boolean) | undefined {
  const { scope, owners } = deps;
  if (scope === undefined || scope === 'register' || !owners) return undefined;
  return (e) =>
    typeof e.id === 'number' &&
    (e.id === NO_ROW_YET
      ? typeof e.idempotencyKey === 'string' && owners.typingBy(e.idempotencyKey) === scope
      : owners.owns(e.id, scope));
}

const op = operationsOf<EventsApiDeps>();

/** The server-sent event stream and its single-use ticket. */
export const EVENT_OPERATIONS = [
  op({
    method: 'POST',
    path: '/v1/events/ticket',
    operationId: 'createEventTicket',
    tag: 'events',
    screens: 'any',
    errors: ['INVALID_BODY'],
    summary: 'A single-use ticket for `GET /v1/events?ticket=` (a browser EventSource sends no header)',
    description: 'Opens one stream once, within `expiresInMs`; the long-lived token never goes in a URL.',
    responses: {
      '201': json(
        {
          type: 'object',
          properties: { ticket: str, expiresInMs: { type: 'integer' } },
          required: ['ticket', 'expiresInMs'],
          additionalProperties: false,
        },
        'The ticket.',
      ),
      '401': UNAUTHORIZED,
    },
    handle: ({ req, res }, deps) => {
      refuseBody(req);
      sendJson(res, 201, ticketsOf(deps).issue(deps.scope));
    },
  }),
  op({
    method: 'GET',
    path: '/v1/events',
    operationId: 'streamEvents',
    tag: 'events',
    screens: 'any',
    errors: ['INVALID_FIELD', 'TOO_MANY_STREAMS'],
    security: [{ bearer: [] }, { ticket: [] }],
    summary: 'Server-sent events: state changes, codes to show, alarms, the receipt question',
    description:
      "A `text/event-stream` of Event objects while the connection lasts, with a `: heartbeat` comment every 15 s. Each event's `id:` is its `seq`, kept in the terminal's database for the business day (America/Sao_Paulo): a client that reconnects with `Last-Event-ID` (what a browser's EventSource sends by itself) first gets the events of the day after it, in order — across a daemon restart too — then the live ones, none twice. The header `x-omnipos-replay` says `complete`, or `partial` when some of what it missed is not replayed (before today, more than 20,000, or never written); then read `GET /v1/payments`. The replay is read from the database 128 events at a time, each page once the client took the one before; a replay whose client takes nothing for 60 s, or a stream that falls 1 MiB behind, is closed (reconnect with `Last-Event-ID`). At most 8 streams per client address and 64 in all.",
    parameters: [
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'The `seq` (`id:`) of the last event received: the events after it are sent first.',
        schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
      },
    ],
    responses: {
      '200': {
        description: 'The stream.',
        headers: {
          'x-omnipos-replay': {
            description:
              '`none` without `Last-Event-ID`; `complete` when every event after it is replayed; `partial` when some are not.',
            schema: { type: 'string', enum: ['none', 'complete', 'partial'] },
          },
        },
        content: {
          'text/event-stream': {
            schema: {
              type: 'string',
              description:
                "Blocks of `id:`, `event:` and `data:` lines; each `data:` is an Event as JSON. The stream's own document, with each event's fields: `GET /v1/events.openapi.json`.",
              contentSchema: ref('Event'),
            },
            'x-itemSchema': ref('Event'),
          },
        },
      },
      '400': error('A `Last-Event-ID` that is not a seq (`field`).'),
      '401': UNAUTHORIZED,
      '429': {
        ...error(
          'Refused before anything is read or sent: this client address holds 8 streams, or the terminal 64. Close a stream (or wait for one to end) and retry.',
        ),
        headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: int } },
      },
    },
    handle: ({ req, res }, deps) =>
      serveEvents(req, res, deps.events ?? quietHub, {
        heartbeatMs: deps.heartbeatMs,
        caps: deps.streams,
        visible: screenSees(deps),
      }),
  }),
];
