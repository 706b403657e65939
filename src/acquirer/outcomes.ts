import { returnCodeName, type ReturnCodeName } from '../../tables/acquirer/return-codes.js';
import { acquirerContext, returnOf } from './errors.js';
import type { AcquirerResponse } from './http.js';

/**
 * The outcome tables of DESIGN.md ("The acquirer"), in one module: what a sale answer means,
 * and what to do after a confirm, undo or void answer. Pure: they read an `Exchange` (an
 * answer, or how the exchange failed) and return a decision; tested row by row.
 */

/** What came back from one request. */
export type Exchange =
  | { kind: 'answer'; status: number; body: unknown }
  /** `not-sent`: the request never left; `timeout` / `lost`: it may have reached the host. */
  | { kind: 'transport'; failure: 'not-sent' | 'timeout' | 'lost' };

/** An Exchange from a response or from what a client call threw (an acquirer error). */
export function exchangeOf(settled: { response: AcquirerResponse } | { error: unknown }): Exchange {
  if ('response' in settled) return { kind: 'answer', status: settled.response.status, body: settled.response.body };
  const ctx = acquirerContext(settled.error);
  if (ctx?.status !== undefined) return { kind: 'answer', status: ctx.status, body: { ReturnCode: ctx.returnCode, ReturnMessage: ctx.returnMessage } };
  if (ctx?.transport) return { kind: 'transport', failure: ctx.transport };
  // Anything else (a bug, a bad body) happened after the request may have left.
  return { kind: 'transport', failure: 'lost' };
}

function payment(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (b.Payment && typeof b.Payment === 'object' && !Array.isArray(b.Payment)) return b.Payment as Record<string, unknown>;
  return b;
}

function intField(obj: Record<string, unknown> | undefined, ...keys: string[]): number | undefined {
  if (!obj) return undefined;
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  }
  return undefined;
}

/* ------------------------------------------------------------------ sale */

export type SaleOutcome =
  | { kind: 'approved'; paymentId: string; returnCode?: string | number; returnMessage?: string }
  /** Status 1 although capture was asked: undo it and raise an alarm. */
  | { kind: 'anomaly'; paymentId: string; reason: 'authorized-not-captured' }
  | { kind: 'declined'; paymentId?: string; returnCode?: string | number; returnMessage?: string }
  /** The host refused the request before processing it: nothing was charged. */
  | { kind: 'refused'; status: number; returnCode?: string | number; returnMessage?: string; duplicateOrderId: boolean }
  /** The request never left: nothing was charged (the order id is still never reused). */
  | { kind: 'not-sent' }
  /** Maybe charged: settle by the undo race (query by order id, undo what is found). */
  | { kind: 'unknown'; reason: string; paymentId?: string };

/** The sale table. `captureRequested` is always true for omnipos, kept explicit for the row. */
export function saleOutcome(ex: Exchange, captureRequested = true): SaleOutcome {
  if (ex.kind === 'transport') {
    return ex.failure === 'not-sent' ? { kind: 'not-sent' } : { kind: 'unknown', reason: ex.failure };
  }
  const { status, body } = ex;
  const ret = returnOf(body);
  if (status >= 500 || status === 408) return { kind: 'unknown', reason: `HTTP ${status}` };
  if (status >= 400) {
    return { kind: 'refused', status, ...ret, duplicateOrderId: returnCodeName(ret.returnCode) === 'DUPLICATE_ORDER_ID' };
  }
  if (status < 200 || status >= 300) return { kind: 'unknown', reason: `HTTP ${status}` };
  const p = payment(body);
  const st = intField(p, 'Status');
  const paymentId = typeof p?.PaymentId === 'string' && p.PaymentId !== '' ? p.PaymentId : undefined;
  if (st === undefined) return { kind: 'unknown', reason: 'answer without Payment.Status', ...(paymentId ? { paymentId } : {}) };
  if (st === 2 && paymentId) return { kind: 'approved', paymentId, ...ret };
  if (st === 2) return { kind: 'unknown', reason: 'Status 2 without PaymentId' };
  if (st === 1 && paymentId) {
    return captureRequested ? { kind: 'anomaly', paymentId, reason: 'authorized-not-captured' } : { kind: 'approved', paymentId, ...ret };
  }
  if (st === 3) return { kind: 'declined', ...(paymentId ? { paymentId } : {}), ...ret };
  return { kind: 'unknown', reason: `Status ${st}`, ...(paymentId ? { paymentId } : {}) };
}

