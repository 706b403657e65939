import type { AcquirerDeliveryPort, Delivery, HostSaleState, SaleQuery } from './ports.js';

/**
 * The card-not-present port: sales whose card is not at the terminal (a phone order typed on the
 * pinpad, a pre-authorization captured later), beside the card-present `AcquirerBackend`. A
 * backend (`src/acquirer/ecommerce/`: the JSON e-commerce API; the XML webservice 1.5 next) speaks
 * its host's numbers and tells the engine only these words: a sale's answer in the rulebook's
 * vocabulary (`CnpSaleAnswer` is the rulebook's `SaleCreateAnswer`, rules/book-create.ts: the
 * backend decides through `RULEBOOK.sale`), a queried sale as `SaleQuery`.
 */

/** The answers of a sale request (the rulebook's `SaleCreateAnswer`; named here so ports never import rules). */
export type CnpSaleAnswer = 'approved' | 'anomaly' | 'declined' | 'refused' | 'not-sent' | 'unknown';

/** The card as typed on the pinpad: held in memory for the one request, never journaled nor logged. */
export interface TypedCard {
  /** The PAN, 13 to 19 digits. */
  number: string;
  /** As printed on the card; the host refuses special characters. */
  holder: string;
  /** `MM/YYYY`. */
  expiry: string;
  /** 3 or 4 digits; absent when the card has none. */
  securityCode?: string;
  /** The scheme's name as the backend's host spells it (the BIN lookup tells it before the sale). */
  brand: string;
}

export interface CnpSaleRequest {
  /** Our order id (a-z, A-Z, 0-9): the key of the query when the answer is lost. */
  merchantOrderId: string;
  amountCents: number;
  installments: number;
  /** `true`: captured at once; `false`: a pre-authorization, captured or voided later. */
  capture: boolean;
  /** Credit only: debit needs the cardholder's authentication in a browser, which a counter cannot give. */
  method: 'credit' | 'debit';
  card: TypedCard;
}

/** A sale's answer in the rulebook's words, with what the host returned to keep (never the card). */
export interface CnpSaleOutcome {
  answer: CnpSaleAnswer;
  paymentId?: string;
  /** The state the answer's body showed (a pre-authorization is `pending`, a captured sale `approved`). */
  state?: HostSaleState;
  /** The host's own terms (status, return code and message), for people and logs only. */
  detail: string;
  /** The masked number the host echoed (first 6, last 4), when it did. */
  maskedNumber?: string;
  authorizationCode?: string;
}

/**
 * A capture's or a void's answer: `done` when its 2xx body shows the state it asked for, `refused`
 * when a 4xx names a published code (nothing changed), `unknown` otherwise (the query decides).
 */
export type CnpChangeOutcome =
  | { kind: 'done'; state: HostSaleState; capturedCents?: number; voidedCents?: number; detail: string }
  | { kind: 'refused'; code?: number | string; detail: string }
  | { kind: 'unknown'; detail: string };

/** What the BIN lookup tells before a sale, in the terminal's terms. */
export interface CardProduct {
  brand: string;
  /** `credit`, `debit` or `multiple` (credit and debit). */
  type: 'credit' | 'debit' | 'multiple';
  prepaid: boolean;
  foreign: boolean;
  corporate: boolean;
  /** Whether the host's analysis accepts the BIN (false: the scheme or product is not supported). */
  supported: boolean;
  issuerCode?: string;
  detail: string;
}

/**
 * The host's rules for a pre-authorization's life, as its manual writes them (each with its line in
 * `sources`): the engine refuses locally what the host would refuse, before anything is sent.
 */
export interface CnpHostRules {
  /** Days after the authorization within which a capture is taken; past them the host refuses it (or cancels the sale). */
  captureDeadlineDays: number;
  /** A capture may be partial (a smaller amount), and only one capture is ever taken. */
  partialCaptureOnce: true;
  /** A partial void is taken only of a captured sale (a pre-authorization is voided whole). */
  partialVoidNeedsCapture: true;
  /** A partial void leaves the sale captured (the remainder charged); a whole void leaves nothing charged. */
  partialVoidLeavesCaptured: true;
  /** Each rule's line in the manual. */
  sources: { captureDeadline: string; partialCapture: string; partialVoid: string; partialVoidLeaves: string };
}

/** The capture and the void of a sale, in the outbox's words (a capture or a partial void whose answer was lost). */
export interface CnpDeliveryPort extends AcquirerDeliveryPort {
  /** Whole (no amount) or partial capture: `done` once the host shows it captured, else `retry`. */
  capture(paymentId: string, amountCents?: number): Promise<Delivery>;
  /** The sale as the host shows it now, with its captured and voided amounts where the answer tells. */
  query(paymentId: string): Promise<SaleQuery>;
}

export interface CardNotPresentBackend {
  /** The configuration's kind (`ecommerce`, `webservice15`). */
  readonly kind: string;
  /** What the host's manual says of captures and voids (the engine checks them before sending). */
  readonly rules: CnpHostRules;
  /** Never repeated automatically; debit is refused by name before anything is sent. */
  sale(request: CnpSaleRequest): Promise<CnpSaleOutcome>;
  /** Whole (no amount) or partial capture of a pre-authorization. */
  capture(paymentId: string, amountCents?: number): Promise<CnpChangeOutcome>;
  /** Whole (no amount) or partial void. */
  void(paymentId: string, amountCents?: number): Promise<CnpChangeOutcome>;
  query(paymentId: string): Promise<SaleQuery>;
  /** The sales the host holds under our order id (the newest last): the lost answer's query. */
  queryByOrderId(merchantOrderId: string): Promise<SaleQuery>;
  cardProduct(bin: string): Promise<CardProduct>;
}

/** What the pinpad's keys give of a card not present: the number, the expiry and the security code. */
export type TypedDigits = Pick<TypedCard, 'number' | 'expiry' | 'securityCode'>;

/**
 * Where a card not present is typed: the pinpad's keyboard (GCD, never the cash register's), its
 * digits held in memory for the one request. Throws `CNP_TYPING_CANCELLED` when nothing was typed
 * (the CANCEL key, the time out, the request aborted).
 */
export interface TypedCardReader {
  read(signal?: AbortSignal): Promise<TypedDigits>;
}
