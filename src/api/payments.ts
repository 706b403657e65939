import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isOmniposError, KIND_OF_METHOD, PAYMENT_KIND, PAYMENT_METHODS, type PaymentKind } from '../core/index.js';
import { voidStatus, type PixEngine, type QrEngine, type SaleEngine, type PaymentStatus } from '../engine/index.js';
import type { VoidEngine, VoidStateName } from '../engine/index.js';
import { isValidDocument } from '../crypto/index.js';
import type { Journal, JournalEntry } from '../store/index.js';
import { ApiError, houseMessage, invalidField, readJson, refuseBody, sendJson } from './http-kit.js';
import { paymentView } from './payment-view.js';
import { BODY_ERRORS, START_ERRORS, WRITE_ERRORS } from './openapi-errors.js';
import { error, json, ref, rowIdParameter, str, UNAUTHORIZED, type Schema } from './openapi-kit.js';
import { operationsOf } from './routes.js';

export interface PaymentsDeps {
  engine: SaleEngine;
  /** Wallet QR sales, when the terminal knows its merchant data. */
  qrEngine?: QrEngine | undefined;
  /** Pix sales, when the terminal has e-commerce credentials. */
  pixEngine?: PixEngine | undefined;
  journal: Journal;
  /** Throws (PINPAD_OPENING, 503) while the pinpad's first secure session is opening: no card sale starts. */
  pinpadOpen?: (() => void) | undefined;
  /** A payment's voids and refunds, for what they gave back (`voided`). */
  voids?: VoidEngine | undefined;
  /** Told of each payment this request started (a screen's token claims it). */
  onStarted?: ((id: number) => void) | undefined;
  /** Whether this request may see payment `id` (a screen's token: only those it started); default yes. */
  mayRead?: ((id: number) => boolean) | undefined;
}

/**
 * The payment as the API shows it, with `voided` once a void or refund of it was approved: the cents
 * given back and whether that is all (a cash register need not list the voids to know).
 */
export function paymentAnswer(
  deps: { voids?: Pick<VoidEngine, 'voidsOf'> | undefined },
  entry: JournalEntry,
): Record<string, unknown> {
  const view = paymentView(entry);
  const given = (deps.voids?.voidsOf(entry.id) ?? [])
    .filter((v) => voidStatus(v.state as VoidStateName) === 'approved')
    .reduce((sum, v) => sum + v.amount, 0);
  return given > 0 ? { ...view, voided: { amount: given, full: given >= entry.amount } } : view;
}

/** The body of `POST /v1/payments` (the OpenAPI document is derived from it). */
export const PaymentRequest = z.strictObject({
  amount: z.number().int('must be a whole number of cents').positive('must be more than 0').max(99_999_999),
  method: z.enum(PAYMENT_METHODS),
  /** For `pix`: the payer, as the e-commerce API requires (from the cash register or asked on screen). */
  payer: z
    .strictObject({
      name: z.string().trim().min(2, 'at least 2 letters').max(120),
      document: z.string().refine((d) => isValidDocument(d.replace(/[.\-/\s]/g, '')), 'must be a valid CPF or CNPJ'),
    })
    .optional(),
  /** For `wallet-qr`: what the code offers (81.02). */
  qrModality: z.enum(['credit', 'debit']).optional(),
  installments: z.number().int().min(1).max(99).default(1),
  interest: z.enum(['ByMerchant', 'ByIssuer']).default('ByMerchant'),
  confirmation: z.enum(['auto', 'ecr']).default('auto'),
  /** False: the customer declined the receipt (recorded `skipped`); a kiosk whose printer cannot print refuses a sale without it. */
  receipt: z
    .boolean()
    .optional()
    .describe(
      'false: no receipt (the customer declined it; the receipt step records skipped). An unattended terminal whose printer cannot print (paper out, cover open, offline) refuses a sale with 503 RECEIPT_PRINTER_NOT_READY unless this is false.',
    ),
  /** Card sales: `typed` has the card number typed on the pinpad (card not present), where the tables allow it. */
  entry: z.enum(['card', 'typed']).optional(),
});

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,64}$/;

function idParam(raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new ApiError(404, 'NOT_FOUND', `no payment ${raw}`);
  return Number(raw);
}

