import { journalData, type VoidEngine, voidStatus, type VoidData, type VoidStateName } from '../engine/index.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isOmniposError } from '../core/index.js';
import type { Journal, JournalEntry } from '../store/index.js';
import { supervisorCredential } from './supervisor-headers.js';
import { ApiError, houseMessage, invalidField, readJson, sendJson } from './http-kit.js';
import { operationsOf } from './routes.js';
import { BODY_ERRORS, START_ERRORS, SUPERVISOR_ERRORS } from './openapi-errors.js';
import { error, int, json, ref, rowIdParameter, str, UNAUTHORIZED, type Schema } from './openapi-kit.js';

/** What the void routes need of the daemon. */
export interface VoidsApiDeps {
  /** Card voids (absent: the routes answer 409). */
  voids?: VoidEngine | undefined;
  journal: Journal;
  /** Throws (PINPAD_OPENING, 503) while the pinpad's first secure session is opening: no card void starts. */
  pinpadOpen?: (() => void) | undefined;
}

/** The body of `POST /v1/payments/{id}/void`. */
export const VoidBody = z.strictObject({
  /** Cents; the whole remaining amount when absent (partial voids send less). */
  amount: z.number().int('must be a whole number of cents').positive('must be more than 0').max(99_999_999).optional(),
});

export const VOID_STATUSES = [
  'pending',
  'approved',
  'declined',
  'refused',
  'cancelled',
  'undone',
  'failed',
  'expired',
] as const;

