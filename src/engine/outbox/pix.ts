import type { Delivery, PixHostPort } from '../ports.js';

export type { PixHostPort } from '../ports.js';

export interface PixTask {
  merchantOrderId: string;
  paymentId: string;
  /** For a cancel: watch until then (ISO), refunding a late payment. */
  until?: string;
  /** A refund was asked: `pending` now means "refund pending", not "unpaid". */
  refundAsked?: boolean;
  /** The refund is of a payment that came after the cancel. */
  late?: boolean;
  /** Status queries that failed in a row (the query host down or lost): bounded by PIX_QUERY_FAILURES_MAX. */
  queryFailures?: number;
}

/**
 * A Pix task does not wait for a working status query forever: after this many failed queries in a
 * row it is dead-lettered (the Pix engine raises PIX_DEAD_LETTER) for a person to check at the
 * acquirer. With the outbox's backoff this is hours, well before money is left unexplained.
 */
export const PIX_QUERY_FAILURES_MAX = 30;

export interface PixAttempt {
  delivery: Delivery;
  payload?: PixTask;
}

/**
 * One attempt at cancelling (and watching) or refunding a Pix. Refund: paid → ask the refund;
 * refunded or cancelled (never paid) → done. Cancel: pending → cancel it; cancelled → done once
 * the code's validity has passed; paid (late) → ask the refund, and done when refunded.
 */
export async function attemptPix(
  port: PixHostPort,
  task: PixTask,
  op: 'cancel' | 'refund',
  now: Date,
): Promise<PixAttempt> {
  const s = await port.status(task.paymentId);
  if (s.kind === 'unknown') return queryFailed(port, task, op, s.reason);
  if (task.queryFailures) task = { ...task, queryFailures: 0 };
  const reset = task.queryFailures === 0 ? { payload: task } : {};
  switch (s.status) {
    case 'refunded':
      return {
        ...reset,
        delivery: {
          action: 'done',
          reason: task.late ? 'the late payment was refunded' : 'refunded',
          ...(task.late ? { late: true } : {}),
        },
      };
    case 'cancelled':
      if (op === 'refund' || now.getTime() >= Date.parse(task.until ?? ''))
        return { ...reset, delivery: { action: 'done', reason: 'cancelled; no payment' } };
      return {
        ...reset,
        delivery: { action: 'retry', reason: 'cancelled; watching for a late payment until the code ends' },
      };
    case 'pending':
      if (task.refundAsked)
        return { ...reset, delivery: { action: 'retry', reason: 'refund pending at the provider' } };
      break;
    case 'paid':
      break;
    case 'unknown':
      return { ...reset, delivery: { action: 'retry', reason: `status ${s.detail ?? 'unknown'}` } };
  }
  // Paid, or pending and no refund asked (not paid yet): void it — a refund, or a cancel.
  const v = await port.void(task.paymentId);
  if (v.kind === 'unknown') return { ...reset, delivery: { action: 'retry', reason: `void: ${v.reason}` } };
  const paid = s.status === 'paid';
  const payload: PixTask = {
    ...task,
    ...(paid ? { refundAsked: true, ...(op === 'cancel' ? { late: true } : {}) } : {}),
  };
  return { delivery: { action: 'retry', reason: paid ? 'refund asked' : 'cancel asked' }, payload };
}

/**
 * The status query failed. A refund not asked yet is asked anyway (`PUT …/void` is on the request
 * host; the sale was paid, so it is a refund); past PIX_QUERY_FAILURES_MAX failures in a row the task
 * is dead-lettered with what is known.
 */
async function queryFailed(
  port: PixHostPort,
  task: PixTask,
  op: 'cancel' | 'refund',
  reason: string,
): Promise<PixAttempt> {
  const failures = (task.queryFailures ?? 0) + 1;
  if (failures >= PIX_QUERY_FAILURES_MAX) {
    const asked = task.refundAsked
      ? 'the refund was asked, its completion never confirmed'
      : op === 'cancel'
        ? 'the cancel was never confirmed'
        : 'the refund could not be asked';
    return {
      delivery: {
        action: 'dead-letter',
        reason: `the status query failed ${failures} times in a row (${reason}); ${asked}: check the sale at the acquirer`,
      },
    };
  }
  const payload: PixTask = { ...task, queryFailures: failures };
  if (op === 'refund' && !task.refundAsked) {
    const v = await port.void(task.paymentId);
    if (v.kind === 'answered')
      return {
        delivery: { action: 'retry', reason: `refund asked without a status (query: ${reason})` },
        payload: { ...payload, refundAsked: true },
      };
  }
  return { delivery: { action: 'retry', reason: `query: ${reason}` }, payload };
}
