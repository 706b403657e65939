import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isOmniposError } from '../core/index.js';
import {
  journalData,
  type CnpEngine,
  type CnpPaymentRequest,
  type CnpSaleData,
  type TypedCard,
  type TypedCardFacts,
} from '../engine/index.js';
import type { Journal, JournalEntry } from '../store/index.js';
import { ApiError, houseMessage, invalidField, readJson, sendJson } from './http-kit.js';
import { int, json, ref, str, time, type Schema } from './openapi-kit.js';
import type { Route } from './routes.js';

/** The daemon's card-not-present sales (`cardNotPresent`; absent: the routes answer 409 NOT_AVAILABLE). */
export interface CnpSales {
  engine: CnpEngine;
  /** The card typed on the pinpad for one request (src/main/card-not-present.ts). */
  typedCard(facts: TypedCardFacts, signal?: AbortSignal): Promise<TypedCard>;
}

export interface CnpSalesApiDeps {
  cnp?: CnpSales | undefined;
  journal: Journal;
  /** Throws (PINPAD_OPENING, 503) while the pinpad's first secure session is opening: nothing can be typed. */
  pinpadOpen?: (() => void) | undefined;
}

/**
 * The body of `POST /v1/card-not-present/sales`: a phone order. Never the card: its number, expiry
 * and security code are typed on the pinpad.
 */
export const CnpSaleBody = z.strictObject({
  amount: z.number().int('must be a whole number of cents').positive('must be more than 0').max(99_999_999),
  installments: z.number().int().min(1).max(99).default(1),
  /** False: a pre-authorization, captured or voided later. */
  capture: z.boolean().default(true),
  /** As printed on the card; the JSON API takes letters and spaces, at most 25 (ecom:760). */
  holder: z
    .string()
    .trim()
    .regex(/^[A-Za-z ]{1,25}$/, 'at most 25 letters and spaces, no accents, as printed on the card'),
  /** The scheme (Visa, Master, Amex, Elo, …); absent: the BIN lookup tells it (the webservice 1.5 has none). */
  brand: z
    .string()
    .regex(/^[A-Za-z]{2,10}$/, '2 to 10 letters')
    .optional(),
});

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,64}$/;

/** A card-not-present sale as the API shows it: what the host echoed of the card, never what was typed. */
export function cnpSaleView(entry: JournalEntry): Record<string, unknown> {
  const d = journalData<CnpSaleData>(entry);
  return {
    id: entry.id,
    merchantOrderId: entry.merchantOrderId,
    state: entry.state,
    amount: entry.amount,
    installments: d.request.installments,
    capture: d.request.capture,
    backend: d.backend,
    ...(d.paymentId ? { paymentId: d.paymentId } : {}),
    ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
    ...(d.maskedNumber ? { card: { maskedPan: d.maskedNumber, ...(d.brand ? { brand: d.brand } : {}) } } : {}),
    ...(d.detail ? { detail: d.detail } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
}

function cnpOf(deps: CnpSalesApiDeps): CnpSales {
  if (!deps.cnp)
    throw new ApiError(409, 'NOT_AVAILABLE', 'sales without the card need cardNotPresent in the configuration');
  return deps.cnp;
}

/** The journal row of the same key: 200 with it when the request is the same, 422 otherwise. */
function replayed(journal: Journal, key: string, request: CnpPaymentRequest): JournalEntry | undefined {
  const existing = journal.byIdempotencyKey(key);
  if (!existing) return undefined;
  const was = existing.kind === 'cnp' ? journalData<CnpSaleData>(existing).request : undefined;
  const same =
    was !== undefined &&
    was.amount === request.amount &&
    was.installments === request.installments &&
    was.capture === request.capture;
  if (!same)
    throw new ApiError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'Idempotency-Key was used for another request',
      'Idempotency-Key',
    );
  return existing;
}

/**
 * `POST /v1/card-not-present/sales`: the pinpad asks the card (number, expiry, security code), then
 * the sale is journaled and sent; answered once it is journaled (202), or at once with the sale the
 * same `Idempotency-Key` started (200). A client that goes away while the card is typed stops the typing.
 */
export async function createCnpSale(req: IncomingMessage, res: ServerResponse, deps: CnpSalesApiDeps): Promise<void> {
  const key = req.headers['idempotency-key'];
  if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)))
    throw new ApiError(400, 'INVALID_FIELD', 'Idempotency-Key: 1 to 64 letters, digits or . _ : -', 'Idempotency-Key');
  const parsed = CnpSaleBody.safeParse(await readJson(req), { error: houseMessage });
  if (!parsed.success) throw invalidField(parsed.error);
  const { holder, brand, ...rest } = parsed.data;
  const request: CnpPaymentRequest = { ...rest, method: 'credit' };
  const cnp = cnpOf(deps);
  const again = key ? replayed(deps.journal, key, request) : undefined;
  if (again) return sendJson(res, 200, cnpSaleView(again));
  deps.pinpadOpen?.();
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  try {
    const { entry, done } = await cnp.engine.start(
      request,
      () => cnp.typedCard({ holder, ...(brand ? { brand } : {}) }, gone.signal),
      key ? { idempotencyKey: key } : {},
    );
    done.catch(() => undefined);
    sendJson(res, 202, cnpSaleView(deps.journal.get(entry.id) ?? entry), {
      location: `/v1/card-not-present/sales/${entry.id}`,
    });
  } catch (e) {
    if (isOmniposError(e, 'ENGINE_BUSY')) throw new ApiError(409, 'BUSY', 'the terminal is busy with another payment');
    if (isOmniposError(e, 'INVALID_FIELD') && typeof e.context.field === 'string')
      throw new ApiError(400, 'INVALID_FIELD', e.message, e.context.field);
    throw e;
  }
}

