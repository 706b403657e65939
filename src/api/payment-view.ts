import type { JournalEntry } from '../store/index.js';
import { paymentStatus } from '../engine/sale/status.js';
import type { SaleData, SaleStateName } from '../engine/sale/types.js';

/** What the cash register reads of a payment: its status, the host's ids and codes, and the receipt. */
export function paymentView(entry: JournalEntry): Record<string, unknown> {
  const d = entry.data as unknown as SaleData;
  const state = entry.state as SaleStateName;
  return {
    id: entry.id,
    merchantOrderId: entry.merchantOrderId,
    status: paymentStatus(state),
    state,
    amount: entry.amount,
    method: d.request.method,
    installments: d.request.installments,
    interest: d.request.interest,
    confirmation: d.request.confirmation,
    ...(d.paymentId ? { paymentId: d.paymentId } : {}),
    ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
    ...(d.nsu ? { nsu: d.nsu } : {}),
    ...(d.returnCode ? { returnCode: d.returnCode } : {}),
    ...(d.returnMessage ? { returnMessage: d.returnMessage } : {}),
    ...(d.card
      ? { card: { maskedPan: d.card.maskedPan, inputMode: d.card.inputMode, brandId: d.card.brandId, productId: d.card.productId } }
      : {}),
    ...(d.deadline ? { decisionDeadline: d.deadline } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.hostReceipt ? { receipt: d.hostReceipt } : {}),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
}
