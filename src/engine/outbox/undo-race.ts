import type { AcquirerDeliveryPort, Delivery } from '../ports.js';
import type { UndoTask } from './tasks.js';

export interface UndoRaceOptions {
  /** How long after the request left the host may still be processing it, ms. */
  processingWindowMs: number;
  /** Not-found answers needed after the window before "nothing was charged" is final. Default 2. */
  agreeingQueries?: number;
}

export interface UndoAttempt {
  delivery: Delivery;
  /** The payload to keep for the next attempt, when it changed. */
  payload?: UndoTask;
}

/**
 * One attempt at undoing a sale, with the undo-race rule of DESIGN.md. Before the daily close
 * of the sale's day: undo by PaymentId when it is known, else by order id, and when that does
 * not settle it, query by order id — a sale found is undone by its PaymentId next, a sale not
 * found is nothing charged only once the host's processing window has passed and a second
 * query agrees. Past the close: query; confirmed by the host, or captured and still paid (the
 * e-commerce QR sale, which has no confirmation) → `needs-refund`; undone, declined or (twice,
 * after the window) not found → done.
 */
export async function attemptUndo(
  port: AcquirerDeliveryPort,
  task: UndoTask,
  now: Date,
  close: Date,
  options: UndoRaceOptions,
): Promise<UndoAttempt> {
  const pastClose = now.getTime() >= close.getTime();
  if (!pastClose) {
    const d = task.paymentId
      ? await port.undo(task.paymentId, task.emv)
      : await port.undoByOrderId(task.merchantOrderId, task.emv);
    if (d.action !== 'retry') return { delivery: d };
  }
  const q = await port.queryByOrderId(task.merchantOrderId);
  if (q.kind === 'unknown') return { delivery: { action: 'retry', reason: `query: ${q.reason}` } };
  if (q.kind === 'not-found') {
    if (now.getTime() - Date.parse(task.sentAt) < options.processingWindowMs) {
      return { delivery: { action: 'retry', reason: 'not found yet; inside the processing window' } };
    }
    const count = (task.notFoundAfterWindow ?? 0) + 1;
    if (count >= (options.agreeingQueries ?? 2)) {
      return { delivery: { action: 'done', reason: `not found ${count} times after the processing window: nothing was charged` } };
    }
    return { delivery: { action: 'retry', reason: 'not found after the window; asking again' }, payload: { ...task, notFoundAfterWindow: count } };
  }
  const learnt = q.paymentId && q.paymentId !== task.paymentId ? { ...task, paymentId: q.paymentId } : undefined;
  const keep = learnt ? { payload: learnt } : {};
  if (q.confirmationStatus === 2) return { delivery: { action: 'done', reason: 'the host shows it undone' }, ...keep };
  if (q.status === 3) return { delivery: { action: 'done', reason: 'the host shows it declined: nothing to undo' }, ...keep };
  if (pastClose && q.confirmationStatus === 1) {
    return { delivery: { action: 'needs-refund', reason: 'the host confirmed it at the daily close' }, ...keep };
  }
  if (pastClose && q.captured === true) {
    return { delivery: { action: 'needs-refund', reason: 'captured when paid, and still paid after the daily close' }, ...keep };
  }
  return { delivery: { action: 'retry', reason: learnt ? 'found; undo by PaymentId next' : 'still pending at the host' }, ...keep };
}