/** `GET /v1/card-not-present/sales/{id}`. */
export function getCnpSale(res: ServerResponse, deps: CnpSalesApiDeps, raw: string): void {
  const entry = /^\d{1,12}$/.test(raw) ? deps.journal.get(Number(raw)) : undefined;
  if (!entry || entry.kind !== 'cnp') throw new ApiError(404, 'NOT_FOUND', `no card-not-present sale ${raw}`);
  sendJson(res, 200, cnpSaleView(entry));
}

export const CNP_SALE_ROUTES: readonly Route<CnpSalesApiDeps>[] = [
  { method: 'POST', path: '/v1/card-not-present/sales', handle: ({ req, res }, deps) => createCnpSale(req, res, deps) },
  {
    method: 'GET',
    path: '/v1/card-not-present/sales/{id}',
    handle: ({ res, params }, deps) => getCnpSale(res, deps, params.id as string),
  },
];

/** The schema of a card-not-present sale (the document's `CnpSale`). */
export const CNP_SCHEMAS: Record<string, Schema> = {
  CnpSaleRequest: (() => {
    const { $schema: _drop, ...schema } = z.toJSONSchema(CnpSaleBody, { io: 'input' }) as Schema;
    return schema;
  })(),
  CnpSale: {
    type: 'object',
    required: [
      'id',
      'merchantOrderId',
      'state',
      'amount',
      'installments',
      'capture',
      'backend',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: int,
      merchantOrderId: str,
      state: {
        type: 'string',
        description:
          '`sending` (journaled, sent), `authorized` (a pre-authorization the host holds), `captured`, `declined`, `failed` (refused before processing: nothing charged), `undoing` (the answer was lost or was an anomaly: the outbox queries and voids it), `undone`, `needs-refund`, `dead-letter`; docs/card-not-present.md.',
      },
      amount: { ...int, description: 'Cents.' },
      installments: int,
      capture: { type: 'boolean', description: 'false: a pre-authorization.' },
      backend: { type: 'string', description: '`cardNotPresent.kind`: `ecommerce` or `webservice15`.' },
      paymentId: { ...str, description: "The host's id (the JSON API's PaymentId, the webservice 1.5's tid)." },
      authorizationCode: str,
      card: {
        type: 'object',
        required: ['maskedPan'],
        properties: {
          maskedPan: { ...str, description: 'First 6 and last 4 digits at most, masked where the card was read.' },
          brand: str,
        },
      },
      detail: { ...str, description: "The host's own terms for the answer (status, return code)." },
      reason: str,
      createdAt: time,
      updatedAt: time,
    },
  },
};

/** The card-not-present sales' paths of the OpenAPI document. */
export function cnpSalePaths(unauthorized: Schema, error: (d: string) => Schema): Record<string, Schema> {
  const sale = (d: string): Schema => json(ref('CnpSale'), d);
  return {
    '/v1/card-not-present/sales': {
      post: {
        summary: 'Start a sale without the card present (a phone order), its card typed on the pinpad',
        description:
          "The pinpad asks the card number, the expiry month, the 4-digit year and the security code (ABECS GCD, its fixed prompts); they are held in memory for this one request and never written, logged or answered. The brand is the body's, or the BIN lookup's (the JSON e-commerce API; the webservice 1.5 has none: send `brand`). Then the sale is journaled and sent (credit only: debit needs the cardholder's authentication in a browser). Answered once the sale is journaled: follow it on `GET /v1/card-not-present/sales/{id}`. `capture: false` is a pre-authorization. Closing the connection while the card is typed stops the typing.",
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'The same key with the same amount, installments and capture returns the same sale (200); with another, 422 `IDEMPOTENCY_KEY_REUSED`. Shared with `POST /v1/payments`: a key is never given to a second payment.',
            schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('CnpSaleRequest') } } },
        responses: {
          '200': sale('The sale this Idempotency-Key already started.'),
          '202': {
            ...sale('Journaled and sent; follow it on `GET /v1/card-not-present/sales/{id}` or `GET /v1/events`.'),
            headers: { Location: { schema: str } },
          },
          '400': error('A field at fault (`field`), or a body that is not JSON.'),
          '401': unauthorized,
          '409': error(
            'BUSY (another payment holds the terminal), CNP_TYPING_CANCELLED (the card was not typed: CANCEL, time out), NOT_AVAILABLE (no `cardNotPresent` configured). Nothing was sent.',
          ),
          '413': error('A body larger than 64 KiB.'),
          '415': error('A body that is not application/json.'),
          '422': error(
            'IDEMPOTENCY_KEY_REUSED, or the typed card refused before sending (CNP_CARD_REFUSED, CNP_DEBIT_NEEDS_AUTHENTICATION).',
          ),
          '503': error('The terminal cannot sell now, or the BIN lookup did not answer: nothing was sent.'),
        },
      },
    },
    '/v1/card-not-present/sales/{id}': {
      get: {
        summary: 'Read a sale without the card present',
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The id `POST /v1/card-not-present/sales` returned.',
            schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
          },
        ],
        responses: {
          '200': sale('The sale.'),
          '401': unauthorized,
          '404': error('No such card-not-present sale.'),
        },
      },
    },
  };
}