/** The payment `id` (a void is not a payment: 404), with its kind narrowed. */
export function paymentOr404(journal: Journal, id: number): JournalEntry & { kind: PaymentKind } {
  const entry = journal.get(id);
  if (!entry || entry.kind === 'void') throw new ApiError(404, 'NOT_FOUND', `no payment ${id}`);
  return { ...entry, kind: entry.kind };
}

/** The engine of a payment's kind; 409 when this configuration has none (no e-commerce credentials, no merchant data). */
export function engineOf(deps: PaymentsDeps, kind: PaymentKind): SaleEngine | QrEngine | PixEngine {
  const engines: Record<PaymentKind, SaleEngine | QrEngine | PixEngine | undefined> = {
    sale: deps.engine,
    qr: deps.qrEngine,
    pix: deps.pixEngine,
    // Not confirmed, undone, cancelled nor reprinted through these routes: a card-not-present sale has no cash register decision.
    cnp: undefined,
  };
  const engine = engines[kind];
  if (!engine) throw new ApiError(409, 'NOT_AVAILABLE', `${PAYMENT_KIND[kind].name} payments are not available`);
  return engine;
}

function unreachableMethod(method: never): never {
  throw new ApiError(400, 'INVALID_FIELD', `method: ${String(method)} is not one this terminal takes`, 'method');
}

/** `POST /v1/payments`: starts a card sale; the same `Idempotency-Key` returns the same payment. */
export async function createPayment(req: IncomingMessage, res: ServerResponse, deps: PaymentsDeps): Promise<void> {
  const key = req.headers['idempotency-key'];
  if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key))) {
    throw new ApiError(400, 'INVALID_FIELD', 'Idempotency-Key: 1 to 64 letters, digits or . _ : -', 'Idempotency-Key');
  }
  const parsed = PaymentRequest.safeParse(await readJson(req), { error: houseMessage });
  if (!parsed.success) throw invalidField(parsed.error);
  if (key) {
    const existing = deps.journal.byIdempotencyKey(key);
    if (existing) {
      const same = JSON.stringify((existing.data as { request?: unknown }).request) === JSON.stringify(parsed.data);
      if (!same)
        throw new ApiError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'Idempotency-Key was used for another payment request',
          'Idempotency-Key',
        );
      if (deps.mayRead && !deps.mayRead(existing.id))
        throw new ApiError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'Idempotency-Key was used for another payment request',
          'Idempotency-Key',
        );
      sendJson(res, 200, paymentView(existing));
      return;
    }
  }
  const { qrModality, payer, ...request } = parsed.data;
  if (request.entry && KIND_OF_METHOD[request.method] !== 'sale')
    throw new ApiError(400, 'INVALID_FIELD', 'entry: only with a card method (credit, debit, voucher)', 'entry');
  if (payer && request.method !== 'pix')
    throw new ApiError(400, 'INVALID_FIELD', 'payer: only with method pix', 'payer');
  if (qrModality && request.method !== 'wallet-qr' && request.method !== 'pix')
    throw new ApiError(400, 'INVALID_FIELD', 'qrModality: only with method wallet-qr', 'qrModality');
  const started = {
    location: (id: number) => {
      deps.onStarted?.(id);
      return `/v1/payments/${id}`;
    },
  };
  try {
    // One case per method (src/core/payment-kinds.ts): a method added there does not compile until it is started here.
    switch (request.method) {
      case 'pix': {
        if (!deps.pixEngine)
          throw new ApiError(
            409,
            'NOT_AVAILABLE',
            'Pix needs the e-commerce credentials (acquirer.omni.merchantId and merchantKeyFile)',
          );
        if (!payer) throw new ApiError(400, 'INVALID_FIELD', 'payer: is required for pix', 'payer');
        const { entry, done } = await deps.pixEngine.start(
          {
            amount: request.amount,
            payer,
            confirmation: request.confirmation,
            ...(request.receipt === false ? { receipt: false } : {}),
          },
          key ? { idempotencyKey: key } : {},
        );
        await Promise.race([done, new Promise((r) => setTimeout(r, 3000))]).catch(() => undefined);
        sendJson(res, 202, paymentView(deps.journal.get(entry.id) ?? entry), { location: started.location(entry.id) });
        return;
      }
      case 'wallet-qr': {
        if (!deps.qrEngine)
          throw new ApiError(409, 'NOT_AVAILABLE', 'wallet QR sales need the merchant data of an initialized terminal');
        const { entry, done } = await deps.qrEngine.start(
          { ...request, method: qrModality ?? 'credit' },
          key ? { idempotencyKey: key } : {},
        );
        done.catch(() => undefined);
        sendJson(res, 202, paymentView(deps.journal.get(entry.id) ?? entry), { location: started.location(entry.id) });
        return;
      }
      case 'credit':
      case 'debit':
      case 'voucher': {
        deps.pinpadOpen?.();
        const { entry, done } = await deps.engine.start(
          { ...request, method: request.method },
          key ? { idempotencyKey: key } : {},
        );
        done.catch(() => undefined);
        sendJson(res, 202, paymentView(entry), { location: started.location(entry.id) });
        return;
      }
      default:
        return unreachableMethod(request.method);
    }
  } catch (e) {
    if (isOmniposError(e, 'ENGINE_BUSY')) throw new ApiError(409, 'BUSY', 'the terminal is busy with another payment');
    if (isOmniposError(e, 'INIT_CARD_REFUSED') && e.context.reason === 'typing-not-allowed')
      throw new ApiError(409, 'TYPING_NOT_ALLOWED', e.message, 'entry');
    throw e;
  }
}

