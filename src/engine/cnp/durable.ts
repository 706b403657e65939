import type { CnpCaptureTask, CnpVoidPartTask } from '../outbox/cnp-changes.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type UndoTask } from '../outbox/tasks.js';
import type { CnpEffect, CnpState } from './types.js';

/** An outbox request of a card-not-present row: its operation, key and payload. */
export interface CnpTask {
  operation: string;
  idempotencyKey: string;
  payload: Record<string, unknown>;
}

/**
 * The outbox request an effect asks for, from the row's data: the sale's undo race (`cnp.undo`,
 * counted from the sale's day, or from a whole void's), a capture's settlement (`cnp.capture`, one
 * per sale: a sale is captured once), a partial void's (`cnp.void-part`, one per void).
 */
export function cnpTask(state: CnpState, e: CnpEffect): CnpTask | undefined {
  const d = state.data;
  const c = d.change;
  if (e.kind === 'outbox.cnp-undo') {
    const task: UndoTask = {
      merchantOrderId: d.merchantOrderId,
      sentAt: c?.sentAt ?? d.sentAt,
      amount: d.request.amount,
      ...(d.paymentId ? { paymentId: d.paymentId } : {}),
    };
    return {
      operation: OUTBOX_OPERATIONS.cnpUndo,
      idempotencyKey: idempotencyKey('cnp-undo', d.merchantOrderId),
      payload: { ...task },
    };
  }
  if (!c || !d.paymentId) return undefined;
  if (e.kind === 'outbox.cnp-capture') {
    const task: CnpCaptureTask = {
      merchantOrderId: d.merchantOrderId,
      paymentId: d.paymentId,
      sentAt: c.sentAt,
      ...(c.amount !== undefined ? { amount: c.amount } : {}),
    };
    return {
      operation: OUTBOX_OPERATIONS.cnpCapture,
      idempotencyKey: idempotencyKey('cnp-capture', d.merchantOrderId),
      payload: { ...task },
    };
  }
  if (e.kind === 'outbox.cnp-void-part' && c.amount !== undefined) {
    const task: CnpVoidPartTask = {
      merchantOrderId: d.merchantOrderId,
      paymentId: d.paymentId,
      amount: c.amount,
      voidedBefore: d.voidedAmount ?? 0,
      sentAt: c.sentAt,
    };
    return {
      operation: OUTBOX_OPERATIONS.cnpVoidPart,
      idempotencyKey: idempotencyKey('cnp-void-part', `${d.merchantOrderId}:${c.sentAt}`),
      payload: { ...task },
    };
  }
  return undefined;
}
