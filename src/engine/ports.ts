import type { ReceiptFacts } from '../receipt/index.js';
import type { CardSummary, HostSaleOutcome, SaleRequest } from './sale/types.js';

/**
 * The engine's ports: what it needs from the acquirer, the pinpad and the printer, in its own
 * terms. Adapters (src/adapters) implement them on the acquirer clients and the drivers, so
 * another acquirer or pinpad is a new adapter, not an engine change.
 */

/** What a confirm or undo answer means for the outbox (the acquirer's outcome table decides). */
export interface Delivery {
  action: 'done' | 'retry' | 'dead-letter' | 'needs-refund';
  reason: string;
  /** A watched QR sale was paid after it ended, and this undid the payment. */
  late?: boolean;
}

export type SaleQuery =
  /**
   * `captured`: final at the host with no confirmation of its own (the e-commerce QR sale, captured
   * when paid): past the daily close the undo rule treats it as confirmed.
   */
  | { kind: 'found'; paymentId?: string; status?: number; confirmationStatus?: number; captured?: boolean }
  /** Not found now; never final by itself (the sale may still be landing). */
  | { kind: 'not-found' }
  | { kind: 'unknown'; reason: string };

/** The requests the outbox delivers. Each is safe to repeat. */
export interface AcquirerDeliveryPort {
  confirm(paymentId: string, emv?: Record<string, string>): Promise<Delivery>;
  undo(paymentId: string, emv?: Record<string, string>): Promise<Delivery>;
  /** Undo when the sale's answer never came (`DELETE …/orderId/{MerchantOrderId}`). */
  undoByOrderId(merchantOrderId: string, emv?: Record<string, string>): Promise<Delivery>;
  /** `expected`: what the terminal sent, so a sale found can be checked to be ours (adapters that can). */
  queryByOrderId(merchantOrderId: string, expected?: { amount: number }): Promise<SaleQuery>;
}

export type { HostSaleOutcome };

/**
 * Card data as the pinpad hands it over: ciphertext under its DUKPT keys, never in clear. Held
 * in memory for the one request that needs it, never journaled.
 */
export interface EncryptedCard {
  /** `track2`: the whole track 2 from GTK; `pan`: a typed PAN from EBX. Hex ciphertext (TDES-CBC). */
  kind: 'track2' | 'pan';
  data: string;
  ksn: string;
  iv: string;
  isTlv: boolean;
  /** Stripe reads of a card with a track 1: the whole track 1 from GTK, encrypted like track 2 (same IV), with its KSN. */
  track1?: { data: string; ksn: string };
  /** The PIN block under the DUKPT PIN key, when a PIN was taken online. */
  pinBlock?: { block: string; ksn: string };
  /** The card's EMV request data (hex TLV) after GOX, for chip sales. */
  emvData?: string;
}

export interface CardRequest {
  merchantOrderId: string;
  /** Cents. */
  amount: number;
  method: 'credit' | 'debit' | 'voucher';
  /** 1 for cash (default); the tables' installment limits apply to the product chosen. */
  installments?: number;
  interest?: 'ByMerchant' | 'ByIssuer';
  /** `typed`: the card number is typed on the pinpad and encrypted there (EBX), where the tables allow. Default `card`. */
  entry?: 'card' | 'typed';
}

/**
 * What the pinpad asks of the customer or tells them, as a stable code: present the card
 * (`insert-card`, with the contactless rules' `see-phone` and `one-card`), type the PIN, choose
 * the product, type the card number (`typed-entry`), wait while the host decides (`processing`),
 * take the card (`remove-card`), or a closing `message` (APROVADA, NAO AUTORIZADA…).
 */
export type CardPromptCode =
  | 'insert-card'
  | 'see-phone'
  | 'one-card'
  | 'enter-pin'
  | 'choose-product'
  | 'typed-entry'
  | 'processing'
  | 'remove-card'
  | 'message';

/** One prompt: its code and the Portuguese text the pinpad shows (never card data). */
export interface CardPrompt {
  prompt: CardPromptCode;
  text: string;
}

/** Told each prompt as the pinpad shows it; the engine turns them into events of its sale. */
export type PromptListener = (prompt: CardPrompt) => void;

/**
 * The pinpad's side of a sale: read the card, finish the chip, clear the display. `readCard` and
 * `end` may be given a `PromptListener`, told what the customer sees while that call runs.
 */
export interface CardPort {
  /**
   * Before a sale opens: throws a typed error (INIT_CARD_REFUSED) when the tables refuse the
   * request whatever card comes, e.g. typed entry for a method no product allows typing. Optional.
   */
  accepts?(request: CardRequest): void;
  /**
   * GCX → (MNU) → (GPN) → GTK → (GOX), or the typed number (EBX). Rejects when the card cannot be
   * read or the read is cancelled (ENGINE_CANCELLED with `context.by` "customer" for the cancel key).
   */
  readCard(
    request: CardRequest,
    signal: AbortSignal,
    onPrompt?: PromptListener,
  ): Promise<{ summary: CardSummary; card: EncryptedCard }>;
  /** FCX with the host's decision; the card's own decision comes back (the owner then calls `end`, RMC). */
  finishChip(
    decision: 'approved' | 'declined' | 'no-communication' | 'aborted',
    host: { authorizationCode?: string; emvResponse?: string },
  ): Promise<{ card: 'approved' | 'declined' | 'failed'; emv?: Record<string, string>; reason?: string }>;
  /** Shows a closing message (and waits for the card to be removed when one is in). */
  end(message: string, onPrompt?: PromptListener): Promise<void>;
}

export interface SaleOrder {
  merchantOrderId: string;
  request: SaleRequest;
  summary: CardSummary;
  card: EncryptedCard;
  paymentDateTime: Date;
}

/** Sends the sale (never repeated automatically) and says what the answer meant. */
export interface SaleAuthorizationPort {
  authorize(order: SaleOrder): Promise<HostSaleOutcome>;
}

/** What a receipt is printed from: a card sale's, a wallet QR sale's or a Pix sale's data (src/receipt's facts). */
export type ReceiptSubject = ReceiptFacts;

/** Whether a receipt could be printed now, and if not why (paper out, cover open, offline…). */
export type ReceiptReadiness = { ready: true } | { ready: false; reason: string };

/** Prints (or shows) the receipt; `printed` only when the printer says so after the cut. */
export interface ReceiptPort {
  print(
    sale: ReceiptSubject,
    options?: { reprint?: boolean; copy?: 'customer' | 'merchant' },
  ): Promise<'printed' | 'skipped' | 'failed' | 'unsure'>;
  /** Asks the printer's status (a kiosk does before a sale starts). Absent: nothing to check. */
  ready?(): Promise<ReceiptReadiness>;
}
