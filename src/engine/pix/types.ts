import type { AlarmCode } from '../../core/index.js';
import type { ConfirmationMode } from '../sale/types.js';

/**
 * A Pix sale on the JSON e-commerce API: created with the payer's name and document, its
 * copy-and-paste code shown, watched until paid (status 2). A payment is final at the host; the
 * cash register may still refuse it, which refunds it. After a cancel, an outbox task cancels
 * the charge and keeps watching until the code's validity has passed: a payment that arrives
 * anyway is refunded (`PUT …/void`, pending until the provider approves) with an alarm.
 */
export interface PixSaleRequest {
  amount: number;
  payer: { name: string; document: string };
  confirmation: ConfirmationMode;
  /** False: the payer declined the receipt (the receipt step records `skipped`). */
  receipt?: boolean;
}

export interface PixSaleData {
  request: PixSaleRequest;
  merchantOrderId: string;
  idempotencyKey?: string;
  paymentId?: string;
  /** The provider's Pix NSU (`ProofOfSale`), when the creation's answer gave it. */
  hostNsu?: string;
  /** The copy-and-paste code (BR Code). */
  qrCode?: string;
  expiresAt?: string;
  deadline?: string;
  receipt?: 'printed' | 'skipped' | 'failed';
  reason?: string;
  /** The code expired unpaid (set with the cancel it caused): what a reader decides by, never the reason's text. */
  expired?: true;
}

export const PIX_STATES = [
  'creating',
  'showing',
  'approved',
  /** Committed before the receipt's bytes go to the printer. */
  'printing',
  'awaiting-decision',
  'cancelling',
  'refunding',
  'confirmed',
  'cancelled',
  'refunded',
  'failed',
  'dead-letter',
] as const;
export type PixStateName = (typeof PIX_STATES)[number];
export const PIX_FINAL: ReadonlySet<PixStateName> = new Set([
  'confirmed',
  'cancelled',
  'refunded',
  'failed',
  'dead-letter',
]);

export interface PixState {
  name: PixStateName;
  data: PixSaleData;
}

export type PixCreation =
  /** `nsu`: the Pix NSU the answer gives (`ProofOfSale`, "NSU Pix", ecom 1918), when it gives one. */
  | { kind: 'created'; paymentId: string; qrCode: string; nsu?: string }
  /** Refused, or never sent: nothing exists to pay. */
  | { kind: 'failed'; reason: string }
  /** The request may have created a Pix, but no code was ever shown: nobody can pay it. */
  | { kind: 'unknown'; reason: string };

export type PixInput =
  /** `watchUntil`: when the watch for a late payment of this code ends (its validity plus the watch margin). */
  | { kind: 'created'; result: PixCreation; expiresAt: string; watchUntil?: string }
  | { kind: 'paid' }
  | { kind: 'expired' }
  | { kind: 'cancel'; by: 'ecr' | 'customer' | 'operator' }
  /** The receipt step begins (approved → printing, or `skipped` when the request declined the receipt). */
  | { kind: 'print' }
  | { kind: 'receipt'; result: 'printed' | 'skipped' | 'failed' | 'unsure' }
  | { kind: 'decision'; decision: 'confirm' | 'undo'; by: 'ecr' | 'deadline' | 'operator' }
  | {
      kind: 'delivered';
      action: 'done' | 'dead-letter' | 'needs-refund';
      reason: string;
      late?: boolean;
      /** A late payment's refund the provider refused. */
      refused?: boolean;
    };

export type PixEffect =
  | { kind: 'pix.create' }
  | { kind: 'watch.payment' }
  | { kind: 'receipt.start' }
  | { kind: 'print.receipt' }
  | { kind: 'ask.receipt' }
  | { kind: 'schedule.deadline'; at: string }
  /** Cancel the charge, then watch until the code ends; refund a late payment. */
  | { kind: 'outbox.pix-cancel' }
  | { kind: 'outbox.pix-refund' }
  | { kind: 'alarm'; code: AlarmCode; message: string };
