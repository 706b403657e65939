import { codeMeaning, isReturnCode } from '../../../tables/acquirer/return-codes.js';
import { acquirerContext, returnOf } from '../errors.js';
import type { AcquirerResponse } from '../http.js';
import {
  CONFIRM,
  SALE_CREATE_SHOWN,
  UNDO,
  VOID_CONFIRM,
  VOID_UNDO,
  decideBody,
  type Decision,
  type HostSaleState,
} from '../../engine/index.js';
import { omniSaleState, shownDetail, voidAnswer } from './states.js';

/**
 * The outcome tables (docs/decisions.md, "The acquirer's answers"), in one module: what a sale answer means,
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
  if (ctx?.status !== undefined)
    return {
      kind: 'answer',
      status: ctx.status,
      body: { ReturnCode: ctx.returnCode, ReturnMessage: ctx.returnMessage },
    };
  if (ctx?.transport) return { kind: 'transport', failure: ctx.transport };
  // Anything else (a bug, a bad body) happened after the request may have left.
  return { kind: 'transport', failure: 'lost' };
}

function payment(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (b.Payment && typeof b.Payment === 'object' && !Array.isArray(b.Payment))
    return b.Payment as Record<string, unknown>;
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
  /** `unclear`: why the denial is not clear (pt:7330): the rulebook's `unclear-decline` row. */
  | { kind: 'declined'; paymentId?: string; returnCode?: string | number; returnMessage?: string; unclear?: string }
  /** The host refused the request before processing it: nothing was charged. */
  | {
      kind: 'refused';
      status: number;
      returnCode?: string | number;
      returnMessage?: string;
      duplicateOrderId: boolean;
      unclear?: string;
    }
  /** The request never left: nothing was charged (the order id is still never reused). */
  | { kind: 'not-sent' }
  /** Maybe charged: settle by the undo race (query by order id, undo what is found). */
  | { kind: 'unknown'; reason: string; paymentId?: string };

/**
 * A decline whose answer does not make the denial clear (pt:7330, "retorno com erro que não deixe
 * claro a negativa"): Status 3 with ReturnCode 99 ("Time out", the issuer's time-out), or a 4xx
 * whose code reads as success (`[{Code: 0}]`). Undone only under `payments.undoUnclearDeclines`.
 */
function unclearDecline(code: string | number | undefined, refusal: boolean): string | undefined {
  if (!refusal && isReturnCode(code, 'ISSUER_TIMEOUT')) return `Status 3 with ReturnCode ${String(code)} (Time out)`;
  if (refusal && isReturnCode(code, 'SUCCESS', 'APPROVED'))
    return `a refusal whose code ${String(code)} reads as success`;
  return undefined;
}

/**
 * The sale table. The 2xx body's numbers are read by the one state table (states.ts,
 * `omniSaleState`), as the rulebook's sale answer (rules/book-create.ts `SALE_CREATE_SHOWN`); the
 * rulebook's `sale` table decides what then happens (the sale machine reads it). `captureRequested`
 * is always true for omnipos, kept explicit for the anomaly row (Status 1 although capture was asked).
 */
