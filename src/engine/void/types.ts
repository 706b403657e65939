import type { AlarmCode } from '../../core/index.js';
/**
 * The card void's states, inputs and effects (docs/acquirer.md, "Voids": two-phase and
 * card-present). A state is what the journal holds; the card read again for the void lives in
 * memory only, for the one request that needs it.
 */

import type { CardSummary, PaymentMethod } from '../sale/types.js';

/** The sale a void gives money back for, as the void's journal row remembers it. */
export interface VoidedSale {
  /**
   * `pix`: a Pix sale, refunded on the e-commerce API; `ecommerce-qr`: a QR sale made by the
   * e-commerce API (`qr.provider: ecommerce`), refunded there like a Pix; `wallet-qr`: a wallet QR
   * sale of the terminal's own code, voided by the cancellation code the customer's wallet pays;
   * absent: a card sale, voided with the card.
   */
  kind?: 'pix' | 'ecommerce-qr' | 'wallet-qr';
  /** The sale's journal id. */
  id: number;
  merchantOrderId: string;
  paymentId: string;
  /** The sale's amount, cents. */
  amount: number;
  method: PaymentMethod | 'pix';
  /** What the sale stored of its card (card sales): the void's card must match it. */
  card?: CardSummary;
  /** The sale's authorization code and terminal NSU, for the void's receipt. */
  authorizationCode?: string;
  nsu?: string;
  /** Wallet QR sales: the sale's code as it was shown (the cancellation code is built from it). */
  qrCode?: string;
}

/** Who authorized the void: a supervisor, by the API's supervisor token or the terminal's supervisor password. */
export type SupervisorProof = 'supervisor-token' | 'supervisor-password';

export interface VoidData {
  /** The journal row's key: the void's own `MerchantVoidId` (from the never-repeating generator). */
  merchantOrderId: string;
  merchantVoidId: string;
  sale: VoidedSale;
  /** `VoidAmount`, cents. */
  amount: number;
  authorizedBy: SupervisorProof;
  /** The card read again (masked, never a PAN or track). */
  card?: CardSummary;
  /** `MerchantVoidDate`: when the void request was about to leave (ISO). */
  sentAt?: string;
  voidId?: string;
  returnCode?: string;
  returnMessage?: string;
  /** The card's EMV data after FCX, hex by tag. */
  emv?: Record<string, string>;
  emvResponse?: string;
  reason?: string;
  /** Wallet QR voids: the cancellation code shown, its NSU (82.04) and when it stops being payable (ISO). */
  qrCode?: string;
  nsu?: string;
  expiresAt?: string;
  /** Until when the ended code's payment may still be taken by the wallet: its validity plus the watch margin (ISO). */
  watchedUntil?: string;
}

export const VOID_STATES = [
  'started',
  'card-read',
  'voiding',
  'finishing-chip',
  'confirming',
  'undoing',
  /** A Pix refund asked through the outbox, until the provider approves it. */
  'refunding',
  /** A wallet QR void: the cancellation code is shown until the wallet applies it, or it expires. */
  'showing-code',
  /**
   * The cancellation code ended unpaid on the terminal: the outbox asks the host whether the wallet
   * applied it late until the visibility rule makes "not applied" final (rules/visibility.ts).
   */
  'expiring',
  'confirmed',
  /** The cancellation code expired unpaid, and the host never showed it applied: nothing was given back. */
  'expired',
  'undone',
  'declined',
  'refused',
  'aborted',
  'failed',
  'dead-letter',
] as const;
export type VoidStateName = (typeof VOID_STATES)[number];

export const FINAL_VOID_STATES: ReadonlySet<VoidStateName> = new Set([
  'confirmed',
  'undone',
  'declined',
  'refused',
  'aborted',
  'failed',
  'dead-letter',
  'expired',
]);

/**
 * States whose amount counts as voided (or may be, until settled) when the sale's remaining
 * amount is computed: everything but what ended with nothing given back.
 */
export const VOID_HOLDS_AMOUNT: ReadonlySet<VoidStateName> = new Set([
  'started',
  'card-read',
  'voiding',
  'finishing-chip',
  'confirming',
  'confirmed',
  'undoing',
  'refunding',
  'showing-code',
  'expiring',
  'dead-letter',
]);