/* -------------------------------------------- confirm, undo, void answers */

export type Operation = 'confirm' | 'undo' | 'void-confirm' | 'void-undo';

/**
 * `done`: nothing more to send. `retry`: send again later (the outbox's backoff).
 * `dead-letter`: stop and raise an alarm. `needs-refund`: the sale stays charged (confirmed by
 * the host, e.g. at the daily close); alarm, and a void when the customer returns.
 */
export type OperationAction = 'done' | 'retry' | 'dead-letter' | 'needs-refund';

export interface OperationOutcome {
  action: OperationAction;
  /** Which row decided, for logs and alarms. */
  reason: string;
  /** What the sale (or void) ended as, when the answer says. */
  confirmationStatus?: number;
  cancellationStatus?: number;
}

/** Named permanent codes per operation; any other code (or none) on an error status retries. */
const PERMANENT: Record<Operation, Partial<Record<ReturnCodeName, OperationAction>>> = {
  confirm: {
    ALREADY_CONFIRMED: 'done',
    ALREADY_UNDONE: 'dead-letter',
    DECLINED_SALE: 'done',
    NOT_ALLOWED: 'dead-letter',
    PAST_DAILY_CLOSE: 'done',
  },
  undo: {
    ALREADY_UNDONE: 'done',
    DECLINED_SALE: 'done',
    ALREADY_CONFIRMED: 'needs-refund',
    PAST_DAILY_CLOSE: 'needs-refund',
    NOT_ALLOWED: 'dead-letter',
  },
  'void-confirm': {
    ALREADY_CONFIRMED: 'done',
    ALREADY_UNDONE: 'dead-letter',
    NOT_ALLOWED: 'dead-letter',
  },
  'void-undo': {
    ALREADY_UNDONE: 'done',
    ALREADY_CONFIRMED: 'dead-letter',
    NOT_ALLOWED: 'dead-letter',
    PAST_DAILY_CLOSE: 'dead-letter',
  },
};

/** The confirm/undo/void table, keyed on (operation, HTTP status, ConfirmationStatus, Status, ReturnCode). */
export function operationOutcome(op: Operation, ex: Exchange): OperationOutcome {
  if (ex.kind === 'transport') return { action: 'retry', reason: `transport ${ex.failure}` };
  const { status, body } = ex;
  const ret = returnOf(body);
  const name = returnCodeName(ret.returnCode);
  if (status >= 200 && status < 300) {
    const p = payment(body);
    const cs = intField(p, 'ConfirmationStatus', 'ConfirmatinoStatus');
    const cancel = intField(p, 'CancellationStatus');
    const st = intField(p, 'Status');
    const extra = { ...(cs !== undefined ? { confirmationStatus: cs } : {}), ...(cancel !== undefined ? { cancellationStatus: cancel } : {}) };
    switch (op) {
      case 'confirm':
        if (cs === 1) return { action: 'done', reason: 'confirmed', ...extra };
        if (cs === 2) return { action: 'dead-letter', reason: 'sale was undone; cannot confirm', ...extra };
        if (st === 3) return { action: 'done', reason: 'declined sale: nothing to confirm', ...extra };
        return { action: 'retry', reason: `2xx with ConfirmationStatus ${String(cs)}`, ...extra };
      case 'undo':
        if (cs === 2) return { action: 'done', reason: 'undone', ...extra };
        if (cs === 1) return { action: 'needs-refund', reason: 'sale is confirmed; undo did not happen', ...extra };
        if (st === 3) return { action: 'done', reason: 'declined sale: nothing to undo', ...extra };
        return { action: 'retry', reason: `2xx with ConfirmationStatus ${String(cs)}`, ...extra };
      case 'void-confirm':
        if (cancel === 3) return { action: 'done', reason: 'void confirmed', ...extra };
        if (cancel === 4) return { action: 'dead-letter', reason: 'void was undone; cannot confirm', ...extra };
        if (cancel === 2) return { action: 'dead-letter', reason: 'void was denied', ...extra };
        return { action: 'retry', reason: `2xx with CancellationStatus ${String(cancel)}`, ...extra };
      case 'void-undo':
        if (cancel === 4) return { action: 'done', reason: 'void undone', ...extra };
        if (cancel === 2) return { action: 'done', reason: 'void was denied: nothing to undo', ...extra };
        if (cancel === 3) return { action: 'dead-letter', reason: 'void is confirmed; the refund stands', ...extra };
        return { action: 'retry', reason: `2xx with CancellationStatus ${String(cancel)}`, ...extra };
    }
  }
  const permanent = name ? PERMANENT[op][name] : undefined;
  if (permanent) return { action: permanent, reason: `HTTP ${status} ${name ?? ''}`.trim() };
  // A 404 is never final by itself; 401/403, 4xx without a named code, 5xx: send again later.
  return { action: 'retry', reason: `HTTP ${status}${ret.returnCode !== undefined ? ` ReturnCode ${String(ret.returnCode)}` : ''}` };
}