export function saleOutcome(ex: Exchange, captureRequested = true): SaleOutcome {
  if (ex.kind === 'transport') {
    return ex.failure === 'not-sent' ? { kind: 'not-sent' } : { kind: 'unknown', reason: ex.failure };
  }
  const { status, body } = ex;
  const ret = returnOf(body);
  if (status >= 500 || status === 408) return { kind: 'unknown', reason: `HTTP ${status}` };
  if (status >= 400) {
    const unclear = unclearDecline(ret.returnCode, true);
    return {
      kind: 'refused',
      status,
      ...ret,
      duplicateOrderId: codeMeaning(ret.returnCode) === 'duplicate-order-id',
      ...(unclear ? { unclear } : {}),
    };
  }
  if (status < 200 || status >= 300) return { kind: 'unknown', reason: `HTTP ${status}` };
  const p = payment(body);
  const shown = { status: intField(p, 'Status'), confirmationStatus: intField(p, 'ConfirmationStatus') };
  const paymentId = typeof p?.PaymentId === 'string' && p.PaymentId !== '' ? p.PaymentId : undefined;
  const withId = paymentId ? { paymentId } : {};
  if (shown.status === undefined) return { kind: 'unknown', reason: 'answer without Payment.Status', ...withId };
  const answer = shown.status === 1 && paymentId ? 'anomaly' : SALE_CREATE_SHOWN[omniSaleState(shown)];
  switch (answer) {
    case 'approved':
      return paymentId
        ? { kind: 'approved', paymentId, ...ret }
        : { kind: 'unknown', reason: `${shownDetail(shown)} without PaymentId` };
    case 'anomaly':
      return captureRequested && paymentId
        ? { kind: 'anomaly', paymentId, reason: 'authorized-not-captured' }
        : { kind: 'approved', paymentId: paymentId as string, ...ret };
    case 'declined': {
      const unclear = unclearDecline(ret.returnCode, false);
      return { kind: 'declined', ...withId, ...ret, ...(unclear ? { unclear } : {}) };
    }
    default:
      return { kind: 'unknown', reason: shownDetail(shown), ...withId };
  }
}

/* -------------------------------------------- confirm, undo, void answers */

export type Operation = 'confirm' | 'undo' | 'void-confirm' | 'void-undo';

/**
 * `done`: nothing more to send. `retry`: send again later (the outbox's backoff).
 * `dead-letter`: stop and raise an alarm. `needs-refund`: the sale stays charged (confirmed by
 * the host, e.g. at the daily close); alarm, and a void when the customer returns.
 * `query`: the answer decides nothing (any non-2xx, or a 2xx that is not unambiguous): ask the
 * host for the sale's (or the void's) state and decide on that.
 */
export type OperationAction = 'done' | 'retry' | 'dead-letter' | 'needs-refund' | 'query';

export interface OperationOutcome {
  action: OperationAction;
  /** Which row decided, for logs and alarms. */
  reason: string;
  /** What the sale (or void) ended as, when the answer says. */
  confirmationStatus?: number;
  cancellationStatus?: number;
  /** A confirmation's 2xx body that gave it up: the sale as that body showed it (Delivery.shown). */
  shown?: HostSaleState;
}

/**
 * The confirm/undo/void answers, decided by the rulebook (src/engine/rules/book.ts: `sale.confirm`,
 * `sale.undo`, `void.confirm`, `void.undo`) on what the 2xx body shows, read by states.ts
 * (`ConfirmationStatus` and `Status` of a sale, `CancellationStatus` of a void); a return code
 * never decides. Any non-2xx, and any 2xx body that does not show a final state (`{}`, `null`,
 * status 0, the void confirmation's `CancellationStatus: 4` beside `ConfirmatinoStatus: 1`), is
 * `query`. A lost exchange is `retry` (every one of these requests is safe to repeat).
 */
export function operationOutcome(op: Operation, ex: Exchange): OperationOutcome {
  if (ex.kind === 'transport') return { action: 'retry', reason: `transport ${ex.failure}` };
  const { status, body } = ex;
  if (status < 200 || status >= 300) {
    const ret = returnOf(body);
    return {
      action: 'query',
      reason: `HTTP ${status}${ret.returnCode !== undefined ? ` ReturnCode ${JSON.stringify(ret.returnCode)}` : ''}: the answer decides nothing`,
    };
  }
  const p = payment(body);
  const cs = intField(p, 'ConfirmationStatus');
  const cancel = intField(p, 'CancellationStatus');
  const st = intField(p, 'Status');
  const extra = {
    ...(cs !== undefined ? { confirmationStatus: cs } : {}),
    ...(cancel !== undefined ? { cancellationStatus: cancel } : {}),
  };
  const shown = { status: st, confirmationStatus: cs };
  const rule =
    op === 'confirm'
      ? decideBody(CONFIRM, omniSaleState(shown))
      : op === 'undo'
        ? decideBody(UNDO, omniSaleState(shown))
        : decideBody(op === 'void-confirm' ? VOID_CONFIRM : VOID_UNDO, voidAnswer(cancel));
  const what =
    op === 'void-confirm' || op === 'void-undo' ? `CancellationStatus ${String(cancel)}` : shownDetail(shown);
  const action = bodyAction(rule.decision);
  const seen = op === 'confirm' && action === 'dead-letter' ? { shown: omniSaleState(shown) } : {};
  return { action, reason: `2xx ${what}: ${rule.why}`, ...extra, ...seen };
}

