import type { SaleStateName } from './types.js';

/** The status the cash register sees (`GET /v1/payments/{id}`). */
export type PaymentStatus =
  'pending' | 'approved' | 'confirmed' | 'declined' | 'cancelled' | 'refused' | 'undone' | 'needs-refund' | 'failed';

export const SALE_STATUS: Record<SaleStateName, PaymentStatus> = {
  started: 'pending',
  'card-read': 'pending',
  authorizing: 'pending',
  'finishing-chip': 'pending',
  // Approved by the host, receipt on its way: not final until confirmed.
  approved: 'pending',
  printing: 'pending',
  'awaiting-decision': 'approved',
  confirming: 'confirmed',
  confirmed: 'confirmed',
  undoing: 'undone',
  undone: 'undone',
  declined: 'declined',
  aborted: 'cancelled',
  refused: 'refused',
  failed: 'failed',
  'needs-refund': 'needs-refund',
  'dead-letter': 'failed',
};

/**
 * `confirming` reads as confirmed and `undoing` as undone: once the decision is journaled, the
 * outbox delivers it whatever happens, and the cash register may act on it.
 */
export function paymentStatus(state: SaleStateName): PaymentStatus {
  return SALE_STATUS[state];
}
