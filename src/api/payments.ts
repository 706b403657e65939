import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isOmniposError } from '../core/errors/index.js';
import type { SaleEngine } from '../engine/sale/engine.js';
import { SALE_STATES, type SaleStateName } from '../engine/sale/types.js';
import type { Journal } from '../store/index.js';
import { ApiError, readJson, sendJson } from './http-kit.js';
import { paymentView } from './payment-view.js';
import { paymentStatus, type PaymentStatus } from '../engine/sale/status.js';

export interface PaymentsDeps {
  engine: SaleEngine;
  journal: Journal;
}

const PaymentRequest = z.strictObject({
  amount: z.number().int('must be a whole number of cents').positive('must be more than 0').max(99_999_999),
  method: z.enum(['credit', 'debit', 'voucher']),
  installments: z.number().int().min(1).max(99).default(1),
  interest: z.enum(['ByMerchant', 'ByIssuer']).default('ByMerchant'),
  confirmation: z.enum(['auto', 'ecr']).default('auto'),
});

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,64}$/;

function badRequest(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const field = issue?.code === 'unrecognized_keys' ? issue.keys[0] : issue?.path.join('.');
  return new ApiError(400, 'INVALID_FIELD', `${field || 'body'}: ${issue?.code === 'unrecognized_keys' ? 'unknown field' : (issue?.message ?? 'invalid')}`, field || undefined);
}

function idParam(raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new ApiError(404, 'NOT_FOUND', `no payment ${raw}`);
  return Number(raw);
}

function saleOr404(journal: Journal, id: number) {
  const entry = journal.get(id);
  if (!entry || entry.kind !== 'sale') throw new ApiError(404, 'NOT_FOUND', `no payment ${id}`);
  return entry;
}

/** `POST /v1/payments`: starts a card sale; the same `Idempotency-Key` returns the same payment. */
export async function createPayment(req: IncomingMessage, res: ServerResponse, deps: PaymentsDeps): Promise<void> {
  const key = req.headers['idempotency-key'];
  if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key))) {
    throw new ApiError(400, 'INVALID_FIELD', 'Idempotency-Key: 1 to 64 letters, digits or . _ : -', 'Idempotency-Key');
  }
  const parsed = PaymentRequest.safeParse(await readJson(req), {
    error: (iss) => (iss.input === undefined && (iss.code === 'invalid_type' || iss.code === 'invalid_value') ? 'is required' : undefined),
  });
  if (!parsed.success) throw badRequest(parsed.error);
  if (key) {
    const existing = deps.journal.byIdempotencyKey(key);
    if (existing) {
      const same = JSON.stringify((existing.data as { request?: unknown }).request) === JSON.stringify(parsed.data);
      if (!same) throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key was used for another payment request', 'Idempotency-Key');
      sendJson(res, 200, paymentView(existing));
      return;
    }
  }
  try {
    const { entry, done } = await deps.engine.start(parsed.data, key ? { idempotencyKey: key } : {});
    done.catch(() => undefined);
    sendJson(res, 202, paymentView(entry), { location: `/v1/payments/${entry.id}` });
  } catch (e) {
    if (isOmniposError(e, 'ENGINE_BUSY')) throw new ApiError(409, 'BUSY', 'the terminal is busy with another payment');
    throw e;
  }
}

export function getPayment(res: ServerResponse, deps: PaymentsDeps, rawId: string): void {
  sendJson(res, 200, paymentView(saleOr404(deps.journal, idParam(rawId))));
}

const STATUSES: PaymentStatus[] = ['pending', 'approved', 'confirmed', 'declined', 'cancelled', 'undone', 'needs-refund', 'failed'];

/** `GET /v1/payments?status=approved`: newest first. */
export function listPayments(res: ServerResponse, deps: PaymentsDeps, query: URLSearchParams): void {
  const status = query.get('status');
  if (status !== null && !STATUSES.includes(status as PaymentStatus)) {
    throw new ApiError(400, 'INVALID_FIELD', `status: one of ${STATUSES.join(', ')}`, 'status');
  }
  const states = status ? SALE_STATES.filter((s: SaleStateName) => paymentStatus(s) === status) : undefined;
  const entries = deps.journal.list({ ...(states ? { states } : {}), limit: 200 }).filter((e) => e.kind === 'sale');
  sendJson(res, 200, { payments: entries.map(paymentView) });
}

/** `POST /v1/payments/{id}/confirm|undo|cancel`. */
export async function act(res: ServerResponse, deps: PaymentsDeps, rawId: string, action: 'confirm' | 'undo' | 'cancel'): Promise<void> {
  const id = idParam(rawId);
  saleOr404(deps.journal, id);
  try {
    if (action === 'cancel') await deps.engine.cancel(id, 'ecr');
    else await deps.engine.decide(id, action, 'ecr');
  } catch (e) {
    if (isOmniposError(e, 'ENGINE_NOT_ALLOWED')) throw new ApiError(409, 'NOT_ALLOWED', e.message);
    throw e;
  }
  sendJson(res, 200, paymentView(saleOr404(deps.journal, id)));
}
