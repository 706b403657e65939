import type { Clock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type { Db, Journal, Outbox } from '../store/index.js';
import type { PaymentLease } from './payment-lock.js';
import type { ReceiptPort } from './ports.js';

/** A journaled machine's state: `name` in the journal's state column, `data` in its data column. */
export interface MachineState<N extends string, D> {
  name: N;
  data: D;
}

/** What a transition function returns: the next state and the effects to run, or a refusal naming the input and the state. */
export type MachineStep<S, E> = { ok: true; state: S; effects: E[]; input: string } | { ok: false; reason: string };

/** What every owner of a journaled machine needs. */
export interface OwnerDeps {
  db: Db;
  journal: Journal;
  outbox: Outbox;
  clock: Clock;
  log: Logger;
  /** A cashier is there (counter) or not (kiosk). */
  attended: boolean;
  /** How long the cash register has to confirm or undo, ms. */
  ecrDecisionMs: number;
  /** Deadlines end at least this long before the daily close, ms. */
  closeMarginMs: number;
  /** `payments.undoUnclearDeclines`: the rulebook's sale table undoes an unclear decline (pt:7330). */
  undoUnclearDeclines?: boolean;
  /** Called after a commit that put a request in the outbox (wake the forwarder). */
  onOutbox?: () => void;
  /** Where receipts go. */
  receipt: ReceiptPort;
  /** Throws (a typed error) when the terminal may not sell now, e.g. not initialized or locked by the acquirer. */
  canSell?: () => void;
  /**
   * One payment at a time per terminal: the one lock the composition root hands every engine
   * (card, wallet QR, Pix, voids). Absent: the engine keeps its own (a terminal of one engine).
   */
  lock?: PaymentLease;
}

/**
 * What recovery does with one unfinished entry: the kinds' recovery tables (docs/architecture.md,
 * "Recovery") return it.
 */
export type OwnerRecoveryPlan<N extends string, D, E> =
  | { kind: 'nothing' }
  | { kind: 'transition'; to: N; reason: string; effects: E[]; patch?: Partial<D> }
  | { kind: 'ensure'; effects: E[] }
  | { kind: 'wait'; until: string; effects: E[] };
