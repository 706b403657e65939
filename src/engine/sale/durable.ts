import type { NewTask } from '../../store/index.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type ConfirmTask, type UndoTask } from '../outbox/tasks.js';
import type { SaleData, SaleEffect, SaleState } from './types.js';

/**
 * What a card sale leaves behind it beside the journal: the outbox tasks its durable effects ask
 * for (written in the transition's own transaction by SaleEngine.writeDurable), and the pinpad's
 * closing message once the chip is finished. Pure: the engine enqueues and shows them.
 */

/** The confirm and undo tasks for `effects` of sale `d` (journal row `journalId`), keyed so that a repeat is the same task. */
export function saleOutboxTasks(journalId: number, d: SaleData, effects: readonly SaleEffect[], at: Date): NewTask[] {
  const tasks: NewTask[] = [];
  for (const e of effects) {
    if (e.kind === 'outbox.confirm' && d.paymentId) {
      const payload: ConfirmTask = {
        merchantOrderId: d.merchantOrderId,
        paymentId: d.paymentId,
        ...(d.emv ? { emv: d.emv } : {}),
      };
      tasks.push({
        journalId,
        operation: OUTBOX_OPERATIONS.confirm,
        idempotencyKey: idempotencyKey('confirm', d.merchantOrderId),
        payload: { ...payload },
        at,
      });
    } else if (e.kind === 'outbox.undo') {
      const payload: UndoTask = {
        merchantOrderId: d.merchantOrderId,
        sentAt: d.sentAt ?? at.toISOString(),
        amount: d.request.amount,
        ...(e.by === 'paymentId' && d.paymentId ? { paymentId: d.paymentId } : {}),
        ...(d.emv ? { emv: d.emv } : {}),
      };
      tasks.push({
        journalId,
        operation: OUTBOX_OPERATIONS.undo,
        idempotencyKey: idempotencyKey('undo', d.merchantOrderId),
        payload: { ...payload },
        at,
      });
    }
  }
  return tasks;
}

/** What the pinpad says once the chip is finished (FCX): the machine leaves the message of a chip sale to its owner. */
export function chipMessage(
  state: SaleState,
  effect: Extract<SaleEffect, { kind: 'pinpad.finish-chip' }>,
  card: 'approved' | 'declined' | 'failed',
  cancelled: boolean,
): string {
  if (state.name === 'finishing-chip')
    return card === 'approved' && !cancelled
      ? 'APROVADA'
      : card === 'declined'
        ? 'NAO AUTORIZADA'
        : 'OPERACAO CANCELADA';
  // The machine names the message when the decision does not (a refusal): never read off a reason's text.
  if (effect.message !== undefined) return effect.message;
  if (effect.decision === 'declined') return 'NAO AUTORIZADA';
  if (effect.decision === 'no-communication') return 'SEM COMUNICACAO';
  return 'OPERACAO CANCELADA';
}
