import type { Delivery, EncryptedCard } from '../ports.js';
import type { CardSummary } from '../sale/types.js';
import type { HostVoidOutcome, VoidedSale } from './types.js';

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
   * The voided sale's `Status` as the query shows it (10 when voided), or undefined when it cannot
   * be read: past the close, what tells whether a void whose VoidId never came stood.
   */
  saleStatus?(paymentId: string): Promise<number | undefined>;
}

/**
 * Where the terminal learns that the customer's wallet applied a cancellation code (the sandbox
 * lists it under the sale's query as a void whose `MerchantVoidId` is the code's 62.05).
 */
export interface WalletCancellationPort {
  /** The void the wallet applied for `merchantVoidId` on sale `paymentId`, or undefined while there is none. */
  applied(paymentId: string, merchantVoidId: string): Promise<{ voidId: string } | undefined>;
}
