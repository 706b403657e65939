import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  CNP_RECURRENCE_INTERVALS,
  journalData,
  type CnpPaymentRequest,
  type CnpRecurrenceStatus,
  type CnpSaleData,
} from '../engine/index.js';
import {
  AMOUNT,
  BRAND,
  HOLDER,
  idempotencyKeyOf,
  oneCard,
  SAVED_CARD_ID,
  startCnpSale,
  type CnpSalesApiDeps,
} from './card-not-present.js';
import { ApiError, houseMessage, invalidField, readJson, sendJson } from './http-kit.js';
import { error, int, json, ref, rowIdParameter, str, UNAUTHORIZED, type Schema } from './openapi-kit.js';
import { BODY_ERRORS, START_ERRORS, TYPED_ERRORS } from './openapi-errors.js';
import { operationsOf } from './routes.js';

/**
 * A recurrence the host schedules (the e-commerce API's `RecurrentPayment`, ecom:4256-4500), created
 * at a kiosk: its first charge is a sale now (`AuthorizeNow`), the card typed on the pinpad or a
 * saved card; the host charges it again at each interval. Its status is the host's
 * (`GET /1/RecurrentPayment/{id}`, ecom:5928-6052). The webservice 1.5 schedules none (its recurrent
 * sale, `autorizar` 4, is the store's own: ws15:857-898): both routes refuse it by name there.
 */

const RECURRENCES = '/v1/card-not-present/recurrences';

/** The body of `POST /v1/card-not-present/recurrences`: the first charge, and how often the host charges again. */
export const RecurrenceBody = z
  .strictObject({
    amount: AMOUNT,
    holder: HOLDER.optional(),
    brand: BRAND.optional(),
    savedCardId: SAVED_CARD_ID.optional(),
    interval: z.enum(CNP_RECURRENCE_INTERVALS),
    /** The last day it charges (ecom:4342 `EndDate`); absent: until the merchant ends it. */
    endDate: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'a date, YYYY-MM-DD')
      .optional(),
  })
  .superRefine(oneCard);

function cnpOf(deps: CnpSalesApiDeps): NonNullable<CnpSalesApiDeps['cnp']> {
  const cnp = deps.cnp;
  if (!cnp) throw new ApiError(409, 'NOT_AVAILABLE', 'recurrences need cardNotPresent in the configuration');
  if (!cnp.engine.schedulesRecurrences)
    throw new ApiError(
      501,
      'CNP_NOT_OFFERED',
      'the webservice 1.5 schedules no recurrence (its recurrent sale is the store’s own: a sale by a saved card); nothing was sent',
    );
  return cnp;
}

/**
 * `POST /v1/card-not-present/recurrences`: refused by name where the host schedules none, before the
 * card is typed; otherwise a sale with its `recurrence` (one installment, captured), journaled and
 * decided as every card-not-present sale.
 */
async function createRecurrence(req: IncomingMessage, res: ServerResponse, deps: CnpSalesApiDeps): Promise<void> {
  const key = idempotencyKeyOf(req);
  const parsed = RecurrenceBody.safeParse(await readJson(req), { error: houseMessage });
  if (!parsed.success) throw invalidField(parsed.error);
  cnpOf(deps);
  const { amount, holder, brand, savedCardId, interval, endDate } = parsed.data;
  const request: CnpPaymentRequest = {
    amount,
    installments: 1,
    capture: true,
    method: 'credit',
    recurrence: { interval, ...(endDate ? { endDate } : {}) },
  };
  const source = savedCardId !== undefined ? { savedCardId } : { holder: holder ?? '', ...(brand ? { brand } : {}) };
  await startCnpSale(req, res, deps, { request, source, key }, (id) => `${RECURRENCES}/${id}`);
}

function recurrenceView(id: number, d: CnpSaleData, s: Extract<CnpRecurrenceStatus, { kind: 'found' }>) {
  return {
    id,
    recurrentPaymentId: s.id,
    status: s.status,
    interval: d.request.recurrence?.interval,
    ...(d.request.recurrence?.endDate ? { endDate: d.request.recurrence.endDate } : {}),
    ...(s.nextDate ? { nextDate: s.nextDate } : {}),
    ...(s.amountCents !== undefined ? { amount: s.amountCents } : {}),
    paymentIds: s.paymentIds,
    detail: s.detail,
  };
}

/** `GET /v1/card-not-present/recurrences/{id}`: the recurrence sale `id` opened, as its host shows it now. */
async function getRecurrence(res: ServerResponse, deps: CnpSalesApiDeps, raw: string): Promise<void> {
  const cnp = cnpOf(deps);
  const entry = /^\d{1,12}$/.test(raw) ? deps.journal.get(Number(raw)) : undefined;
  const d = entry?.kind === 'cnp' ? journalData<CnpSaleData>(entry) : undefined;
  if (!entry || !d?.request.recurrence) throw new ApiError(404, 'NOT_FOUND', `no recurrence ${raw}`);
  if (!d.recurrenceId)
    throw new ApiError(
      409,
      'NOT_ALLOWED',
      `the host opened no recurrence with sale ${raw} (it is ${entry.state}): only an approved first charge opens one`,
    );
  const s = await cnp.engine.recurrence(d.recurrenceId);
  if (s.kind === 'not-found') throw new ApiError(404, 'NOT_FOUND', `the host knows no recurrence ${d.recurrenceId}`);
  if (s.kind === 'unknown') throw new ApiError(503, 'ACQUIRER_UNREACHABLE', `the host did not tell (${s.detail})`);
  sendJson(res, 200, recurrenceView(entry.id, d, s));
}

