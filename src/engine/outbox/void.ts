import { nextDailyClose } from '../daily-close.js';
import type { Delivery } from '../ports.js';
import type { VoidDeliveryPort } from '../void/ports.js';

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
 * One attempt at undoing a void. The host's "no such void" is never final by itself (the void
 * may still be landing): only after the processing window has passed and `agreeing` answers
 * agree is it "nothing was voided", as the sale's undo race does with its queries.
 */
export async function attemptVoidUndo(
  port: VoidDeliveryPort,
  task: VoidUndoTask,
  now: Date,
  options: { processingWindowMs: number; agreeing?: number },
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
      now.getTime() >= nextDailyClose(new Date(task.sentAt)).getTime()
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
  if (now.getTime() - Date.parse(task.sentAt) < options.processingWindowMs) {
    return { delivery: { action: 'retry', reason: 'void not found yet; inside the processing window' } };
  }
  const count = (task.notFoundAfterWindow ?? 0) + 1;
  if (count >= (options.agreeing ?? 2))
    return {
      delivery: {
        action: 'done',
        reason: `void not found ${count} times after the processing window: nothing was voided`,
      },
    };
  return {
    delivery: { action: 'retry', reason: 'void not found after the window; asking again' },
    payload: { ...task, notFoundAfterWindow: count },
  };
}
