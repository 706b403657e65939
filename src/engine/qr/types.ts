import type { AlarmCode } from '../../core/index.js';
import type { ConfirmationMode } from '../sale/types.js';
import type { HostAuthorization } from '../host-authorization.js';

/**
 * A wallet QR sale (docs/architecture.md, "Wallet QR sale"): the terminal builds the dynamic
 * `br.com.padraoq` code itself, shows it, and queries the host by MerchantOrderId until the
 * wallet's payment appears, the code expires or the sale is cancelled. A payment is then
 * confirmed or undone like a card sale; after a cancel or an expiry an outbox task keeps
 * querying until the code's validity (plus a margin) has passed and undoes a late payment.
 */

export interface QrSaleRequest {
  /** Cents. */
  amount: number;
  method: 'credit' | 'debit';
  installments: number;
  interest: 'ByMerchant' | 'ByIssuer';
  confirmation: ConfirmationMode;
  /** False: the customer declined the receipt (the receipt step records `skipped`). */
  receipt?: boolean;
}

export interface QrSaleData {
  request: QrSaleRequest;
  merchantOrderId: string;
  idempotencyKey?: string;
  /** The code shown (no card data in it). */
  qrCode?: string;
  nsu?: string;
  /** When the code stops being payable (ISO), from 81.01 and the configured validity. */
  expiresAt?: string;
  paymentId?: string;
  /** What the host's answer showed of the payment's authorization (code, host NSU, brand), where it showed it. */
  authorizationCode?: string;
  hostNsu?: string;
  brandId?: number;
  deadline?: string;
  receipt?: 'printed' | 'skipped' | 'failed';
  reason?: string;
}

export const QR_STATES = [
  'started',
  'showing',
  'approved',
  /** Committed before the receipt's bytes go to the printer. */
  'printing',
  'awaiting-decision',
  'confirming',
  'undoing',
  'cancelling',
  'expiring',
  'confirmed',
  'undone',
  'cancelled',
  'expired',
  'failed',
  'needs-refund',
  'dead-letter',
] as const;
export type QrStateName = (typeof QR_STATES)[number];

export const QR_FINAL: ReadonlySet<QrStateName> = new Set([
  'confirmed',
  'undone',
  'cancelled',
  'expired',
  'failed',
  'needs-refund',
  'dead-letter',
]);

/**
 * A code that ended unpaid (cancelled on the terminal, or expired) whose watch looks for a late
 * payment: a "not found" is never final before the close of the code's day and the window after it
 * (rules/visibility.ts), so the row stays here until then — open by design, not stuck. The day
 * report and health show these rows as awaiting the host's close.
 */
export const QR_AWAITING_HOST_CLOSE: ReadonlySet<QrStateName> = new Set(['cancelling', 'expiring']);

export interface QrState {
  name: QrStateName;
  data: QrSaleData;
}

export type QrInput =
  /** `watchUntil`: when the watch for a late payment of this code ends (its validity plus the watch margin). */
  | { kind: 'shown'; qrCode: string; nsu: string; expiresAt: string; watchUntil?: string }
  | { kind: 'build-failed'; reason: string }
  | { kind: 'paid'; paymentId: string; authorization?: HostAuthorization }
  | { kind: 'expired' }
  | { kind: 'cancel'; by: 'ecr' | 'customer' | 'operator' }
  /** The receipt step begins (approved → printing, or `skipped` when the request declined the receipt). */
  | { kind: 'print' }
  | { kind: 'receipt'; result: 'printed' | 'skipped' | 'failed' | 'unsure' }
  | { kind: 'decision'; decision: 'confirm' | 'undo'; by: 'ecr' | 'deadline' | 'operator' }
  /**
   * The outbox settled the confirmation, the undo, or the late-payment watch (`late`: a payment
   * found and undone; `payment`: that payment, recorded as a payment seen on time is).
   */
  | {
      kind: 'delivered';
      action: 'done' | 'dead-letter' | 'needs-refund';
      reason: string;
      late?: boolean;
      payment?: { paymentId: string; authorization?: HostAuthorization };
    };

export type QrEffect =
  | { kind: 'watch.payment' }
  | { kind: 'receipt.start' }
  | { kind: 'print.receipt' }
  | { kind: 'ask.receipt' }
  | { kind: 'schedule.deadline'; at: string }
  | { kind: 'outbox.confirm' }
  | { kind: 'outbox.undo' }
  /** Keep querying until the code's validity (plus a margin) has passed; undo a late payment. */
  | { kind: 'outbox.watch' }
  | { kind: 'alarm'; code: AlarmCode; message: string };
