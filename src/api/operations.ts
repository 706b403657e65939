import type { ApiDeps } from './api-deps.js';
import { CNP_CAPTURE_OPERATIONS } from './card-not-present-capture.js';
import { CNP_SALE_OPERATIONS } from './card-not-present.js';
import { CNP_CARD_OPERATIONS } from './card-not-present-cards.js';
import { CNP_RECURRENCE_OPERATIONS } from './card-not-present-recurrences.js';
import { DAY_OPERATIONS } from './day.js';
import { EVENT_OPERATIONS } from './event-operations.js';
import { HEALTH_OPERATIONS } from './health.js';
import { METRICS_OPERATIONS } from './metrics.js';
import { error } from './openapi-kit.js';
import { PAYMENT_ACTION_OPERATIONS, PAYMENT_OPERATIONS } from './payments.js';
import { RECEIPT_OPERATIONS } from './receipts.js';
import { serveDocument, serveReference, serveStreamDocument } from './reference.js';
import { operationsOf, type Operation } from './routes.js';
import { VOID_OPERATIONS } from './voids.js';

const op = operationsOf<unknown>();
const NOT_ACCEPTABLE = ['NOT_ACCEPTABLE'] as const;

/** The document itself, as JSON and as a page, and the event stream's own: open without a token. */
const REFERENCE_OPERATIONS = [
  op({
    method: 'GET',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'reference',
    errors: NOT_ACCEPTABLE,
    summary: 'This document',
    description:
      'The source of the generated clients and of `GET /v1/docs`; kept in the repository as `src/api/openapi.json`.',
    security: [],
    responses: {
      '200': { description: 'OpenAPI 3.1.', content: { 'application/json': { schema: { type: 'object' } } } },
      '406': error('`Accept` does not take application/json.'),
    },
    handle: ({ req, res }) => serveDocument(req, res, OPERATIONS),
  }),
  op({
    method: 'GET',
    path: '/v1/events.openapi.json',
    operationId: 'getEventStreamDocument',
    tag: 'reference',
    errors: NOT_ACCEPTABLE,
    summary: "The event stream's own document",
    description:
      "`GET /v1/events` as OpenAPI 3.2 describes a `text/event-stream`: each event's `event`, `id` and `data` (an `Event` as JSON) in the Media Type's `itemSchema`, for tools that read server-sent events. Kept in the repository as `src/api/events.openapi.json`.",
    security: [],
    responses: {
      '200': { description: 'OpenAPI 3.2.', content: { 'application/json': { schema: { type: 'object' } } } },
      '406': error('`Accept` does not take application/json.'),
    },
    handle: ({ req, res }) => serveStreamDocument(req, res),
  }),
  op({
    method: 'GET',
    path: '/v1/docs',
    operationId: 'getApiReference',
    tag: 'reference',
    errors: NOT_ACCEPTABLE,
    summary: 'This document as a page (the API reference)',
    description:
      "One HTML page rendered by the daemon from the same document: no script, nothing from another origin, served under the screens' content security policy.",
    security: [],
    responses: {
      '200': { description: 'The reference.', content: { 'text/html': { schema: { type: 'string' } } } },
      '406': error('`Accept` does not take text/html.'),
    },
    handle: ({ req, res }) => serveReference(req, res, OPERATIONS),
  }),
];

/**
 * Every operation of the API, in the order the OpenAPI document lists them: the router serves this
 * list (src/api/app.ts) and the document is built from it (src/api/openapi.ts, `npm run generate`).
 * Each is declared once, beside its handler (src/api/routes.ts `Operation`); an area's operations
 * need only a part of the daemon (their deps), which `ApiDeps` holds whole.
 */
export const OPERATIONS: readonly Operation<ApiDeps>[] = [
  ...PAYMENT_OPERATIONS,
  ...RECEIPT_OPERATIONS,
  ...PAYMENT_ACTION_OPERATIONS,
  ...EVENT_OPERATIONS,
  ...HEALTH_OPERATIONS,
  ...DAY_OPERATIONS,
  ...VOID_OPERATIONS,
  ...CNP_SALE_OPERATIONS,
  ...CNP_CAPTURE_OPERATIONS,
  ...CNP_CARD_OPERATIONS,
  ...CNP_RECURRENCE_OPERATIONS,
  ...METRICS_OPERATIONS,
  ...REFERENCE_OPERATIONS,
];