/** A rulebook decision on a 2xx body, as an operation's action: anything not final is asked of the query. */
function bodyAction(decision: Decision): OperationAction {
  return decision === 'done' || decision === 'needs-refund' || decision === 'dead-letter' ? decision : 'query';
}

/* ----------------------------------------------------------------- void */

export type VoidOutcome =
  | { kind: 'approved'; voidId: string }
  | { kind: 'declined'; voidId?: string; returnCode?: string | number; returnMessage?: string }
  | { kind: 'refused'; status: number; returnCode?: string | number; returnMessage?: string }
  | { kind: 'not-sent' }
  /** Maybe voided: undo by MerchantVoidId, or query. */
  | { kind: 'unknown'; reason: string };

function idField(obj: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** `ReturnCode` 0 as the manual writes it: `0` (English void answer) or `"0"`/`"000"` (Portuguese): SUCCESS or APPROVED in the table. */
function returnCodeZero(code: unknown): boolean {
  return (typeof code === 'string' || typeof code === 'number') && isReturnCode(code, 'SUCCESS', 'APPROVED');
}

/**
 * The void create table, in every shape the manual shows: approved on `CancellationStatus` 1
 * (Portuguese page) or on `Status` 10 with `ReturnCode` 0 (English page, which has no
 * CancellationStatus), with a `VoidId` either way; `CancellationStatus` 2 → declined.
 */
export function voidOutcome(ex: Exchange): VoidOutcome {
  if (ex.kind === 'transport')
    return ex.failure === 'not-sent' ? { kind: 'not-sent' } : { kind: 'unknown', reason: ex.failure };
  const { status, body } = ex;
  const ret = returnOf(body);
  if (status >= 500 || status === 408) return { kind: 'unknown', reason: `HTTP ${status}` };
  if (status >= 400) {
    // A 4xx says nothing certain of what the host did with a void: a not-found (307, 318) or an unpublished code
    // may follow an approved void (the chaos run saw a 404 307); the published 309 ("Transaction not available to
    // void") is also the answer for a sale voided already, by this very request, its first answer lost or late;
    // 308 ("not available to capture") is not about voids at all (the 1000-sale chaos runs: six voids the host did
    // and answered 309 or 308 stayed pending and were confirmed at the close while the terminal showed them failed).
    // So each is undone by MerchantVoidId and the sale stays as the host then shows it; a void truly refused costs
    // one undo that finds nothing. Only the duplicate (302, this MerchantVoidId was used) refuses: undoing by that
    // MerchantVoidId would undo the other void.
    if (codeMeaning(ret.returnCode) !== 'duplicate-order-id') {
      return { kind: 'unknown', reason: `HTTP ${status}, code ${String(ret.returnCode)}` };
    }
    return { kind: 'refused', status, ...ret };
  }
  if (status < 200 || status >= 300) return { kind: 'unknown', reason: `HTTP ${status}` };
  const p = payment(body);
  const cancel = intField(p, 'CancellationStatus');
  const st = intField(p, 'Status');
  const voidId = idField(p, 'VoidId');
  // CancellationStatus read by the one table (states.ts); the English page's answer has none.
  const shown = voidAnswer(cancel);
  if (shown === 'denied') return { kind: 'declined', ...(voidId ? { voidId } : {}), ...ret };
  if (voidId && shown === 'authorized') return { kind: 'approved', voidId };
  if (voidId && cancel === undefined && st === 10 && returnCodeZero(p?.ReturnCode)) return { kind: 'approved', voidId };
  return {
    kind: 'unknown',
    reason: `CancellationStatus ${String(cancel)}, Status ${String(st)}${voidId ? '' : ', no VoidId'}`,
  };
}

/* ---------------------------------------------------------------- query */

export type QueryOutcome =
  | { kind: 'found'; status: number | undefined; confirmationStatus: number | undefined; paymentId: string | undefined }
  /** Not found NOW. Never final by itself: the caller applies the close of the sale's day. */
  | { kind: 'not-found' }
  | { kind: 'unknown'; reason: string };

/**
 * The host's "not found", in the shapes it is given: HTTP 404 whose body carries a published
 * not-found code (303, 307, 318 of the e-commerce error table, as the `[{Code, Message}]` array
 * or `{ReturnCode}`), or a 2xx empty list (`[]`, `{"Payments": []}`). A 404 without such a code
 * (no body, an unpublished code) may be a path the host does not serve: it is not "not found".
 */
function notFound(status: number, body: unknown): boolean | undefined {
  if (status === 404) return codeMeaning(returnOf(body).returnCode) === 'not-found';
  if (status >= 200 && status < 300) {
    if (Array.isArray(body)) return body.length === 0;
    if (body && typeof body === 'object' && Array.isArray((body as Record<string, unknown>).Payments)) {
      return ((body as Record<string, unknown>).Payments as unknown[]).length === 0;
    }
  }
  return undefined;
}

/** The query table (by PaymentId or by MerchantOrderId). */
export function queryOutcome(ex: Exchange): QueryOutcome {
  if (ex.kind === 'transport') return { kind: 'unknown', reason: ex.failure };
  const nf = notFound(ex.status, ex.body);
  if (nf === true) return { kind: 'not-found' };
  if (ex.status < 200 || ex.status >= 300)
    return {
      kind: 'unknown',
      reason: `HTTP ${ex.status}${ex.status === 404 ? ' without a published not-found code' : ''}`,
    };
  let body = ex.body;
  // A list of one sale reads as that sale; several sales under one order id are not ours to pick.
  if (Array.isArray(body)) {
    if (body.length !== 1) return { kind: 'unknown', reason: `${body.length} sales under one order id` };
    body = body[0];
  }
  const list = body && typeof body === 'object' ? (body as Record<string, unknown>).Payments : undefined;
  if (Array.isArray(list)) {
    if (list.length !== 1) return { kind: 'unknown', reason: `${list.length} sales under one order id` };
    body = list[0];
  }
  const p = payment(body);
  if (!p) return { kind: 'unknown', reason: 'answer is not an object' };
  return {
    kind: 'found',
    status: intField(p, 'Status'),
    confirmationStatus: intField(p, 'ConfirmationStatus'),
    paymentId: idField(p, 'PaymentId'),
  };
}

export type VoidQueryOutcome =
  | { kind: 'found'; cancellationStatus: number | undefined; status: number | undefined }
  | { kind: 'not-found' }
  | { kind: 'unknown'; reason: string };

/** The void query (`GET …/voids/{VoidId}`, answered `{VoidId, CancellationStatus, Status}`). */
export function voidQueryOutcome(ex: Exchange): VoidQueryOutcome {
  if (ex.kind === 'transport') return { kind: 'unknown', reason: ex.failure };
  if (notFound(ex.status, ex.body) === true) return { kind: 'not-found' };
  if (ex.status < 200 || ex.status >= 300) return { kind: 'unknown', reason: `HTTP ${ex.status}` };
  const p = payment(ex.body);
  if (!p) return { kind: 'unknown', reason: 'answer is not an object' };
  const cancellationStatus = intField(p, 'CancellationStatus');
  if (cancellationStatus === undefined) return { kind: 'unknown', reason: 'answer without CancellationStatus' };
  return { kind: 'found', cancellationStatus, status: intField(p, 'Status') };
}