/** A void as the cash register and the supervisor read it; never card data beyond the masked PAN. */
export function voidView(entry: JournalEntry, remaining?: number): Record<string, unknown> {
  const d = journalData<VoidData>(entry);
  const state = entry.state as VoidStateName;
  return {
    id: entry.id,
    merchantVoidId: d.merchantVoidId,
    status: voidStatus(state),
    state,
    amount: entry.amount,
    payment: {
      id: d.sale.id,
      merchantOrderId: d.sale.merchantOrderId,
      paymentId: d.sale.paymentId,
      amount: d.sale.amount,
      ...(remaining !== undefined ? { remaining } : {}),
    },
    authorizedBy: d.authorizedBy,
    ...(d.card ? { card: { maskedPan: d.card.maskedPan, inputMode: d.card.inputMode } } : {}),
    ...(d.voidId ? { voidId: d.voidId } : {}),
    ...(d.sentAt ? { merchantVoidDate: d.sentAt } : {}),
    ...(d.returnCode ? { returnCode: d.returnCode } : {}),
    ...(d.returnMessage ? { returnMessage: d.returnMessage } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.qrCode ? { cancellationCode: { qrCode: d.qrCode, ...(d.expiresAt ? { expiresAt: d.expiresAt } : {}) } } : {}),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
}

function engineOf(deps: VoidsApiDeps): VoidEngine {
  if (!deps.voids) throw new ApiError(409, 'NOT_AVAILABLE', 'card voids are not available in this daemon');
  return deps.voids;
}

function idOf(raw: string, what: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new ApiError(404, 'NOT_FOUND', `no ${what} ${raw}`);
  return Number(raw);
}

/**
 * `POST /v1/payments/{id}/void`: a supervisor's credential in `X-Supervisor-Token` or
 * `X-Supervisor-Password`; `{amount?}`. Everything refused before the card is read (supervisor,
 * sale, limits) answers with its code and no void; otherwise 202 and the void, whose card read
 * and host exchange go on (`GET /v1/voids/{id}`, the event stream).
 */
export async function createVoid(
  req: IncomingMessage,
  res: ServerResponse,
  deps: VoidsApiDeps,
  rawId: string,
): Promise<void> {
  const engine = engineOf(deps);
  const saleId = idOf(rawId, 'payment');
  const parsed = VoidBody.safeParse(req.headers['content-length'] === '0' ? {} : await readJson(req), {
    error: houseMessage,
  });
  if (!parsed.success) throw invalidField(parsed.error);
  // A card sale's void reads the card again: not while the pinpad's secure session is still opening.
  if (deps.journal.get(saleId)?.kind === 'sale') deps.pinpadOpen?.();
  const supervisor = supervisorCredential(req);
  let started;
  try {
    started = await engine.start(saleId, {
      supervisor,
      ...(parsed.data.amount !== undefined ? { amount: parsed.data.amount } : {}),
    });
  } catch (e) {
    // One payment at a time per terminal: a void while a sale (card, wallet QR, Pix) or another void is in progress.
    if (isOmniposError(e, 'ENGINE_BUSY')) throw new ApiError(409, 'BUSY', 'the terminal is busy with another payment');
    throw e;
  }
  const { entry, done } = started;
  done.catch(() => undefined);
  sendJson(res, 202, voidView(engine.get(entry.id), engine.remaining(saleId).remaining), {
    location: `/v1/voids/${entry.id}`,
  });
}

/** `GET /v1/voids/{id}`. */
export function getVoid(res: ServerResponse, deps: VoidsApiDeps, rawId: string): void {
  const engine = engineOf(deps);
  const id = idOf(rawId, 'void');
  let entry: JournalEntry;
  try {
    entry = engine.get(id);
  } catch {
    throw new ApiError(404, 'NOT_FOUND', `no void ${id}`);
  }
  sendJson(res, 200, voidView(entry, engine.remaining(journalData<VoidData>(entry).sale.id).remaining));
}

/** `GET /v1/payments/{id}/voids`: what the sale has left to void, and its voids. */
export function listVoids(res: ServerResponse, deps: VoidsApiDeps, rawId: string): void {
  const engine = engineOf(deps);
  const saleId = idOf(rawId, 'payment');
  const sale = deps.journal.get(saleId);
  if (!sale || sale.kind === 'void') throw new ApiError(404, 'NOT_FOUND', `no payment ${saleId}`);
  const left = engine.remaining(saleId, sale.amount);
  sendJson(res, 200, {
    payment: { id: saleId, amount: left.amount, voided: left.voided, remaining: left.remaining },
    voids: engine.voidsOf(saleId).map((e) => voidView(e)),
  });
}

/** The void's schemas for the OpenAPI document. */
export const VOID_SCHEMAS: Record<string, Schema> = {
  VoidList: {
    type: 'object',
    properties: {
      payment: {
        type: 'object',
        properties: { id: int, amount: int, voided: int, remaining: int },
        required: ['id', 'amount', 'voided', 'remaining'],
        additionalProperties: false,
      },
      voids: { type: 'array', items: ref('Void') },
    },
    required: ['payment', 'voids'],
    additionalProperties: false,
  },
  Void: {
    type: 'object',
    description:
      'A card void: its own MerchantVoidId, the sale it gives money back for (with what remains of it), and how it went.',
    properties: {
      id: int,
      merchantVoidId: str,
      status: {
        type: 'string',
        enum: VOID_STATUSES,
        description:
          '`approved`: the host approved it and the confirmation is journaled (the money goes back). `expired`: a wallet QR void whose cancellation code nobody paid.',
      },
      state: { ...str, description: 'The engine state behind the status (for support).' },
      amount: { ...int, description: 'VoidAmount, cents.' },
      payment: {
        type: 'object',
        properties: {
          id: int,
          merchantOrderId: str,
          paymentId: str,
          amount: int,
          remaining: { ...int, description: 'What the sale has left to void, cents.' },
        },
        required: ['id', 'merchantOrderId', 'paymentId', 'amount'],
        additionalProperties: false,
      },
      authorizedBy: { type: 'string', enum: ['supervisor-token', 'supervisor-password'] },
      card: {
        type: 'object',
        properties: { maskedPan: str, inputMode: str },
        required: ['maskedPan'],
        additionalProperties: false,
      },
      voidId: str,
      merchantVoidDate: { type: 'string', format: 'date-time' },
      returnCode: str,
      returnMessage: str,
      reason: str,
      cancellationCode: {
        type: 'object',
        description:
          'A wallet QR void: the cancellation code (81.04 `02`) the customer pays with the wallet, and until when.',
        properties: { qrCode: str, expiresAt: { type: 'string', format: 'date-time' } },
        required: ['qrCode'],
        additionalProperties: false,
      },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
    required: [
      'id',
      'merchantVoidId',
      'status',
      'state',
      'amount',
      'payment',
      'authorizedBy',
      'createdAt',
      'updatedAt',
    ],
    additionalProperties: false,
  },
};

const voidId = rowIdParameter;
const op = operationsOf<VoidsApiDeps>();

/** Void a sale (or refund it), read its voids, read a void. */
export const VOID_OPERATIONS = [
  op({
    method: 'POST',
    path: '/v1/payments/{id}/void',
    operationId: 'createVoid',
    tag: 'voids',
    errors: [
      ...BODY_ERRORS,
      ...START_ERRORS,
      ...SUPERVISOR_ERRORS,
      'NOT_FOUND',
      'NOT_AVAILABLE',
      'VOID_NOT_ALLOWED',
      'VOID_OVER_LIMIT',
      'VOID_TOO_LATE',
      'PINPAD_OPENING',
    ],
    summary:
      'Void a confirmed card sale, in full or in part (a supervisor authorizes; the customer presents the same card), or refund a confirmed Pix or e-commerce QR sale in full',
    description:
      "The supervisor sends `X-Supervisor-Token` (`omnipos supervisor token`) or `X-Supervisor-Password`. The checks (supervisor, a confirmed card sale, the remaining amount, the issuer's reversal limits, the terminal's cancellation parameters) refuse before anything is read or sent. Then the pinpad reads the card with the refund transaction type; another card ends the void `refused`; the host's answer is confirmed or undone through the outbox. A Pix is refunded in full through the outbox (no card), `pending` until the provider approves; so is a confirmed e-commerce QR sale (`qr.provider: ecommerce`), `pending` until the host shows it voided. A confirmed wallet QR sale of the terminal's own code is voided (in full or in part) by a cancellation code shown on the screen (event `qr`) and the pinpad, `pending` until the customer's wallet pays it (then `approved`) or `expired`.",
    parameters: [
      voidId('The payment (card sale) to void.'),
      { name: 'X-Supervisor-Token', in: 'header', required: false, schema: str },
      { name: 'X-Supervisor-Password', in: 'header', required: false, schema: str },
    ],
    requestBody: {
      required: false,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { amount: { ...int, minimum: 1, description: 'Cents; default: what remains.' } },
            additionalProperties: false,
          },
        },
      },
    },
    responses: {
      '202': json(ref('Void'), 'The void started; read `GET /v1/voids/{id}` or the event stream for its end.'),
      '400': error('A body field at fault (`field`).'),
      '401': UNAUTHORIZED,
      '403': error('SUPERVISOR_REQUIRED: no supervisor credential, or a wrong one.'),
      '404': error('No such payment.'),
      '409': error(
        'VOID_NOT_ALLOWED (not a confirmed card sale), BUSY (another payment — card, wallet QR, Pix or void — is in progress), SUPERVISOR_NOT_CONFIGURED, or voids not available.',
      ),
      '422': error(
        "VOID_OVER_LIMIT (more than remains, or than the issuer's value or percentage) or VOID_TOO_LATE (past the issuer's days).",
      ),
    },
    handle: ({ req, res, params }, deps) => createVoid(req, res, deps, params.id),
  }),
  op({
    method: 'GET',
    path: '/v1/payments/{id}/voids',
    operationId: 'listVoids',
    tag: 'voids',
    errors: ['NOT_FOUND'],
    summary: "A payment's voids (and refunds), and what it has left to void",
    parameters: [voidId('The payment.')],
    responses: {
      '200': json(ref('VoidList'), 'The voids, oldest first.'),
      '401': UNAUTHORIZED,
      '404': error('No such payment.'),
    },
    handle: ({ res, params }, deps) => listVoids(res, deps, params.id),
  }),
  op({
    method: 'GET',
    path: '/v1/voids/{id}',
    operationId: 'getVoid',
    tag: 'voids',
    errors: ['NOT_FOUND'],
    summary: 'Read a void',
    parameters: [voidId('The void id `POST /v1/payments/{id}/void` returned.')],
    responses: { '200': json(ref('Void'), 'The void.'), '401': UNAUTHORIZED, '404': error('No such void.') },
    handle: ({ res, params }, deps) => getVoid(res, deps, params.id),
  }),
];
