import type { ReceiptFacts } from '../receipt/index.js';
import type { TablesSource } from '../initialization/index.js';
import type { PixCreation } from './pix/types.js';
import type { QrSaleRequest } from './qr/types.js';
import type { CardSummary, HostSaleOutcome, SaleRequest } from './sale/types.js';
import type { HostVoidOutcome, VoidedSale } from './void/types.js';

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
  /** A refund the provider refused: the machine raises its own alarm (PIX_REFUND_REFUSED). */
  refused?: boolean;
  /**
   * A retry by design, not a failure: a watch for a late payment looks again until the code ends.
   * Such a task is open because it is doing its job, so it never raises OUTBOX_STUCK.
   */
  watching?: boolean;
  /**
   * The query by order id showed another terminal's sale under this one's order id (`not-ours`): the
   * forwarder raises ORDER_ID_SHARED, once per order id, whatever the attempt decided.
   */
  sharedOrderId?: string;
  /**
   * What the query that settled it showed the sale as, where the machine's next state depends on it
   * (a partial void's query showing the sale voided whole: `cnp.void (part)` `voided-whole`).
   */
  shown?: HostSaleState;
  /** A wallet QR void's cancellation code applied after it ended on the terminal: the VoidId the host lists for it. */
  voidId?: string;
  /** A wallet QR sale paid after it ended, and undone: the payment as the query showed it. */
  payment?: LatePayment;
}

/** A payment the watch found after its code ended: its PaymentId and, where the host gave it, its authorization. */
export interface LatePayment {
  paymentId: string;
  authorization?: HostAuthorization;
}

import type { HostSaleState } from './host-sale-state.js';
export type { HostSaleState };

/** The states in which the host charged nothing: the sale needs no undo. */
export const NOTHING_CHARGED: ReadonlySet<HostSaleState> = new Set<HostSaleState>(['undone', 'declined', 'cancelled']);

import type { HostAuthorization } from './host-authorization.js';
export type { HostAuthorization };

export type SaleQuery =
  /**
   * `captured`: final at the host with no confirmation of its own (the e-commerce QR sale, captured
   * when paid): past the daily close the undo rule treats it as confirmed. `detail`: what the host
   * showed, in its own terms, for reasons and logs only (never decides).
   */
  | {
      kind: 'found';
      paymentId?: string;
      state: HostSaleState;
      captured?: boolean;
      detail?: string;
      authorization?: HostAuthorization;
      /** What the host shows captured and voided of it, cents, where its answer tells (a card-not-present sale). */
      capturedCents?: number;
      voidedCents?: number;
    }
  /** Not found now; never final by itself (the sale may still be landing). */
  | { kind: 'not-found' }
  /**
   * The host shows under this order id only sales the backend found not ours (another terminal's
   * or merchant's: `orderIdTerminal` is unique nowhere the terminal can check): ours is not shown.
   * Read as `not-found` by the visibility rule, but nothing is ever undone by the order id.
   */
  | { kind: 'not-ours'; reason: string }
  | { kind: 'unknown'; reason: string };

/**
 * A Pix charge as the provider shows it, in the engine's words (the backend maps its numbers):
 * - `pending`: waiting at the provider: not paid yet or, once a refund was asked, the refund
 *   pending (the task knows which: `refundAsked`);
 * - `paid`: paid (and no refund asked, or the refund not begun);
 * - `cancelled`: cancelled before any payment;
 * - `refunded`: the payment was given back;
 * - `unknown`: a state the backend cannot read: asked again.
 */
export type PixChargeStatus = 'pending' | 'paid' | 'cancelled' | 'refunded' | 'unknown';

/** A Pix charge's status query: `detail` is what the provider showed, for reasons and logs only. */
export type PixStatusQuery =
  { kind: 'found'; status: PixChargeStatus; detail?: string } | { kind: 'unknown'; reason: string };