/* ----------------------------------------------------------------- void */

export type VoidOutcome =
  | { kind: 'approved'; voidId: string }
  | { kind: 'declined'; voidId?: string; returnCode?: string | number; returnMessage?: string }
  | { kind: 'refused'; status: number; returnCode?: string | number; returnMessage?: string }
  | { kind: 'not-sent' }
  /** Maybe voided: undo by MerchantVoidId, or query. */
  | { kind: 'unknown'; reason: string };

/** The void create table: CancellationStatus 1 → approved (to confirm), 2 → declined. */
export function voidOutcome(ex: Exchange): VoidOutcome {
  if (ex.kind === 'transport') return ex.failure === 'not-sent' ? { kind: 'not-sent' } : { kind: 'unknown', reason: ex.failure };
  const { status, body } = ex;
  const ret = returnOf(body);
  if (status >= 500 || status === 408) return { kind: 'unknown', reason: `HTTP ${status}` };
  if (status >= 400) return { kind: 'refused', status, ...ret };
  const p = payment(body);
  const cancel = intField(p, 'CancellationStatus');
  const voidId = typeof p?.VoidId === 'string' && p.VoidId !== '' ? p.VoidId : undefined;
  if (cancel === 1 && voidId) return { kind: 'approved', voidId };
  if (cancel === 2) return { kind: 'declined', ...(voidId ? { voidId } : {}), ...ret };
  return { kind: 'unknown', reason: `CancellationStatus ${String(cancel)}` };
}

/* ---------------------------------------------------------------- query */

export type QueryOutcome =
  | { kind: 'found'; status: number | undefined; confirmationStatus: number | undefined; paymentId: string | undefined }
  /** 404: not found NOW. Never final by itself: the caller applies the processing window. */
  | { kind: 'not-found' }
  | { kind: 'unknown'; reason: string };

/** The query table (by PaymentId or by MerchantOrderId). */
export function queryOutcome(ex: Exchange): QueryOutcome {
  if (ex.kind === 'transport') return { kind: 'unknown', reason: ex.failure };
  if (ex.status === 404) return { kind: 'not-found' };
  if (ex.status < 200 || ex.status >= 300) return { kind: 'unknown', reason: `HTTP ${ex.status}` };
  const p = payment(ex.body);
  if (!p) return { kind: 'unknown', reason: 'answer is not an object' };
  return {
    kind: 'found',
    status: intField(p, 'Status'),
    confirmationStatus: intField(p, 'ConfirmationStatus'),
    paymentId: typeof p.PaymentId === 'string' ? p.PaymentId : undefined,
  };
}
