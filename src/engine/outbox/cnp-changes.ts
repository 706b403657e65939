import type { CnpDeliveryPort } from '../cnp-ports.js';
import type { Delivery, SaleQuery } from '../ports.js';
import {
  CNP_VOID_PART,
  CONFIRM,
  decide,
  notFoundVerdict,
  type PartialVoidAnswer,
  type SaleAnswer,
} from '../rules/index.js';
import { visibilityOf, type UndoRaceOptions } from './undo-race.js';

/** One attempt's result: the delivery, and the payload to keep when it changed (attempts.ts `Attempt`). */
interface Attempt<P> {
  delivery: Delivery;
  payload?: P | undefined;
}

/** A capture whose answer was lost (or that a crash left in flight). */
export interface CnpCaptureTask {
  merchantOrderId: string;
  paymentId: string;
  /** Cents; absent: the whole authorization. */
  amount?: number;
  sentAt: string;
}

/** A partial void whose answer was lost: what the host showed voided before it, to tell whether it took. */
export interface CnpVoidPartTask {
  merchantOrderId: string;
  paymentId: string;
  amount: number;
  voidedBefore: number;
  sentAt: string;
  /** Queries past the window that did not show it applied. */
  notShownAfterWindow?: number;
}

/**
 * One attempt at settling a capture: the sale's query decides by the rulebook's `sale.confirm`
 * table (a capture is the card-not-present sale's confirmation; a sale the host shows captured
 * reads as confirmed). Still authorized: captured again, with the amount asked — safe to repeat,
 * since the host takes one capture only and refuses another (ecom:6078-6080; ws15:1394-1404).
 */
export async function attemptCnpCapture(port: CnpDeliveryPort, task: CnpCaptureTask): Promise<Attempt<CnpCaptureTask>> {
  const q = await port.query(task.paymentId);
  if (q.kind === 'unknown') return { delivery: { action: 'retry', reason: `query: ${q.reason}` } };
  const answer: SaleAnswer = q.kind !== 'found' ? 'not-found' : q.captured === true ? 'confirmed' : q.state;
  const rule = decide(CONFIRM, answer);
  const shown = q.kind === 'found' && q.detail ? `${answer} (${q.detail})` : answer;
  if (rule.decision === 'done') return { delivery: { action: 'done', reason: `the host shows it captured: ${shown}` } };
  // What the host showed goes with the dead letter: the day counts by it (operations/day/lines.ts).
  if (rule.decision === 'dead-letter')
    return {
      delivery: {
        action: 'dead-letter',
        reason: `the host shows it ${shown}: ${rule.why}`,
        ...(q.kind === 'found' ? { shown: q.state } : {}),
      },
    };
  if (answer !== 'pending') return { delivery: { action: 'retry', reason: `the host shows it ${shown}: ${rule.why}` } };
  return { delivery: await port.capture(task.paymentId, task.amount) };
}

function partAnswer(q: SaleQuery, task: CnpVoidPartTask): PartialVoidAnswer {
  if (q.kind === 'not-found' || q.kind === 'not-ours') return 'not-shown';
  if (q.kind !== 'found') return 'unknown';
  if (q.state === 'undone' || q.state === 'cancelled') return 'voided-whole';
  if (q.state !== 'approved') return 'unknown';
  // The e-commerce answer shows VoidedAmount only once something is voided (ecom:6330).
  return (q.voidedCents ?? 0) >= task.voidedBefore + task.amount ? 'applied' : 'not-shown';
}

/**
 * One attempt at settling a partial void: the query only, never the void again; decided by the
 * rulebook's `cnp.void (part)` table and, while it is not shown, the visibility rule counted from
 * the void's own day.
 */
export async function attemptCnpVoidPart(
  port: CnpDeliveryPort,
  task: CnpVoidPartTask,
  now: Date,
  options: UndoRaceOptions,
): Promise<Attempt<CnpVoidPartTask>> {
  const q = await port.query(task.paymentId);
  const answer = partAnswer(q, task);
  const rule = decide(CNP_VOID_PART, answer);
  // What the host shows decides the row's state (applied: captured for the rest; voided whole: voided).
  if (rule.decision === 'done')
    return {
      delivery: { action: 'done', reason: `${answer}: ${rule.why}`, ...(q.kind === 'found' ? { shown: q.state } : {}) },
    };
  if (rule.decision !== 'visibility')
    return { delivery: { action: 'retry', reason: q.kind === 'unknown' ? `query: ${q.reason}` : rule.why } };
  const v = notFoundVerdict(task.sentAt, now, task.notShownAfterWindow, visibilityOf(options), 'the void');
  if (v.final) return { delivery: { action: 'dead-letter', reason: `${v.reason}: the partial void did not take` } };
  return {
    delivery: { action: 'retry', reason: v.reason },
    ...(v.count !== (task.notShownAfterWindow ?? 0) ? { payload: { ...task, notShownAfterWindow: v.count } } : {}),
  };
}
