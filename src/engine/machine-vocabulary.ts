import type { AlarmCode } from '../core/index.js';
import type { Delivery } from './ports.js';

/**
 * The words every journaled machine shares with its owner (src/engine/machine-owner.ts): the
 * inputs the owner feeds it, the effects the owner runs for it and the events it publishes. Each
 * machine's own unions (SaleInput, QrEffect, VoidEvent…) hold these shapes; a machine proves it
 * by handing its owner a vocabulary of identities (`SPEAKS`), which compiles only when they do.
 */

export type ReceiptResult = 'printed' | 'skipped' | 'failed' | 'unsure';

/** An outbox request of the machine was settled (`retry` never reaches a machine). */
export type DeliveredInput = {
  kind: 'delivered';
  action: Exclude<Delivery['action'], 'retry'>;
  reason: string;
  late?: boolean;
  /** A refund the provider refused (a Pix refund): an alarm of its own. */
  refused?: boolean;
  /** What the settling query showed the sale as (`Delivery.shown`). */
  shown?: Delivery['shown'];
  /** What a watch found applied late at the host (`Delivery.voidId`, `Delivery.payment`). */
  voidId?: string;
  payment?: Delivery['payment'];
};

/** The receipt step: begin printing, the receipt's result, the cash register's deadline passing. */
export type ReceiptStepInput =
  | { kind: 'print' }
  | { kind: 'receipt'; result: ReceiptResult }
  | { kind: 'decision'; decision: 'undo'; by: 'deadline' };

export type AlarmEffect = { kind: 'alarm'; code: AlarmCode; message: string };

/** The effects the owner runs itself for every machine that asks for them. */
export type SharedEffect =
  | { kind: 'receipt.start' }
  | { kind: 'print.receipt' }
  | { kind: 'ask.receipt' }
  | { kind: 'schedule.deadline'; at: string }
  | AlarmEffect;

export const SHARED_EFFECT_KINDS: ReadonlySet<SharedEffect['kind']> = new Set<SharedEffect['kind']>([
  'receipt.start',
  'print.receipt',
  'ask.receipt',
  'schedule.deadline',
  'alarm',
]);

export type AlarmEvent = { type: 'alarm'; id: number; code: string; message: string };
export type ReceiptQuestionEvent = { type: 'receipt-question'; id: number };

/** A machine's effect that has a shared kind. */
export type SharedKindOf<E extends { kind: string }> = Extract<E, { kind: SharedEffect['kind'] }>;

/**
 * How a machine takes the shared words: each member is the identity on types. `receipt` is
 * absent for a machine without a receipt step of the owner's (the void prints its own).
 */
export interface MachineVocabulary<I, E extends { kind: string }, Ev> {
  readonly delivered: (input: DeliveredInput) => I;
  readonly alarm: (event: AlarmEvent) => Ev;
  /** A machine's effect of a shared kind has the shared shape. */
  readonly effect: (effect: SharedKindOf<E>) => SharedEffect;
  readonly receipt?: {
    readonly input: (input: ReceiptStepInput) => I;
    readonly question: (event: ReceiptQuestionEvent) => Ev;
  };
}

const same = <T>(x: T): T => x;

/** The vocabulary of a machine that speaks every shared word (card, wallet QR, Pix). */
export const SPEAKS_ALL = {
  delivered: same,
  alarm: same,
  effect: same,
  receipt: { input: same, question: same },
} as const;

/** The vocabulary of a machine without the owner's receipt step (the void). */
export const SPEAKS_CORE = { delivered: same, alarm: same, effect: same } as const;

export function isSharedKind<E extends { kind: string }>(effect: E): effect is SharedKindOf<E> {
  return (SHARED_EFFECT_KINDS as ReadonlySet<string>).has(effect.kind);
}
