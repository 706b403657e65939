import type { PaymentKind } from '../core/index.js';
import type { CnpStateName } from './cnp/types.js';
import type { PixStateName } from './pix/types.js';
import type { QrStateName } from './qr/types.js';
import { SALE_STATUS, type PaymentStatus } from './sale/status.js';

/**
 * The status the cash register reads for a payment of each kind, from its machine's state: one table a machine,
 * read by the API's payment view and the day report's lines alike (src/operations/day/lines.ts refines it, never
 * restates it). A card sale's is src/engine/sale/status.ts.
 */
const QR_STATUS: Record<QrStateName, PaymentStatus> = {
  started: 'pending',
  showing: 'pending',
  approved: 'pending',
  printing: 'pending',
  'awaiting-decision': 'approved',
  confirming: 'confirmed',
  confirmed: 'confirmed',
  undoing: 'undone',
  undone: 'undone',
  cancelling: 'cancelled',
  cancelled: 'cancelled',
  expiring: 'cancelled',
  expired: 'cancelled',
  failed: 'failed',
  'needs-refund': 'needs-refund',
  'dead-letter': 'failed',
};

const PIX_STATUS: Record<PixStateName, PaymentStatus> = {
  creating: 'pending',
  showing: 'pending',
  approved: 'pending',
  printing: 'pending',
  'awaiting-decision': 'approved',
  confirmed: 'confirmed',
  cancelling: 'cancelled',
  cancelled: 'cancelled',
  refunding: 'undone',
  refunded: 'undone',
  failed: 'failed',
  'dead-letter': 'failed',
};

/** `undoing` reads as undone, as a card sale's: the outbox's undo race delivers it whatever happens. */
const CNP_STATUS: Record<CnpStateName, PaymentStatus> = {
  sending: 'pending',
  authorized: 'approved',
  captured: 'confirmed',
  declined: 'declined',
  failed: 'failed',
  undoing: 'undone',
  undone: 'undone',
  capturing: 'approved',
  voiding: 'cancelled',
  voided: 'cancelled',
  'needs-refund': 'needs-refund',
  'dead-letter': 'failed',
};

const STATUS_OF: Record<PaymentKind, Readonly<Record<string, PaymentStatus>>> = {
  sale: SALE_STATUS,
  qr: QR_STATUS,
  pix: PIX_STATUS,
  cnp: CNP_STATUS,
};

/** The status of a payment of `kind` in the journal's `state`; undefined for a state its machine does not have. */
export function statusOf(kind: PaymentKind, state: string): PaymentStatus | undefined {
  const table = STATUS_OF[kind];
  return Object.hasOwn(table, state) ? table[state] : undefined;
}
