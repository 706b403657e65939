import { withErrorCodes } from './openapi-errors.js';
import { SCREEN_ROUTES, SCREEN_SCOPES } from './scopes.js';

/**
 * What a generated client names each operation, and how the reference groups them. One row per
 * route (`METHOD path`); the OpenAPI document takes `operationId` and `tags` from here. An
 * `operationId` is part of the API: a cash register's generated client calls it by that name, so a
 * row is never renamed, only added.
 */
export interface OperationName {
  operationId: string;
  tag: Tag;
}

/** The reference's groups, in the order it shows them. */
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

export const OPERATIONS: Readonly<Record<string, OperationName>> = {
  'POST /v1/payments': { operationId: 'createPayment', tag: 'payments' },
  'GET /v1/payments': { operationId: 'listPayments', tag: 'payments' },
  'GET /v1/payments/{id}': { operationId: 'getPayment', tag: 'payments' },
  'POST /v1/payments/{id}/confirm': { operationId: 'confirmPayment', tag: 'payments' },
  'POST /v1/payments/{id}/undo': { operationId: 'undoPayment', tag: 'payments' },
  'POST /v1/payments/{id}/cancel': { operationId: 'cancelPayment', tag: 'payments' },
  'GET /v1/payments/{id}/receipt': { operationId: 'getReceipt', tag: 'receipts' },
  'POST /v1/payments/{id}/receipt/answer': { operationId: 'answerReceiptQuestion', tag: 'receipts' },
  'POST /v1/payments/{id}/receipt/print': { operationId: 'reprintReceipt', tag: 'receipts' },
  'POST /v1/payments/{id}/void': { operationId: 'createVoid', tag: 'voids' },
  'GET /v1/payments/{id}/voids': { operationId: 'listVoids', tag: 'voids' },
  'GET /v1/voids/{id}': { operationId: 'getVoid', tag: 'voids' },
  'POST /v1/card-not-present/sales': { operationId: 'createCardNotPresentSale', tag: 'card-not-present' },
  'GET /v1/card-not-present/sales/{id}': { operationId: 'getCardNotPresentSale', tag: 'card-not-present' },
  'POST /v1/card-not-present/sales/{id}/capture': { operationId: 'captureCardNotPresentSale', tag: 'card-not-present' },
  'POST /v1/card-not-present/sales/{id}/void': { operationId: 'voidCardNotPresentSale', tag: 'card-not-present' },
  'POST /v1/card-not-present/cards': { operationId: 'saveCardNotPresentCard', tag: 'card-not-present' },
  'GET /v1/card-not-present/cards': { operationId: 'listCardNotPresentCards', tag: 'card-not-present' },
  'GET /v1/card-not-present/cards/{id}': { operationId: 'getCardNotPresentCard', tag: 'card-not-present' },
  'DELETE /v1/card-not-present/cards/{id}': { operationId: 'removeCardNotPresentCard', tag: 'card-not-present' },
  'POST /v1/card-not-present/recurrences': { operationId: 'createCardNotPresentRecurrence', tag: 'card-not-present' },
  'GET /v1/card-not-present/recurrences/{id}': { operationId: 'getCardNotPresentRecurrence', tag: 'card-not-present' },
  'POST /v1/events/ticket': { operationId: 'createEventTicket', tag: 'events' },
  'GET /v1/events': { operationId: 'streamEvents', tag: 'events' },
  'GET /v1/day/report': { operationId: 'getDayReport', tag: 'day' },
  'POST /v1/day/close': { operationId: 'closeDay', tag: 'day' },
  'GET /v1/health': { operationId: 'getHealth', tag: 'health' },
  'GET /metrics': { operationId: 'getMetrics', tag: 'health' },
  'GET /v1/openapi.json': { operationId: 'getOpenApiDocument', tag: 'reference' },
  'GET /v1/docs': { operationId: 'getApiReference', tag: 'reference' },
  'GET /v1/events.openapi.json': { operationId: 'getEventStreamDocument', tag: 'reference' },
};

/**
 * `paths` with each operation's `operationId` and `tags` from {@link OPERATIONS}, and its error answers
 * from the error catalogue (src/api/openapi-errors.ts); an operation without a row is an error.
 */
export function named(paths: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, ops]) => [
      path,
      Object.fromEntries(
        Object.entries(ops).map(([method, op]) => {
          const name = OPERATIONS[`${method.toUpperCase()} ${path}`];
          if (!name)
            throw new Error(`openapi: no operationId for ${method.toUpperCase()} ${path} (add it to OPERATIONS)`);
          const o = op as Record<string, unknown> & { responses: Parameters<typeof withErrorCodes>[1] };
          const key = `${method.toUpperCase()} ${path}`;
          const responses = withErrorCodes(key, o.responses, !(Array.isArray(o.security) && o.security.length === 0));
          return [
            method,
            { operationId: name.operationId, tags: [name.tag], ...o, ...screenSecurity(key, o), responses },
          ];
        }),
      ),
    ]),
  );
}

/**
 * An operation a screen's token reaches (src/api/scopes.ts) lists the screens' schemes besides the
 * cash register's `bearer` (and `ticket` where it had it); the others keep `bearer` alone.
 */
function screenSecurity(key: string, o: Record<string, unknown>): { security?: Record<string, string[]>[] } {
  if (!SCREEN_ROUTES.has(key)) return {};
  const given = Array.isArray(o.security) ? (o.security as Record<string, string[]>[]) : [{ bearer: [] }];
  const [first, ...rest] = given;
  return { security: [...(first ? [first] : []), ...SCREEN_SCOPES.map((s) => ({ [s]: [] })), ...rest] };
}
