import type { AlarmEffect, DeliveredInput } from '../machine-vocabulary.js';
import type { CnpChangeOutcome, CnpRecurrence, CnpSaleOutcome } from '../cnp-ports.js';
import type { HostSaleState } from '../ports.js';

/**
 * A sale without the card present (a phone order typed on the pinpad, a pre-authorization), on a
 * card-not-present backend (src/engine/cnp-ports.ts). Its journal row is opened in `sending`
 * before the request leaves; the typed card is never in it (only what the host echoes: the masked
 * number). An answer the rulebook's `sale` table undoes (lost, unreadable, an anomaly), and a row
 * found in `sending` at start, go to the undo race (`cnp.undo`: the query by MerchantOrderId and
 * the void of what it finds), as a card sale's do.
 */
export interface CnpPaymentRequest {
  /** Cents. */
  amount: number;
  installments: number;
  /** `true`: captured at once; `false`: a pre-authorization, captured or voided later. */
  capture: boolean;
  /** Credit only: the backend refuses debit by name (CNP_DEBIT_NEEDS_AUTHENTICATION). */
  method: 'credit' | 'debit';
  /** Save the card at the host (`SaveCard`); kept by the saved cards only if the sale is approved. */
  saveCard?: boolean;
  /** A recurrence the host schedules, this sale its first charge (e-commerce `RecurrentPayment`). */
  recurrence?: CnpRecurrence;
}

export interface CnpSaleData {
  request: CnpPaymentRequest;
  merchantOrderId: string;
  /** The backend's kind (`ecommerce`, `webservice15`): the host the sale went to. */
  backend: string;
  idempotencyKey?: string;
  /** When the request was about to leave (ISO): the undo race's window counts from here. */
  sentAt: string;
  paymentId?: string;
  /**
   * First 6 and last 4 digits at most: the typed card's (masked where it was read) or the saved card's,
   * journaled with the row; the host's echo when it gives one (the JSON API's). Never the number typed.
   */
  maskedNumber?: string;
  /** The scheme as the backend's host names it (the cash register's, the BIN lookup's, or the saved card's). */
  brand?: string;
  authorizationCode?: string;
  /** The saved card sold by (a reference: the token is never journaled), or the one this sale saved. */
  savedCardId?: number;
  /** The recurrence the host opened with this sale. */
  recurrenceId?: string;
  /** The host's own terms for the answer (status, return code), for people. */
  detail?: string;
  reason?: string;
  /** Cents the host captured (a whole capture: the amount authorized). */
  capturedAmount?: number;
  /** Cents voided of a captured sale so far (partial voids). */
  voidedAmount?: number;
  /** The capture or void in flight (journaled before it leaves), until its answer or the query settles it. */
  change?: CnpChange;
  /**
   * A step given up (`dead-letter`): the sale as the query that gave it up showed it at the host (a capture
   * the host shows undone, declined or cancelled holds nothing); absent when nothing was shown.
   */
  hostShows?: HostSaleState;
}

/** A capture or a void asked of a pre-authorized or captured sale. */
export interface CnpChange {
  op: 'capture' | 'void';
  /** Cents; absent: the whole (what is authorized, or what remains captured). */
  amount?: number;
  /** The state it was asked in, and goes back to when the host refuses it. */
  from: 'authorized' | 'captured' | 'needs-refund';
  /** When it was about to leave (ISO): its undo race's day, and its own outbox task's key. */
  sentAt: string;
}

export const CNP_STATES = [
  /** Journaled before the request leaves. */
  'sending',
  /** A pre-authorization the host holds (Status 1): captured or voided later. */
  'authorized',
  /** Captured at once (Status 2). */
  'captured',
  'declined',
  /** Refused before processing (a 4xx) or never sent: nothing charged. */
  'failed',
  /** The undo race runs (`cnp.undo`). */
  'undoing',
  'undone',
  /** A capture journaled before it leaves; its answer lost, the query settles it (`cnp.capture`). */
  'capturing',
  /** A void journaled before it leaves; its answer lost, the undo race (whole) or the query (a part) settles it. */
  'voiding',
  /** Voided whole at the host (Status 10 or 11; the webservice's 9): nothing charged. */
  'voided',
  'needs-refund',
  'dead-letter',
] as const;
export type CnpStateName = (typeof CNP_STATES)[number];

/** The states a card-not-present sale ends in; `authorized` is not one (the host holds the amount). */
export const CNP_FINAL: ReadonlySet<CnpStateName> = new Set<CnpStateName>([
  'captured',
  'declined',
  'failed',
  'undone',
  'voided',
  'needs-refund',
  'dead-letter',
]);

export interface CnpState {
  name: CnpStateName;
  data: CnpSaleData;
}

/** The answer, without the token of a card it saved (`savedCardId` names where the saved cards keep it). */
export type CnpInput =
  | { kind: 'answered'; outcome: Omit<CnpSaleOutcome, 'cardToken'>; savedCardId?: number }
  /** A capture or void asked (journaled before it leaves). */
  | { kind: 'change'; change: CnpChange }
  /** The capture's or void's own answer. */
  | { kind: 'changed'; outcome: CnpChangeOutcome }
  | DeliveredInput;

export type CnpEffect =
  { kind: 'outbox.cnp-undo' } | { kind: 'outbox.cnp-capture' } | { kind: 'outbox.cnp-void-part' } | AlarmEffect;
