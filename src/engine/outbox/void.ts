import type { Delivery } from '../ports.js';
import type { VoidDeliveryPort } from '../void/ports.js';
import { notFoundVerdict, operationClose, type VisibilityOptions } from '../rules/index.js';

/** `void.confirm`: the void was approved (and the card agreed). */
export interface VoidConfirmTask {
  merchantVoidId: string;
  paymentId: string;
  voidId: string;
}

/** `void.undo`: by VoidId when the answer came, by MerchantVoidId when it did not. */
export interface VoidUndoTask {
  merchantVoidId: string;
  paymentId: string;
  voidId?: string;
  /** When the void request was about to leave (ISO): the processing window counts from here. */
  sentAt: string;
  /** Undo answers "no such void" after the processing window had passed. */
  notFoundAfterWindow?: number;
}

export interface VoidAttempt {
  delivery: Delivery;
  payload?: VoidUndoTask;
}

/**
 * One attempt at undoing a void. The host's "no such void" is the rulebook's `not-found` row of
 * `void.undo` (rules/book.ts `VOID_UNDO`): the visibility rule decides, the same as for a sale
 * (rules/visibility.ts): never final before the close of the void's own day, and only after the
 * window counted from that close, when `agreeing` answers agree. Until then the void holds its
 * amount (`undoing` is in VOID_HOLDS_AMOUNT): a void landing late is confirmed at the close, and
 * the money it gave back must not be given again.
 */
export async function attemptVoidUndo(
  port: VoidDeliveryPort,
  task: VoidUndoTask,
  now: Date,
  options: VisibilityOptions,
): Promise<VoidAttempt> {
  const d = task.voidId
    ? await port.undoVoid(task.paymentId, task.voidId)
    : await port.undoVoidByMerchantVoidId(task.paymentId, task.merchantVoidId);
  if (!d.notFound) {
    // A refusal that decides nothing, with no VoidId to query: past the close of the void's day the
    // host has confirmed whatever void there was; the sale's query tells whether it stood.
    if (
      d.action === 'retry' &&
      !task.voidId &&
      port.saleState &&
      now.getTime() >= operationClose(task.sentAt).getTime()
    ) {
      const state = await port.saleState(task.paymentId);
      if (state === 'cancelled')
        return {
          delivery: {
            action: 'needs-refund',
            reason: `the void stands: past the close of its day the sale shows it cancelled (${d.reason})`,
          },
        };
      if (state !== undefined)
        return {
          delivery: {
            action: 'dead-letter',
            reason: `past the close of its day the void's outcome cannot be read (the sale shows it ${state}; ${d.reason}): ask the acquirer`,
          },
        };
    }
    return { delivery: { action: d.action, reason: d.reason } };
  }
  const v = notFoundVerdict(task.sentAt, now, task.notFoundAfterWindow, options, 'the void');
  if (v.final) return { delivery: { action: 'done', reason: `${v.reason}: nothing was voided` } };
  return {
    delivery: { action: 'retry', reason: v.reason },
    ...(v.count !== (task.notFoundAfterWindow ?? 0) ? { payload: { ...task, notFoundAfterWindow: v.count } } : {}),
  };
}
