import type { NewTask } from '../../store/index.js';
import type { PixTask } from '../outbox/pix.js';
import { OUTBOX_OPERATIONS, idempotencyKey } from '../outbox/tasks.js';
import type { CodeWatchTask } from '../outbox/code-watch.js';
import type { VoidConfirmTask, VoidUndoTask } from '../outbox/void.js';
import type { VoidData, VoidEffect, VoidStateName } from './types.js';

/**
 * What a void leaves behind it beside the journal: the outbox tasks its durable effects ask for
 * (written in the transition's own transaction by VoidEngine.writeDurable), and the pinpad's
 * closing message once the card's session is over. Pure: the engine enqueues and shows them.
 */

/** The outbox tasks for `effects` of the void `d` (journal row `journalId`), keyed so that a repeat is the same task. */
export function voidOutboxTasks(journalId: number, d: VoidData, effects: readonly VoidEffect[], at: Date): NewTask[] {
  const tasks: NewTask[] = [];
  for (const e of effects) {
    if (e.kind === 'outbox.void-confirm' && d.voidId) {
      const payload: VoidConfirmTask = {
        merchantVoidId: d.merchantVoidId,
        paymentId: d.sale.paymentId,
        voidId: d.voidId,
      };
      tasks.push({
        journalId,
        operation: OUTBOX_OPERATIONS.voidConfirm,
        idempotencyKey: idempotencyKey('void-confirm', d.merchantVoidId),
        payload: { ...payload },
        at,
      });
    } else if (e.kind === 'outbox.void-undo') {
      const payload: VoidUndoTask = {
        merchantVoidId: d.merchantVoidId,
        paymentId: d.sale.paymentId,
        sentAt: d.sentAt ?? at.toISOString(),
        ...(e.by === 'voidId' && d.voidId ? { voidId: d.voidId } : {}),
      };
      tasks.push({
        journalId,
        operation: OUTBOX_OPERATIONS.voidUndo,
        idempotencyKey: idempotencyKey('void-undo', d.merchantVoidId),
        payload: { ...payload },
        at,
      });
    } else if (e.kind === 'outbox.code-watch') {
      const payload: CodeWatchTask = {
        merchantVoidId: d.merchantVoidId,
        paymentId: d.sale.paymentId,
        until: d.watchedUntil ?? d.expiresAt ?? at.toISOString(),
      };
      tasks.push({
        journalId,
        operation: OUTBOX_OPERATIONS.voidCodeWatch,
        idempotencyKey: idempotencyKey('void-code-watch', d.merchantVoidId),
        payload: { ...payload },
        at,
      });
    } else if (e.kind === 'outbox.pix-refund') {
      // keyed on the refund's own id: the Pix engine's own refund task of the sale is another
      const payload: PixTask = { merchantOrderId: d.sale.merchantOrderId, paymentId: d.sale.paymentId };
      tasks.push({
        journalId,
        operation: OUTBOX_OPERATIONS.pixRefund,
        idempotencyKey: idempotencyKey('pix-refund', d.merchantVoidId),
        payload: { ...payload },
        at,
      });
    }
  }
  return tasks;
}

/** What the pinpad shows once the chip finished the void. */
export function chipEndMessage(state: VoidStateName, decision: string, card: string): string {
  if (state === 'refused') return 'CARTAO DIFERENTE\nDA VENDA';
  if (decision === 'approved' && card === 'approved') return 'CANCELAMENTO\nAPROVADO';
  if (decision === 'declined') return 'CANCELAMENTO\nNEGADO';
  return 'CANCELAMENTO\nNAO REALIZADO';
}