const INTERVAL = { type: 'string', enum: [...CNP_RECURRENCE_INTERVALS] };

/** The recurrences' schemas (the document's `CnpRecurrenceRequest`, `CnpRecurrence`, `CnpRecurrenceAsked`). */
export const CNP_RECURRENCE_SCHEMAS: Record<string, Schema> = {
  CnpRecurrenceRequest: (() => {
    const { $schema: _drop, ...schema } = z.toJSONSchema(RecurrenceBody, { io: 'input' }) as Schema;
    return schema;
  })(),
  CnpRecurrenceAsked: {
    type: 'object',
    required: ['interval'],
    description: 'The recurrence a sale asked the host to schedule, this sale its first charge.',
    properties: { interval: INTERVAL, endDate: { ...str, format: 'date' } },
  },
  CnpRecurrence: {
    type: 'object',
    required: ['id', 'recurrentPaymentId', 'status', 'interval', 'paymentIds', 'detail'],
    properties: {
      id: { ...int, description: 'The sale that opened it (its first charge).' },
      recurrentPaymentId: { ...str, description: "The host's id (`RecurrentPaymentId`)." },
      status: {
        type: 'string',
        enum: ['active', 'finished', 'deactivated'],
        description: "The host's `Status` (ecom:6046): 1 active, 2 finished, 3-5 deactivated.",
      },
      interval: INTERVAL,
      endDate: { ...str, format: 'date' },
      nextDate: { ...str, description: 'The next charge, as the host writes it.' },
      amount: { ...int, description: 'Cents of each charge.' },
      paymentIds: { type: 'array', items: str, description: "The host's charges of it so far (`PaymentId`)." },
      detail: { ...str, description: "The host's own terms." },
    },
  },
};

const op = operationsOf<CnpSalesApiDeps>();
const notOffered = error('CNP_NOT_OFFERED: the webservice 1.5 schedules no recurrence; nothing was sent.');

/** Create a recurrence the host schedules, read it. */
export const CNP_RECURRENCE_OPERATIONS = [
  op({
    method: 'POST',
    path: RECURRENCES,
    operationId: 'createCardNotPresentRecurrence',
    tag: 'card-not-present',
    screens: { cashier: 'any', kiosk: 'own' },
    errors: [
      ...BODY_ERRORS,
      ...START_ERRORS,
      'IDEMPOTENCY_KEY_REUSED',
      'NOT_AVAILABLE',
      'CNP_NOT_OFFERED',
      ...TYPED_ERRORS,
    ],
    summary: 'Create a recurrence the host schedules: its first charge now, the card typed on the pinpad or saved',
    description:
      'A sale of `amount` (one installment, captured) with `RecurrentPayment` (`AuthorizeNow`, ecom:4256-4500): the host keeps the recurrence once this first charge is approved and charges the card again at each `interval` until `endDate`. The card as on `POST /v1/card-not-present/sales`: `holder` (typed on the pinpad) or `savedCardId`. Answered once the first charge is journaled and sent: the sale (its `recurrenceId` once the host answered); `Location` is the recurrence, read it on `GET /v1/card-not-present/recurrences/{id}`. The webservice 1.5 schedules none: 501 before anything is typed.',
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'As on `POST /v1/card-not-present/sales` (shared with every payment): the same key and request return the same first charge (200); another request, 422.',
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
      },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: ref('CnpRecurrenceRequest') } } },
    responses: {
      '200': json(ref('CnpSale'), 'The first charge this Idempotency-Key already started.'),
      '202': {
        ...json(ref('CnpSale'), 'Its first charge, journaled and sent.'),
        headers: { Location: { schema: str } },
      },
      '400': error('A field at fault (`field`), or a body that is not JSON.'),
      '401': UNAUTHORIZED,
      '409': error('BUSY, CNP_TYPING_CANCELLED (nothing typed), NOT_AVAILABLE (no `cardNotPresent`).'),
      '413': error('A body larger than 64 KiB.'),
      '415': error('A body that is not application/json.'),
      '422': error('IDEMPOTENCY_KEY_REUSED, or the typed card refused before sending.'),
      '501': notOffered,
      '503': error('The terminal cannot sell now, or the BIN lookup did not answer: nothing was sent.'),
    },
    handle: ({ req, res }, deps) => createRecurrence(req, res, deps),
  }),
  op({
    method: 'GET',
    path: `${RECURRENCES}/{id}`,
    operationId: 'getCardNotPresentRecurrence',
    tag: 'card-not-present',
    screens: { cashier: 'own', kiosk: 'own' },
    errors: ['NOT_FOUND', 'NOT_ALLOWED', 'NOT_AVAILABLE', 'CNP_NOT_OFFERED', 'ACQUIRER_UNREACHABLE'],
    summary: 'Read a recurrence as its host shows it now',
    parameters: [rowIdParameter('The sale that opened it (the id `POST /v1/card-not-present/recurrences` returned).')],
    responses: {
      '200': json(ref('CnpRecurrence'), "The host's status of it."),
      '401': UNAUTHORIZED,
      '404': error('No sale asked a recurrence under this id, or the host knows none.'),
      '409': error('NOT_ALLOWED: the first charge opened none (not answered yet, declined or failed); NOT_AVAILABLE.'),
      '501': notOffered,
      '503': error('The host did not answer the query: retry.'),
    },
    handle: ({ res, params }, deps) => getRecurrence(res, deps, params.id),
  }),
];