export function getPayment(res: ServerResponse, deps: PaymentsDeps, rawId: string): void {
  sendJson(res, 200, paymentAnswer(deps, paymentOr404(deps.journal, idParam(rawId))));
}

/** The statuses a payment reads as on the API. */
export const STATUSES: PaymentStatus[] = [
  'pending',
  'approved',
  'confirmed',
  'declined',
  'cancelled',
  'refused',
  'undone',
  'needs-refund',
  'failed',
];

/** `GET /v1/payments?status=approved`: newest first; a screen's token lists only the payments it started (`mayRead`). */
export function listPayments(res: ServerResponse, deps: PaymentsDeps, query: URLSearchParams): void {
  const status = query.get('status');
  if (status !== null && !STATUSES.includes(status as PaymentStatus)) {
    throw new ApiError(400, 'INVALID_FIELD', `status: one of ${STATUSES.join(', ')}`, 'status');
  }
  const mine = deps.mayRead ?? (() => true);
  const views = deps.journal
    .list({ limit: 500 })
    .filter((e) => e.kind !== 'void' && mine(e.id))
    .map((e) => paymentAnswer(deps, e))
    .filter((v) => status === null || v.status === status);
  sendJson(res, 200, { payments: views.slice(0, 200) });
}

/** `POST /v1/payments/{id}/confirm|undo|cancel`. */
export async function act(
  req: IncomingMessage,
  res: ServerResponse,
  deps: PaymentsDeps,
  rawId: string,
  action: 'confirm' | 'undo' | 'cancel',
): Promise<void> {
  refuseBody(req);
  const id = idParam(rawId);
  const entry = paymentOr404(deps.journal, id);
  const engine = engineOf(deps, entry.kind);
  // A cancel is for a payment still in progress; one that ended (or awaits a decision) is not cancelled silently.
  if (action === 'cancel' && paymentView(entry).status !== 'pending') {
    throw new ApiError(
      409,
      'NOT_ALLOWED',
      `payment ${id} is ${String(paymentView(entry).status)}: only a pending payment can be cancelled`,
    );
  }
  try {
    if (action === 'cancel') await engine.cancel(id, 'ecr');
    else await engine.decide(id, action, 'ecr');
  } catch (e) {
    if (isOmniposError(e, 'ENGINE_NOT_ALLOWED')) throw new ApiError(409, 'NOT_ALLOWED', e.message);
    throw e;
  }
  sendJson(res, 200, paymentAnswer(deps, paymentOr404(deps.journal, id)));
}

/** The `{id}` of the routes on one payment. */
export const PAYMENT_ID = rowIdParameter('The payment id `POST /v1/payments` returned.');

export const payment = (description: string): Schema => json(ref('Payment'), description);
const op = operationsOf<PaymentsDeps>();

