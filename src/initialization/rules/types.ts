import type { BinRow } from '../model.js';
import type { EmvEntry, Issuer, Product } from '../schema/tables.js';
import type { PaymentType } from '../table-set.js';

/** How the card reached the terminal: the pinpad's GCX card type, or typed (EBX). */
export type Entry = 'magstripe' | 'emv' | 'contactlessMagstripe' | 'contactlessEmv' | 'typed';

/** What the terminal knows of a card after reading it; never the full PAN. */
export interface CardRead {
  entry: Entry;
  /** The first digits of the PAN (the masked PAN gives 8). */
  digits: string;
  /** The selected application's AID (chip and contactless EMV). */
  aid?: string;
  /** A stripe read after the chip failed (fallback). */
  fallback?: boolean;
  /** The track's service code (stripe reads), e.g. "201". */
  serviceCode?: string;
}

/** One product the card may be sold as, with the rows that let it. */
export interface Candidate {
  product: Product;
  paymentType: PaymentType;
  /** The winning `Bins` row for this product (absent when only the chip's AID named it). */
  bin?: BinRow;
  issuer?: Issuer;
  /** The `Emv` entry of the card's AID (chip reads). */
  emv?: EmvEntry;
}

/** Why the tables refuse: a stable reason for the engine and the screens, and a sentence. */
export interface Refusal {
  ok: false;
  reason:
    | 'unknown-bin'
    | 'bin-not-in-range-table'
    | 'aid-not-in-table'
    | 'contactless-not-allowed'
    | 'no-product-of-type'
    | 'typing-not-allowed'
    | 'fallback-not-allowed'
    | 'use-chip'
    | 'installments-not-allowed'
    | 'expired'
    | 'last-four-mismatch'
    | 'requires-pinpad'
    | 'requires-chip-reader'
    | 'void-not-allowed'
    | 'void-too-late'
    | 'void-over-limit';
  message: string;
}

export type Decision<T = Record<never, never>> = ({ ok: true } & T) | Refusal;

export function refuse(reason: Refusal['reason'], message: string): Refusal {
  return { ok: false, reason, message };
}
