import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isOmniposError } from '../core/index.js';
import {
  journalData,
  type CnpEngine,
  type CnpPaymentRequest,
  type CnpPromptListener,
  type CnpSaleData,
  type TypedCard,
  type TypedCardFacts,
} from '../engine/index.js';
import type { Journal, JournalEntry } from '../store/index.js';
import { ApiError, houseMessage, invalidField, readJson, sendJson } from './http-kit.js';
import { error, int, json, ref, rowIdParameter, str, time, UNAUTHORIZED, type Schema } from './openapi-kit.js';
import { BODY_ERRORS, START_ERRORS, TYPED_ERRORS } from './openapi-errors.js';
import { operationsOf } from './routes.js';

/** The daemon's card-not-present sales (`cardNotPresent`; absent: the routes answer 409 NOT_AVAILABLE). */
export interface CnpSales {
  engine: CnpEngine;
  /** The card typed on the pinpad for one request (src/main/card-not-present.ts); `onPrompt` told each field asked. */
  typedCard(facts: TypedCardFacts, signal?: AbortSignal, onPrompt?: CnpPromptListener): Promise<TypedCard>;
}

export interface CnpSalesApiDeps {
  cnp?: CnpSales | undefined;
  journal: Journal;
  /** Throws (PINPAD_OPENING, 503) while the pinpad's first secure session is opening: nothing can be typed. */
  pinpadOpen?: (() => void) | undefined;
  /** Told of each sale this request started (a screen's token claims it, src/api/scopes.ts). */
  onStarted?: ((id: number) => void) | undefined;
  /** Whether this request may see sale `id` (a screen's token: only those it started); default yes. */
  mayRead?: ((id: number) => boolean) | undefined;
}

/** As printed on the card; the JSON API takes letters and spaces, at most 25 (ecom:760). */
export const HOLDER = z
  .string()
  .trim()
  .regex(/^[A-Za-z ]{1,25}$/, 'at most 25 letters and spaces, no accents, as printed on the card');
/** The scheme (Visa, Master, Amex, Elo, …); absent: the BIN lookup tells it (the webservice 1.5 has none). */
export const BRAND = z.string().regex(/^[A-Za-z]{2,10}$/, '2 to 10 letters');
export const AMOUNT = z.number().int('must be a whole number of cents').positive('must be more than 0').max(99_999_999);
/** A saved card's id (`POST /v1/card-not-present/cards`, `GET /v1/card-not-present/cards`). */
export const SAVED_CARD_ID = z
  .number()
  .int('must be a whole number')
  .positive('must be more than 0')
  .max(999_999_999_999);

/** The card of a sale: typed on the pinpad (`holder`, `brand`), or a saved card (`savedCardId`), never both. */
export function oneCard(
  b: {
    holder?: string | undefined;
    brand?: string | undefined;
    savedCardId?: number | undefined;
    saveCard?: boolean | undefined;
  },
  ctx: z.core.$RefinementCtx,
): void {
  const say = (path: string, message: string): void => void ctx.addIssue({ code: 'custom', path: [path], message });
  if (b.savedCardId === undefined && b.holder === undefined)
    say('holder', 'is required (or savedCardId, a saved card)');
  else if (b.savedCardId !== undefined) {
    if (b.holder !== undefined) say('holder', 'not with savedCardId: nothing is typed for a saved card');
    else if (b.brand !== undefined) say('brand', 'not with savedCardId: the saved card has its brand');
    else if (b.saveCard === true) say('saveCard', 'not with savedCardId: that card is saved already');
  }
}

/**
 * The body of `POST /v1/card-not-present/sales`: a phone order, its card typed on the pinpad, or a
 * sale by a saved card. Never the card itself: its number, expiry and security code are typed on
 * the pinpad.
 */
export const CnpSaleBody = z
  .strictObject({
    amount: AMOUNT,
    installments: z.number().int().min(1).max(99).default(1),
    /** False: a pre-authorization, captured or voided later. */
    capture: z.boolean().default(true),
    holder: HOLDER.optional(),
    brand: BRAND.optional(),
    /** Sell by this saved card: nothing typed. */
    savedCardId: SAVED_CARD_ID.optional(),
    /** Save the typed card at the host (`SaveCard`): kept if the sale is approved. */
    saveCard: z.boolean().optional(),
  })
  .superRefine(oneCard);

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,64}$/;