/** Start, list and read payments. */
export const PAYMENT_OPERATIONS = [
  op({
    method: 'POST',
    path: '/v1/payments',
    operationId: 'createPayment',
    tag: 'payments',
    screens: 'any',
    errors: [
      ...BODY_ERRORS,
      ...START_ERRORS,
      'IDEMPOTENCY_KEY_REUSED',
      'NOT_AVAILABLE',
      'TYPING_NOT_ALLOWED',
      'PINPAD_OPENING',
      'RECEIPT_PRINTER_NOT_READY',
    ],
    summary: 'Start a payment',
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'The same key with the same request returns the same payment (200), however often it is sent; with another request it is refused (422 `IDEMPOTENCY_KEY_REUSED`). "The same request" is the body as validated, defaults applied (`installments` 1, `interest` ByMerchant, `confirmation` auto), compared field by field: key order and the defaults written out or left out do not matter. Scope: this terminal, every method of `POST /v1/payments`. Lifetime: as long as the payment is in the terminal\'s journal (never pruned): a key is never given to a second payment.',
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
      },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: ref('PaymentRequest') } } },
    responses: {
      '200': payment('The payment this Idempotency-Key already started.'),
      '202': {
        ...payment('Started; follow it on `GET /v1/payments/{id}` or `GET /v1/events`.'),
        headers: { Location: { schema: str } },
      },
      '400': error('A field at fault (`field`), or a body that is not JSON.'),
      '401': UNAUTHORIZED,
      '409': error(
        'The terminal is busy with another payment, the method is not available, or the tables forbid typed entry for it (`TYPING_NOT_ALLOWED`).',
      ),
      '413': error('The body is too large.'),
      '415': error('The body is not application/json.'),
      '422': error('The Idempotency-Key was used for another request.'),
    },
    handle: ({ req, res }, deps) => createPayment(req, res, deps),
  }),
  op({
    method: 'GET',
    path: '/v1/payments',
    operationId: 'listPayments',
    tag: 'payments',
    screens: { cashier: 'own' },
    errors: ['INVALID_FIELD'],
    summary: 'List payments, newest first',
    parameters: [{ name: 'status', in: 'query', required: false, schema: { type: 'string', enum: STATUSES } }],
    responses: {
      '200': json(ref('PaymentList'), 'Up to 200 payments.'),
      '400': error('An unknown status.'),
      '401': UNAUTHORIZED,
    },
    handle: ({ res, query }, deps) => listPayments(res, deps, query),
  }),
  op({
    method: 'GET',
    path: '/v1/payments/{id}',
    operationId: 'getPayment',
    tag: 'payments',
    screens: 'own',
    errors: ['NOT_FOUND'],
    summary: 'Read a payment',
    parameters: [PAYMENT_ID],
    responses: { '200': payment('The payment.'), '401': UNAUTHORIZED, '404': error('No such payment.') },
    handle: ({ res, params }, deps) => getPayment(res, deps, params.id),
  }),
];

const ACTIONS = [
  ['confirm', 'confirmPayment', 'Confirm an approved payment (after the fiscal document)'],
  ['undo', 'undoPayment', 'Undo an approved payment'],
  ['cancel', 'cancelPayment', 'Cancel a payment still in progress'],
] as const;

/** Decide a payment: confirm, undo, cancel (a screen cancels only its own). */
export const PAYMENT_ACTION_OPERATIONS = ACTIONS.map(([action, operationId, summary]) =>
  op({
    method: 'POST',
    path: `/v1/payments/{id}/${action}`,
    operationId,
    tag: 'payments',
    ...(action === 'cancel' ? { screens: 'own' as const } : {}),
    errors: ['INVALID_BODY', 'NOT_FOUND', 'NOT_ALLOWED', 'NOT_AVAILABLE', ...WRITE_ERRORS],
    summary,
    parameters: [PAYMENT_ID],
    responses: {
      '200': payment('The payment after the action.'),
      '401': UNAUTHORIZED,
      '404': error('No such payment.'),
      '409': error('The payment cannot take this action now.'),
    },
    handle: ({ req, res, params }, deps) => act(req, res, deps, params.id, action),
  }),
);
