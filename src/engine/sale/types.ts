import type { AlarmCode } from '../../core/index.js';
import type { HostSaleState } from '../host-sale-state.js';
/**
 * The card sale's states, inputs and effects. A state is what the journal holds (`name` in the
 * state column, `data` in the data column): nothing in it is card data — the encrypted track,
 * PAN and PIN block live in memory only, beside the machine, for the one request that needs them.
 */

export type PaymentMethod = 'credit' | 'debit' | 'voucher';
export type ConfirmationMode = 'auto' | 'ecr';
export type InputMode = 'Typed' | 'MagStripe' | 'Emv' | 'ContactlessMagStripe' | 'ContactlessEmv';
export type Interest = 'ByMerchant' | 'ByIssuer';

export interface SaleRequest {
  /** Cents. */
  amount: number;
  method: PaymentMethod;
  /** 1 for cash; more with `interest` saying who finances them. */
  installments: number;
  interest: Interest;
  confirmation: ConfirmationMode;
  /** False: the customer declined the receipt; the receipt step records `skipped` and prints nothing. */
  receipt?: boolean;
}

/** What the journal keeps of the card. Never a PAN, a track or a PIN block. */
export interface CardSummary {
  /** First 6 and last 4 digits, the rest masked. */
  maskedPan: string;
  inputMode: InputMode;
  /** Chip and contactless chip sales talk to the card again after the host answers (FCX). */
  chip: boolean;
  isFallback: boolean;
  authenticationMethod: 'NoPassword' | 'OnlineAuthentication' | 'OfflineAuthentication';
  productId?: number;
  brandId?: number;
  issuerId?: number;
  /**
   * MMYY, as read: held in memory for the one request that sends it, never journaled
   * (src/engine/held-cards.ts). The journal keeps `expiryMac` in its place.
   */
  expiry?: string;
  /** The expiry's keyed hash (src/store/expiry-key.ts): voids match their sale by masked PAN, this and the PAN sequence number. */
  expiryMac?: string;
  panSequenceNumber?: string;
}

/** What the host gives the receipt: `ReceiptInformation` and `PrintMessage` (masked PAN only). */
export interface HostReceipt {
  fields: { field: string; label: string; content: string }[];
  messages: { position: string; message: string }[];
}

export interface SaleData {
  request: SaleRequest;
  merchantOrderId: string;
  /** The cash register's `Idempotency-Key`, when it sent one. */
  idempotencyKey?: string;
  card?: CardSummary;
  paymentId?: string;
  authorizationCode?: string;
  nsu?: string;
  returnCode?: string;
  returnMessage?: string;
  /** When the sale request was about to leave (ISO): the undo race measures its window from here. */
  sentAt?: string;
  /**
   * The chip's EMV tags, hex by tag, that confirm and undo send: the non-sensitive request tags
   * (chip-tags.ts), journaled when the card is read, before the sale leaves; replaced by the tags
   * after FCX (95, 9F10, 9F26, 9F27, 9F37, issuer script results) when the card finishes.
   */
  emv?: Record<string, string>;
  /** When the cash register's decision is due (ISO). */
  deadline?: string;
  /** Asked to cancel while the request was out: undo whatever comes back approved. */
  cancelRequested?: boolean;
  receipt?: 'printed' | 'skipped' | 'failed';
  hostReceipt?: HostReceipt;
  emvResponse?: string;
  /** Why the sale ended as it did, or why it is being undone. */
  reason?: string;
  /**
   * A step given up (`dead-letter`): the sale as the query that gave it up showed it at the host (a
   * confirmation the host shows undone, declined or cancelled holds nothing: the day report reads it
   * so, src/operations/day/lines.ts); absent when nothing was shown. As the card-not-present sale's.
   */
  hostShows?: HostSaleState;
  /** `refused`: the tables' reason code (`no-product-of-type`: the card has no product of the sale's method). */
  refusal?: string;
}

export const SALE_STATES = [
  'started',
  'card-read',
  'authorizing',
  'finishing-chip',
  'approved',
  /** Committed before the receipt's bytes go to the printer: a restart here does not know whether it came out. */
  'printing',
  'awaiting-decision',
  'confirming',
  'undoing',
  'confirmed',
  'undone',
  'declined',
  'aborted',
  /** The tables do not take the card for the sale's method (a credit-only card on a debit sale): nothing sent. */
  'refused',
  'failed',
  'needs-refund',
  'dead-letter',
] as const;
export type SaleStateName = (typeof SALE_STATES)[number];