/** The requests the outbox delivers. Each is safe to repeat. */
export interface AcquirerDeliveryPort {
  confirm(paymentId: string, emv?: Record<string, string>): Promise<Delivery>;
  undo(paymentId: string, emv?: Record<string, string>): Promise<Delivery>;
  /** Undo when the sale's answer never came (`DELETE …/orderId/{MerchantOrderId}`). */
  undoByOrderId(merchantOrderId: string, emv?: Record<string, string>): Promise<Delivery>;
  /** `expected`: what the terminal sent, so a sale found can be checked to be ours (adapters that can). */
  queryByOrderId(merchantOrderId: string, expected?: { amount: number }): Promise<SaleQuery>;
  /**
   * A sale the host holds payable for a code the terminal no longer shows (an e-commerce QR sale at
   * 12): void it. `done` once the host shows it voided, paid (the watch undoes it) or there is none;
   * absent where the host holds nothing for a code (the terminal's own wallet QR codes).
   */
  cancelPending?(merchantOrderId: string): Promise<Delivery>;
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

/* ------------------------------------------------------------------ voids */

/** One void request, with the card read again held in memory for it only. */
export interface VoidOrder {
  sale: VoidedSale;
  merchantVoidId: string;
  /** `VoidAmount`, cents. */
  amount: number;
  /** `MerchantVoidDate`. */
  date: Date;
  summary: CardSummary;
  card: EncryptedCard;
}

/** Sends the void create (never repeated automatically) and says what the answer meant. */
export interface VoidHostPort {
  void(order: VoidOrder): Promise<HostVoidOutcome>;
}

/** An undo answer; `notFound` when the host knows no such void now (never final by itself). */
export type VoidUndoDelivery = Delivery & { notFound?: boolean };

/** The void requests the outbox delivers. Each is safe to repeat. */
export interface VoidDeliveryPort {
  confirmVoid(paymentId: string, voidId: string): Promise<Delivery>;
  undoVoid(paymentId: string, voidId: string): Promise<VoidUndoDelivery>;
  /** When the void's answer never came: `DELETE …/voids/merchantVoidId/{MerchantVoidId}`. */
  undoVoidByMerchantVoidId(paymentId: string, merchantVoidId: string): Promise<VoidUndoDelivery>;
  /**
   * The voided sale's state as the query shows it (`cancelled` when voided), or undefined when it
   * cannot be read: past the close, what tells whether a void whose VoidId never came stood.
   */
  saleState?(paymentId: string): Promise<HostSaleState | undefined>;
}

/**
 * Where the terminal learns that the customer's wallet applied a cancellation code (the sandbox
 * lists it under the sale's query as a void whose `MerchantVoidId` is the code's 62.05).
 */
export interface WalletCancellationPort {
  /** The void the wallet applied for `merchantVoidId` on sale `paymentId`, or undefined while there is none. */
  applied(paymentId: string, merchantVoidId: string): Promise<{ voidId: string } | undefined>;
}

/* ---------------------------------------------------------- wallet QR codes */

/** One sale's code to make. */
export interface QrCodeOrder {
  merchantOrderId: string;
  request: QrSaleRequest;
  /** The terminal's NSU for it (82.04 when the terminal builds the code). */
  nsu: string;
  issuedAt: Date;
}

/** A code ready to show; `paymentId` when the host made it (its sale exists before it is paid). */
export interface QrIssued {
  qrCode: string;
  paymentId?: string;
}

/**
 * Where a wallet QR sale's code comes from, the port the QR engine's adapters implement
 * (docs/architecture.md, "Wallet QR sale"): `terminal` builds the `br.com.padraoq` code itself and the
 * wallet's payment shows up as a terminal sale found by MerchantOrderId; `ecommerce` asks the
 * e-commerce API for a QR code sale (`Payment.Type` `qrcode`, status 12 until paid, 2 once paid).
 * Either way the engine then watches, confirms and undoes through its AcquirerDeliveryPort.
 */
export interface QrCodePort {
  readonly provider: 'terminal' | 'ecommerce';
  /** Makes the code; rejects when there is none to show (the sale then ends `failed`). */
  issue(order: QrCodeOrder): Promise<QrIssued>;
}

/* -------------------------------------------------------------------- Pix */

/** What the outbox needs of the Pix provider. */
export interface PixHostPort {
  /** The charge's status in the engine's words (`pending` is unpaid, or the refund pending once asked), or unknown. */
  status(paymentId: string): Promise<PixStatusQuery>;
  /** Cancels a pending charge (then `cancelled`) or asks a paid one's refund (`pending`, then `refunded`). */
  void(paymentId: string): Promise<PixVoidAnswer>;
}

/**
 * The answer to a Pix void (a cancel or a refund), in the rulebook's words (rules/vocabulary.ts
 * `RefundAnswer`): `accepted`, `refused` (its reason), `not-sent` (nothing was asked) or `unknown`.
 */
export type PixVoidAnswer =
  | { kind: 'accepted' }
  | { kind: 'refused'; reason: string }
  | { kind: 'not-sent'; reason: string }
  | { kind: 'unknown'; reason: string };

/** Creating a Pix charge (never repeated automatically). */
export interface PixCreatePort extends PixHostPort {
  create(order: {
    merchantOrderId: string;
    amount: number;
    payer: { name: string; document: string };
  }): Promise<PixCreation>;
}

/* ------------------------------------------------------------ the acquirer */

/**
 * One acquirer, whole: every port the engines and the daemon need of it, in the engine's words.
 * A backend lives in `src/acquirer/<kind>/` (the omni one: `src/acquirer/omni/backend.ts`), keeps
 * its host's numbers and spellings to itself, and is chosen by `acquirer.kind` in the
 * configuration (`src/factory/acquirer-backend.ts`). docs/architecture.md, "Adding an acquirer".
 */
export interface AcquirerBackend {
  /** The configuration's `acquirer.kind` that chose it. */
  readonly kind: string;
  /** Card sales: the authorization request (never repeated automatically). */
  readonly sales: SaleAuthorizationPort;
  /**
   * What the outbox delivers (confirm, undo, undo by order id, query by order id) for card sales
   * and wallet QR sales, and what the wallet QR engine watches.
   */
  readonly delivery: AcquirerDeliveryPort;
  /** Card voids: the create, and the outbox's void confirmation and undos. */
  readonly voids: VoidHostPort & VoidDeliveryPort;
  /** Whether the customer's wallet applied a cancellation code (wallet QR voids). */
  readonly walletCancellations: WalletCancellationPort;
  /** The wallet QR codes the acquirer registers; undefined: the terminal builds its own (`terminalQrCodes`). */
  readonly qrCodes: QrCodePort | undefined;
  /** Pix charges; undefined when this acquirer (or this terminal's configuration) has none. */
  readonly pix: PixCreatePort | undefined;
  /** Where the initialization tables come from (`omnipos init`, the tables in force). */
  readonly initialization: TablesSource;
  /**
   * One cheap request that is never a sale, to tell whether the acquirer is there (GET /v1/health);
   * resolves when the host answered (even a refusal), rejects when it did not.
   */
  probe(timeoutMs: number): Promise<void>;
}

// The acquirer's ports beside the payments (the technician's commands, the metrics' names): ./setup-ports.ts.
export * from './setup-ports.js';
