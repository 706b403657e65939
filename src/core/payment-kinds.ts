/**
 * The payments a terminal takes, one kind per machine (src/engine): a card sale, a wallet QR
 * sale, a Pix charge, a card-not-present sale (a typed card on the e-commerce host); and the methods the cash register names them by. Every place that does
 * something per kind — the API's engines and views, the events, the day report, the receipts —
 * keeps a `Record<PaymentKind, …>` (or `Record<PaymentMethod, …>`), so a kind added here is a
 * compile error at each place that must learn it.
 */
export const PAYMENT_KINDS = ['sale', 'qr', 'pix', 'cnp'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/** A journal row is a payment of one of these kinds, or a void of one. */
export type JournalKind = PaymentKind | 'void';

export const CARD_METHODS = ['credit', 'debit', 'voucher'] as const;

/** What `POST /v1/payments` takes as `method` and a receipt names as its payment type. */
export const PAYMENT_METHODS = [...CARD_METHODS, 'wallet-qr', 'pix'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface PaymentKindFacts {
  /** How the API and the logs name it in a sentence ("Pix payments are not available"). */
  readonly name: string;
  /** The methods of this kind. */
  readonly methods: readonly PaymentMethod[];
}

export const PAYMENT_KIND: Readonly<Record<PaymentKind, PaymentKindFacts>> = {
  sale: { name: 'card', methods: CARD_METHODS },
  qr: { name: 'wallet QR', methods: ['wallet-qr'] },
  pix: { name: 'Pix', methods: ['pix'] },
  // Started by its own operations, not by `POST /v1/payments`'s methods: the card is typed on the pinpad.
  cnp: { name: 'card-not-present', methods: [] },
};

/** The kind of payment a method makes. */
export const KIND_OF_METHOD: Readonly<Record<PaymentMethod, PaymentKind>> = {
  credit: 'sale',
  debit: 'sale',
  voucher: 'sale',
  'wallet-qr': 'qr',
  pix: 'pix',
};

export function isPaymentKind(kind: string): kind is PaymentKind {
  return (PAYMENT_KINDS as readonly string[]).includes(kind);
}