export const FINAL_STATES: ReadonlySet<SaleStateName> = new Set([
  'confirmed',
  'undone',
  'declined',
  'aborted',
  'refused',
  'failed',
  'needs-refund',
  'dead-letter',
]);

export interface SaleState {
  name: SaleStateName;
  data: SaleData;
}

/** What the host's answer to the sale meant (the acquirer adapter applies the outcome table). */
export type HostSaleOutcome =
  | {
      kind: 'approved';
      paymentId: string;
      authorizationCode?: string;
      nsu?: string;
      returnCode?: string;
      returnMessage?: string;
      /** The issuer's answer for the card (EMV response data, hex), for FCX. */
      emvResponse?: string;
      receipt?: HostReceipt;
    }
  | { kind: 'anomaly'; paymentId: string; reason: string }
  /** `unclear`: why the denial is not clear (pt:7330): the rulebook's `unclear-decline` row decides. */
  | { kind: 'declined'; paymentId?: string; returnCode?: string; returnMessage?: string; unclear?: string }
  | { kind: 'refused'; status: number; returnCode?: string; returnMessage?: string; unclear?: string }
  | { kind: 'not-sent' }
  | { kind: 'unknown'; reason: string; paymentId?: string };

export type SaleInput =
  /** `emv`: the chip read's non-sensitive request tags (chip-tags.ts). */
  | { kind: 'card-read'; card: CardSummary; emv?: Record<string, string> }
  /** The card finished (FCX) after the sale was already being undone: its tags replace the undo's. */
  | { kind: 'chip-data'; emv: Record<string, string> }
  | { kind: 'card-failed'; reason: string }
  /** The tables refused the card read for this sale (`refusal`: their reason's code, e.g. `no-product-of-type`). */
  | { kind: 'card-refused'; reason: string; refusal: string }
  | { kind: 'authorize' }
  | { kind: 'cancel'; by: 'ecr' | 'customer' | 'operator' }
  | { kind: 'host-answer'; outcome: HostSaleOutcome }
  | { kind: 'chip-finished'; card: 'approved' | 'declined' | 'failed'; emv?: Record<string, string>; reason?: string }
  /** The receipt step begins (approved → printing, or `skipped` when the request declined the receipt). */
  | { kind: 'print' }
  | { kind: 'receipt'; result: 'printed' | 'skipped' | 'failed' | 'unsure' }
  | { kind: 'decision'; decision: 'confirm' | 'undo'; by: 'ecr' | 'deadline' | 'operator' }
  /** `shown`: what the query (or 2xx body) that settled it showed of the sale (Delivery.shown). */
  | { kind: 'delivered'; action: 'done' | 'dead-letter' | 'needs-refund'; reason: string; shown?: HostSaleState };

/**
 * What the owner does after committing a transition. `outbox.*` effects are durable: the owner
 * writes them in the same database transaction as the journal row, so a crash cannot separate
 * them. The others run after the commit.
 */
export type SaleEffect =
  | { kind: 'acquirer.sale' }
  /** `message`: what the pinpad shows after FCX when the decision alone does not say it (the host refused: FALHA NA TRANSACAO). */
  | { kind: 'pinpad.finish-chip'; decision: 'approved' | 'declined' | 'no-communication' | 'aborted'; message?: string }
  | { kind: 'pinpad.end'; message: string }
  /** Begin the receipt step (the owner applies `print`). */
  | { kind: 'receipt.start' }
  /** Send the receipt to the printer (the state is `printing`, already committed). */
  | { kind: 'print.receipt' }
  | { kind: 'ask.receipt' }
  | { kind: 'schedule.deadline'; at: string }
  | { kind: 'outbox.confirm' }
  | { kind: 'outbox.undo'; by: 'paymentId' | 'orderId' }
  /** The pending undo's payload takes the sale's current EMV tags (after FCX). */
  | { kind: 'outbox.undo-emv' }
  | { kind: 'alarm'; code: AlarmCode; message: string };

export interface SaleContext {
  now: Date;
  /** Unattended terminals never wait for a cashier's answer about the receipt. */
  attended: boolean;
  /** When the cash register's decision is due for a sale approved now (capped before the close). */
  decisionDeadline(now: Date): Date;
  /** `payments.undoUnclearDeclines`: the rulebook's sale table undoes an unclear decline (pt:7330). */
  undoUnclearDeclines?: boolean;
}

export type SaleStep =
  { ok: true; state: SaleState; effects: SaleEffect[]; input: string } | { ok: false; reason: string };