/** The request's Idempotency-Key, checked (400 naming it when malformed). */
export function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)))
    throw new ApiError(400, 'INVALID_FIELD', 'Idempotency-Key: 1 to 64 letters, digits or . _ : -', 'Idempotency-Key');
  return key;
}

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
    ...(d.savedCardId !== undefined ? { savedCardId: d.savedCardId } : {}),
    ...(d.request.saveCard ? { saveCard: true } : {}),
    ...(d.request.recurrence ? { recurrence: { ...d.request.recurrence } } : {}),
    ...(d.recurrenceId ? { recurrenceId: d.recurrenceId } : {}),
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

/** Where a sale's card comes from: typed on the pinpad, or a saved card. */
export type CardSource = TypedCardFacts | { savedCardId: number };

/** The saved card a sale sold by (not one it saved: that one's request asked `saveCard`). */
const soldBy = (d: CnpSaleData): number | undefined => (d.request.saveCard ? undefined : d.savedCardId);

/** The journal row of the same key: 200 with it when the request is the same, 422 otherwise. */
function replayed(
  journal: Journal,
  key: string,
  request: CnpPaymentRequest,
  source: CardSource,
): JournalEntry | undefined {
  const existing = journal.byIdempotencyKey(key);
  if (!existing) return undefined;
  const was = existing.kind === 'cnp' ? journalData<CnpSaleData>(existing) : undefined;
  const same =
    was !== undefined &&
    was.request.amount === request.amount &&
    was.request.installments === request.installments &&
    was.request.capture === request.capture &&
    (was.request.saveCard ?? false) === (request.saveCard ?? false) &&
    JSON.stringify(was.request.recurrence ?? null) === JSON.stringify(request.recurrence ?? null) &&
    soldBy(was) === ('savedCardId' in source ? source.savedCardId : undefined);
  if (!same)
    throw new ApiError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'Idempotency-Key was used for another request',
      'Idempotency-Key',
    );
  return existing;
}

/** The engine's refusals of a sale, as the API says them. */
function asApiError(e: unknown, source: CardSource): unknown {
  if (isOmniposError(e, 'ENGINE_BUSY')) return new ApiError(409, 'BUSY', 'the terminal is busy with another payment');
  if (isOmniposError(e, 'INVALID_FIELD') && typeof e.context.field === 'string')
    return new ApiError(400, 'INVALID_FIELD', e.message, e.context.field);
  // A saved card that is not kept, or was saved at another backend's host: the field at fault.
  if ('savedCardId' in source && (isOmniposError(e, 'NOT_FOUND') || isOmniposError(e, 'CNP_NOT_OFFERED')))
    return new ApiError(400, 'INVALID_FIELD', `savedCardId: ${e.message}`, 'savedCardId');
  return e;
}

/**
 * Starts a card-not-present sale: the same Idempotency-Key's sale again (200), or the card typed on
 * the pinpad (or the saved card's token opened), the sale journaled and sent, answered once it is
 * journaled (202, `location` the created resource's address given the id). A client that goes away
 * while the card is typed stops the typing.
 */
export async function startCnpSale(
  req: IncomingMessage,
  res: ServerResponse,
  deps: CnpSalesApiDeps,
  asked: { request: CnpPaymentRequest; source: CardSource; key: string | undefined },
  location: (id: number) => string,
): Promise<void> {
  const { request, source, key } = asked;
  const cnp = cnpOf(deps);
  const again = key ? replayed(deps.journal, key, request, source) : undefined;
  // Another token's sale under the same key is not shown to a screen: the key is taken, as for payments.
  if (again && deps.mayRead && !deps.mayRead(again.id))
    throw new ApiError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'Idempotency-Key was used for another request',
      'Idempotency-Key',
    );
  if (again) return sendJson(res, 200, cnpSaleView(again));
  const options = key ? { idempotencyKey: key } : {};
  try {
    let started;
    if ('savedCardId' in source) started = await cnp.engine.startByToken(request, source.savedCardId, options);
    else {
      deps.pinpadOpen?.();
      const gone = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) gone.abort();
      });
      started = await cnp.engine.start(request, (onPrompt) => cnp.typedCard(source, gone.signal, onPrompt), options);
    }
    const { entry, done } = started;
    done.catch(() => undefined);
    deps.onStarted?.(entry.id);
    sendJson(res, 202, cnpSaleView(deps.journal.get(entry.id) ?? entry), { location: location(entry.id) });
  } catch (e) {
    throw asApiError(e, source);
  }
}

/**
 * `POST /v1/card-not-present/sales`: the pinpad asks the card (number, expiry, security code), or
 * the saved card's token is opened, then the sale is journaled and sent.
 */
