import type { Delivery, PixHostPort, PixStatusQuery } from '../ports.js';
import { PIX_CANCEL, PIX_REFUND, PIX_REFUND_ASKED, PIX_REFUND_REQUEST, decide, type Rule } from '../rules/index.js';

export type { PixHostPort } from '../ports.js';

export interface PixTask {
  merchantOrderId: string;
  paymentId: string;
  /** For a cancel: watch until then (ISO), refunding a late payment. */
  until?: string;
  /** A refund was asked (or may have been: its answer was lost): never asked again. */
  refundAsked?: boolean;
  /**
   * The refund request's answer was lost (a timeout, a reset, an unreadable answer): it may never have
   * reached the provider. Never asked again all the same; the reasons and the dead letter say so.
   */
  refundUnsure?: boolean;
  /**
   * When the refund request was about to leave (ISO), saved before it leaves: a crash between the
   * request and the record of its answer finds it here and never asks a second refund.
   */
  refundAsking?: string;
  /** The refund is of a payment that came after the cancel. */
  late?: boolean;
  /** Status queries that failed or could not be read, in a row: bounded by PIX_QUERY_FAILURES_MAX. */
  queryFailures?: number;
  /** Looks, after the refund was asked, that still show it in progress: bounded by PIX_REFUND_WAITS_MAX. */
  refundWaits?: number;
}

/**
 * A Pix task does not wait for a working status query forever: after this many failed (or
 * unreadable) queries in a row it is dead-lettered (the Pix engine raises PIX_DEAD_LETTER) for a
 * person to check at the acquirer. With the outbox's backoff this is hours.
 */
export const PIX_QUERY_FAILURES_MAX = 30;

/**
 * A refund asked is never asked again; the charge stays 2 until it is done (ecom:1788). After this
 * many looks still showing it in progress, the task is dead-lettered for a person to check: the
 * refund may not have reached the provider (a crash before it left), or it is stuck there.
 */
export const PIX_REFUND_WAITS_MAX = 60;

export interface PixAttempt {
  delivery: Delivery;
  payload?: PixTask;
}

/** Saves a task's payload now, before a request leaves (the outbox's row, synchronously). */
export type SavePayload = (task: PixTask) => void;

/**
 * One attempt at cancelling (and watching) or refunding a Pix, decided by the rulebook's
 * `pix.cancel`, `pix.refund`, `pix.refund (asked)` and `pix.refund (request)` tables
 * (rules/book.ts). A refund is asked once: its intent is saved before the request leaves, and
 * once asked (or possibly asked) only the status query decides; a refund the provider refuses
 * ends the task with an alarm of its own (`refused`).
 */
export async function attemptPix(
  port: PixHostPort,
  task: PixTask,
  op: 'cancel' | 'refund',
  now: Date,
  save?: SavePayload,
): Promise<PixAttempt> {
  const s = await port.status(task.paymentId);
  if (s.kind === 'unknown') return queryFailed(port, task, op, s.reason, now, save);
  const asked = task.refundAsked === true || task.refundAsking !== undefined;
  const table = asked ? PIX_REFUND_ASKED : op === 'cancel' ? PIX_CANCEL : PIX_REFUND;
  const rule = decide(table, s.status);
  const fresh: PixTask = task.queryFailures ? { ...task, queryFailures: 0 } : task;
  const keep = fresh !== task ? { payload: fresh } : {};
  const shown = `${s.status}${s.detail ? ` (${s.detail})` : ''}`;
  switch (rule.decision) {
    case 'done':
      return { ...keep, delivery: doneDelivery(fresh, s, rule) };
    case 'watch':
      if (now.getTime() >= Date.parse(fresh.until ?? ''))
        return { ...keep, delivery: { action: 'done', reason: 'cancelled; no payment' } };
      return {
        ...keep,
        delivery: {
          action: 'retry',
          reason: 'cancelled; watching for a late payment until the code ends',
          watching: true,
        },
      };
    case 'query':
      return unreadable(fresh, task.queryFailures ?? 0, `status ${s.detail ?? 'unknown'}`);
    case 'void':
      return ask(port, fresh, op, s.status === 'paid', now, save);
    default:
      return waitForRefund(fresh, shown, rule);
  }
}

function doneDelivery(task: PixTask, s: Extract<PixStatusQuery, { kind: 'found' }>, rule: Rule): Delivery {
  if (s.status === 'refunded' || (s.status === 'cancelled' && (task.refundAsked || task.refundAsking)))
    return {
      action: 'done',
      reason: task.late ? 'the late payment was refunded' : 'refunded',
      ...(task.late ? { late: true } : {}),
    };
  return { action: 'done', reason: s.status === 'cancelled' ? 'cancelled; no payment' : rule.why };
}