/**
 * A wallet QR void whose cancellation code ended unpaid on the terminal, watched (`void.code-watch`)
 * until the visibility rule makes "not applied" final: awaiting the host's close (../awaiting-host-close.ts).
 */
export const VOID_AWAITING_HOST_CLOSE: ReadonlySet<VoidStateName> = new Set(['expiring']);

export interface VoidState {
  name: VoidStateName;
  data: VoidData;
}

/** What the host's answer to the void create meant (the acquirer adapter applies the void table). */
export type HostVoidOutcome =
  | { kind: 'approved'; voidId: string; returnCode?: string; returnMessage?: string; emvResponse?: string }
  | { kind: 'declined'; voidId?: string; returnCode?: string; returnMessage?: string }
  | { kind: 'refused'; status: number; returnCode?: string; returnMessage?: string }
  | { kind: 'not-sent' }
  | { kind: 'unknown'; reason: string };

export type VoidInput =
  | { kind: 'card-read'; card: CardSummary }
  /** The card presented is not the sale's: refused before anything is sent. */
  | { kind: 'card-mismatch'; card: CardSummary; reason: string }
  | { kind: 'card-failed'; reason: string }
  | { kind: 'cancel'; by: 'ecr' | 'customer' | 'operator' }
  /** A Pix sale: ask its refund (no card to read). */
  | { kind: 'refund' }
  /** The request is about to leave; `at` becomes its `MerchantVoidDate` (ISO). */
  | { kind: 'send'; at: string }
  | { kind: 'host-answer'; outcome: HostVoidOutcome }
  | { kind: 'chip-finished'; card: 'approved' | 'declined' | 'failed'; emv?: Record<string, string>; reason?: string }
  | {
      kind: 'delivered';
      action: 'done' | 'dead-letter' | 'needs-refund';
      reason: string;
      refused?: boolean;
      /** A cancellation code's watch found it applied after it ended on the terminal. */
      late?: boolean;
      /** That late application's VoidId, as the host lists it. */
      voidId?: string;
    }
  /** A wallet QR sale: the cancellation code was built and is shown. */
  | { kind: 'code-shown'; qrCode: string; nsu: string; expiresAt: string }
  | { kind: 'code-failed'; reason: string }
  /** The wallet applied the cancellation code: the host lists the void under the sale. */
  | { kind: 'code-applied'; voidId: string }
  /** The code ended on the terminal unpaid; `until`: the end of its watch (its validity plus the margin, ISO). */
  | { kind: 'code-expired'; until?: string };

/** `outbox.*` effects are written in the same transaction as the journal row. */
export type VoidEffect =
  | { kind: 'acquirer.void' }
  | { kind: 'pinpad.finish-chip'; decision: 'approved' | 'declined' | 'no-communication' | 'aborted' }
  | { kind: 'pinpad.end'; message: string }
  | { kind: 'outbox.void-confirm' }
  | { kind: 'outbox.void-undo'; by: 'voidId' | 'merchantVoidId' }
  | { kind: 'outbox.pix-refund' }
  /** The ended cancellation code's watch for a late application (`void.code-watch`). */
  | { kind: 'outbox.code-watch' }
  | { kind: 'alarm'; code: AlarmCode; message: string }
  /** Show the cancellation code and watch the host until the wallet applied it or it expired. */
  | { kind: 'watch.cancellation' }
  /** The void was approved: print its receipt (customer and merchant copies); a failure only alarms. */
  | { kind: 'print.void-receipt' };

/** The status the cash register and the supervisor read (`GET /v1/voids/{id}`). */
export type VoidStatus =
  'pending' | 'approved' | 'declined' | 'refused' | 'cancelled' | 'undone' | 'failed' | 'expired';

const STATUS: Record<VoidStateName, VoidStatus> = {
  started: 'pending',
  'card-read': 'pending',
  voiding: 'pending',
  'finishing-chip': 'pending',
  // Once the confirmation is journaled the outbox delivers it: the money goes back.
  confirming: 'approved',
  confirmed: 'approved',
  undoing: 'undone',
  undone: 'undone',
  refunding: 'pending',
  'showing-code': 'pending',
  expiring: 'pending',
  expired: 'expired',
  declined: 'declined',
  refused: 'refused',
  aborted: 'cancelled',
  failed: 'failed',
  'dead-letter': 'failed',
};

export function voidStatus(state: VoidStateName): VoidStatus {
  return STATUS[state];
}