export async function createCnpSale(req: IncomingMessage, res: ServerResponse, deps: CnpSalesApiDeps): Promise<void> {
  const key = idempotencyKeyOf(req);
  const parsed = CnpSaleBody.safeParse(await readJson(req), { error: houseMessage });
  if (!parsed.success) throw invalidField(parsed.error);
  const { holder, brand, savedCardId, saveCard, ...rest } = parsed.data;
  const request: CnpPaymentRequest = { ...rest, method: 'credit', ...(saveCard ? { saveCard: true } : {}) };
  const source: CardSource =
    savedCardId !== undefined ? { savedCardId } : { holder: holder ?? '', ...(brand ? { brand } : {}) };
  await startCnpSale(req, res, deps, { request, source, key }, (id) => `/v1/card-not-present/sales/${id}`);
}

/** `GET /v1/card-not-present/sales/{id}`. */
export function getCnpSale(res: ServerResponse, deps: CnpSalesApiDeps, raw: string): void {
  const entry = /^\d{1,12}$/.test(raw) ? deps.journal.get(Number(raw)) : undefined;
  if (!entry || entry.kind !== 'cnp') throw new ApiError(404, 'NOT_FOUND', `no card-not-present sale ${raw}`);
  sendJson(res, 200, cnpSaleView(entry));
}

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
      savedCardId: {
        ...int,
        description:
          'The saved card it sold by, or (`saveCard`) the one it saved once approved (`/v1/card-not-present/cards`).',
      },
      saveCard: {
        type: 'boolean',
        description: 'The typed card was to be saved at the host if the sale was approved.',
      },
      recurrence: ref('CnpRecurrenceAsked'),
      recurrenceId: {
        ...str,
        description: "The host's recurrence this sale opened, its first charge (`RecurrentPaymentId`).",
      },
      detail: { ...str, description: "The host's own terms for the answer (status, return code)." },
      reason: str,
      createdAt: time,
      updatedAt: time,
    },
  },
};

const sale = (d: string): Schema => json(ref('CnpSale'), d);
const op = operationsOf<CnpSalesApiDeps>();

/** Start a sale without the card present, read it. */
export const CNP_SALE_OPERATIONS = [
  op({
    method: 'POST',
    path: '/v1/card-not-present/sales',
    operationId: 'createCardNotPresentSale',
    tag: 'card-not-present',
    screens: { cashier: 'any' },
    errors: [...BODY_ERRORS, ...START_ERRORS, 'IDEMPOTENCY_KEY_REUSED', 'NOT_AVAILABLE', ...TYPED_ERRORS],
    summary: 'Start a sale without the card present (a phone order), its card typed on the pinpad or saved',
    description:
      "`savedCardId` sells by a saved card (`/v1/card-not-present/cards`): nothing is typed, its token is opened for this one request (not with `holder`, `brand` or `saveCard`). Otherwise `holder` is required and the pinpad asks the card number, the expiry month, the 4-digit year and the security code (ABECS GCD, its fixed prompts); they are held in memory for this one request and never written, logged or answered. The brand is the body's, or the BIN lookup's (the JSON e-commerce API; the webservice 1.5 has none: send `brand`). Then the sale is journaled and sent (credit only: debit needs the cardholder's authentication in a browser). Answered once the sale is journaled: follow it on `GET /v1/card-not-present/sales/{id}`. `capture: false` is a pre-authorization. `saveCard: true` saves the typed card at the host as well, kept (`savedCardId`) only if the sale is approved. Closing the connection while the card is typed stops the typing.",
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'The same key with the same amount, installments, capture, saved card and `saveCard` returns the same sale (200); with another, 422 `IDEMPOTENCY_KEY_REUSED`. Shared with `POST /v1/payments`: a key is never given to a second payment.',
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
      '400': error(
        'A field at fault (`field`), or a body that is not JSON; `savedCardId` of no saved card, or of a card saved at another backend.',
      ),
      '401': UNAUTHORIZED,
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
    handle: ({ req, res }, deps) => createCnpSale(req, res, deps),
  }),
  op({
    method: 'GET',
    path: '/v1/card-not-present/sales/{id}',
    operationId: 'getCardNotPresentSale',
    tag: 'card-not-present',
    screens: { cashier: 'own' },
    errors: ['NOT_FOUND'],
    summary: 'Read a sale without the card present',
    parameters: [rowIdParameter('The id `POST /v1/card-not-present/sales` returned.')],
    responses: {
      '200': sale('The sale.'),
      '401': UNAUTHORIZED,
      '404': error('No such card-not-present sale.'),
    },
    handle: ({ res, params }, deps) => getCnpSale(res, deps, params.id),
  }),
];