/** The refund was asked and is in progress: look again, never ask again (bounded). */
function waitForRefund(task: PixTask, shown: string, rule: Rule): PixAttempt {
  const waits = (task.refundWaits ?? 0) + 1;
  const asked = task.refundUnsure
    ? 'the refund was maybe asked (its answer was lost: it may never have reached the provider)'
    : 'the refund was asked';
  if (waits >= PIX_REFUND_WAITS_MAX)
    return {
      delivery: {
        action: 'dead-letter',
        reason: `${asked} and the charge still shows ${shown} after ${waits} looks: check the sale at the acquirer`,
      },
    };
  const why = task.refundUnsure ? `${asked}; never asked again: ${rule.why}` : rule.why;
  return {
    delivery: { action: 'retry', reason: `refund pending at the provider (${why})` },
    payload: { ...task, refundWaits: waits },
  };
}

/** A status the table cannot read: query again, bounded like a failed query. */
function unreadable(task: PixTask, before: number, reason: string): PixAttempt {
  const failures = before + 1;
  if (failures >= PIX_QUERY_FAILURES_MAX) return { delivery: deadLetter(task, 'cancel', failures, reason) };
  return { delivery: { action: 'retry', reason }, payload: { ...task, queryFailures: failures } };
}

/**
 * Voids the charge: a cancel of an unpaid one, or the refund of a paid one, asked once (its intent
 * saved first). The answer is read by `pix.refund (request)`.
 */
async function ask(
  port: PixHostPort,
  task: PixTask,
  op: 'cancel' | 'refund',
  paid: boolean,
  now: Date,
  save: SavePayload | undefined,
): Promise<PixAttempt> {
  const asking: PixTask = paid
    ? { ...task, refundAsking: now.toISOString(), ...(op === 'cancel' ? { late: true } : {}) }
    : task;
  if (paid) save?.(asking);
  const v = await port.void(task.paymentId);
  const rule = decide(PIX_REFUND_REQUEST, v.kind);
  const why = v.kind === 'accepted' ? '' : `: ${v.reason}`;
  if (!paid) return { delivery: { action: 'retry', reason: `cancel asked (${v.kind}${why})` }, payload: task };
  switch (rule.decision) {
    case 'alarm':
      return { delivery: { action: 'dead-letter', refused: true, reason: `the refund was refused${why}` } };
    case 'void': {
      // Nothing was asked: the intent is withdrawn, and the refund asked at the next attempt.
      const { refundAsking: _a, ...rest } = asking;
      return { delivery: { action: 'retry', reason: `refund not sent${why}` }, payload: rest };
    }
    default:
      return {
        delivery: {
          action: 'retry',
          reason: v.kind === 'accepted' ? 'refund asked' : `refund maybe asked${why}; query next`,
        },
        payload: { ...asking, refundAsked: true, ...(v.kind === 'accepted' ? {} : { refundUnsure: true }) },
      };
  }
}

function deadLetter(task: PixTask, op: 'cancel' | 'refund', failures: number, reason: string): Delivery {
  const asked =
    task.refundAsked || task.refundAsking
      ? 'the refund was asked, its completion never confirmed'
      : op === 'cancel'
        ? 'the cancel was never confirmed'
        : 'the refund could not be asked';
  return {
    action: 'dead-letter',
    reason: `the status query failed ${failures} times in a row (${reason}); ${asked}: check the sale at the acquirer`,
  };
}

/**
 * The status query failed. A refund not asked yet is asked anyway (`PUT …/void` is on the request
 * host; the sale was paid, so it is a refund), once; past PIX_QUERY_FAILURES_MAX failures in a row
 * the task is dead-lettered with what is known.
 */
async function queryFailed(
  port: PixHostPort,
  task: PixTask,
  op: 'cancel' | 'refund',
  reason: string,
  now: Date,
  save: SavePayload | undefined,
): Promise<PixAttempt> {
  const failures = (task.queryFailures ?? 0) + 1;
  if (failures >= PIX_QUERY_FAILURES_MAX) return { delivery: deadLetter(task, op, failures, reason) };
  const payload: PixTask = { ...task, queryFailures: failures };
  if (op === 'refund' && !task.refundAsked && task.refundAsking === undefined) {
    const r = await ask(port, payload, op, true, now, save);
    if (r.delivery.action !== 'retry') return r;
    return { ...r, delivery: { ...r.delivery, reason: `${r.delivery.reason} without a status (query: ${reason})` } };
  }
  return { delivery: { action: 'retry', reason: `query: ${reason}` }, payload };
}
