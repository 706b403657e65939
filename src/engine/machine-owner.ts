import { OmniposError, sleep } from '../core/index.js';
import type { JournalEntry, JournalKind, OutboxTask } from '../store/index.js';
import { beforeSale } from './before-sale.js';
import { decisionDeadline } from './daily-close.js';
import { DeadlineTimers } from './deadline-timers.js';
import type { MachineState, MachineStep, OwnerDeps, OwnerRecoveryPlan } from './owner-deps.js';
import type { Delivery, ReceiptSubject } from './ports.js';
import type { SaleContext } from './sale/types.js';
import { PaymentLock, type PaymentLease } from './payment-lock.js';
import { isSharedKind, type MachineVocabulary, type ReceiptStepInput } from './machine-vocabulary.js';
import { printReceipt } from './receipt-step.js';

export type { MachineState, MachineStep, OwnerDeps, OwnerRecoveryPlan } from './owner-deps.js';

/**
 * The owner of a pure machine kept in the journal: it commits each transition, with the outbox
 * requests the transition asks for, in one transaction, before running the other effects, and
 * feeds the effects' results back as inputs. The card sale, wallet QR sale, Pix sale and void
 * engines are its four kinds.
 */
export abstract class MachineOwner<
  N extends string,
  D extends { merchantOrderId: string },
  I,
  E extends { kind: string },
  Ev,
> {
  protected readonly deps: OwnerDeps;
  readonly #timers: DeadlineTimers;
  readonly #kind: JournalKind;
  readonly #durable: ReadonlySet<string>;
  readonly #onEvent: ((event: Ev) => void) | undefined;
  readonly #words: MachineVocabulary<I, E, Ev>;
  readonly #lock: PaymentLease;

  /** `words`: the machine's proof that it speaks the shared vocabulary (src/engine/machine-vocabulary.ts). */
  protected constructor(
    deps: OwnerDeps,
    kind: JournalKind,
    durable: ReadonlySet<E['kind']>,
    words: MachineVocabulary<I, E, Ev>,
    onEvent?: (event: Ev) => void,
  ) {
    this.deps = deps;
    this.#kind = kind;
    this.#durable = durable;
    this.#words = words;
    this.#onEvent = onEvent;
    this.#lock = deps.lock ?? new PaymentLock();
    this.#timers = new DeadlineTimers(deps.clock);
  }

  /** True while a payment of this kind holds the terminal's payment lock. */
  get busy(): boolean {
    return this.#lock.holder?.kind === this.#kind;
  }

  protected abstract transition(
    state: MachineState<N, D>,
    input: I,
    ctx: SaleContext,
  ): MachineStep<MachineState<N, D>, E>;
  /** Writes the outbox requests among `effects` (inside the commit's transaction). */
  protected abstract writeDurable(journalId: number, state: MachineState<N, D>, effects: readonly E[]): void;
  /** Runs one effect after the commit. */
  protected abstract run(id: number, state: MachineState<N, D>, effect: E): Promise<void>;
  protected abstract stateEvent(id: number, state: MachineState<N, D>, input: string): Ev;
  /** What the receipt of this payment says. */
  protected abstract receiptSubject(state: MachineState<N, D>): ReceiptSubject;

  // The inputs and events every kind spells the same way (src/engine/machine-vocabulary.ts).
  protected alarmEvent(id: number, code: string, message: string): Ev {
    return this.#words.alarm({ type: 'alarm', id, code, message });
  }

  /** The input an outbox settlement becomes. */
  protected deliveredInput(delivery: Delivery): I {
    const action = delivery.action === 'retry' ? 'done' : delivery.action;
    return this.#words.delivered({
      kind: 'delivered',
      action,
      reason: delivery.reason,
      ...(delivery.late ? { late: true } : {}),
      ...(delivery.refused ? { refused: true } : {}),
      ...(delivery.shown ? { shown: delivery.shown } : {}),
      ...(delivery.voidId ? { voidId: delivery.voidId } : {}),
      ...(delivery.payment ? { payment: delivery.payment } : {}),
    });
  }

  /** A receipt-step input, for a machine that has the owner's receipt step (undefined otherwise). */
  #receiptStep(input: ReceiptStepInput): I | undefined {
    return this.#words.receipt?.input(input);
  }

  /** Applies a receipt-step input; a machine without the step ignores it (logged). */
  async #applyReceiptStep(id: number, input: ReceiptStepInput): Promise<void> {
    const mapped = this.#receiptStep(input);
    if (mapped === undefined) {
      this.deps.log.warn({ id, input: input.kind }, `a ${this.#kind} has no receipt step: input ignored`);
      return;
    }
    await this.apply(id, mapped);
  }

  /**
   * Runs a payment's `start` holding the terminal's payment lock: ENGINE_BUSY while another
   * payment (of any kind) holds it; released when `start` throws or its `done` settles.
   */
  protected holdPayment<T extends { done: Promise<void> }>(
    start: (attach: (id: number) => void) => Promise<T>,
  ): Promise<T> {
    return this.#lock.hold(this.#kind, start);
  }

  /**
   * The cash register's decision on a paid payment (card, wallet QR, Pix): taken while the payment waits for it,
   * an undo also while its receipt is on its way; otherwise ENGINE_NOT_ALLOWED, naming the payment as `what`.
   */
  protected assertDecidable(id: number, decision: 'confirm' | 'undo', what: string): void {
    const state = this.entry(id).state;
    if (state === 'awaiting-decision' || (decision === 'undo' && (state === 'approved' || state === 'printing')))
      return;
    throw new OmniposError(
      'ENGINE_NOT_ALLOWED',
      `${what} ${id} is ${state}: it cannot be ${decision === 'confirm' ? 'confirmed' : 'undone'} now`,
      { id, state },
    );
  }

  /** Before a sale starts: the terminal may sell, and a kiosk's printer can print (before-sale.ts). */
  protected beforeSale(request: { receipt?: boolean }): Promise<void> {
    return beforeSale(this.deps, request);
  }

  /**
   * Recovery of a payment found in `printing` (the daemon died mid-print): the machine's answer to
   * an unsure receipt — the cashier is asked (attended, undone at the deadline) or the payment is
   * undone (unattended: nobody can confirm the customer got the receipt). Returns the new state.
   */
  protected recoverPrinting(entry: JournalEntry): string {
    const state = this.stateOf(entry);
    const unsure = this.#receiptStep({ kind: 'receipt', result: 'unsure' });
    if (unsure === undefined) return entry.state;
    const step = this.transition(state, unsure, this.ctx());
    if (!step.ok) return entry.state;
    this.commit(entry, step.state, 'recovery: stopped while the receipt was printing', step.effects);
    this.runAfterRecovery(entry.id, step.state, step.effects);
    return step.state.name;
  }

  /**
   * At start: walks this kind's entries in `states`, oldest first, and records what `plan` decides
   * for each — a transition committed with its outbox requests, the outbox request ensured
   * (idempotent), or the deadline armed — then wakes the outbox. Returns what was done.
   */
  protected recoverEntries(
    states: readonly N[],
    plan: (state: MachineState<N, D>) => OwnerRecoveryPlan<N, D, E>,
  ): { id: number; from: string; plan: string }[] {
    const report: { id: number; from: string; plan: string }[] = [];
    for (const entry of this.deps.journal.inStates(states)) {
      if (entry.kind !== this.#kind) continue;
      const state = this.stateOf(entry);
      const p = plan(state);
      if (p.kind === 'transition') {
        const next = { name: p.to, data: { ...state.data, ...p.patch, reason: p.reason } };
        this.commit(entry, next, `recovery: ${p.reason}`, p.effects);
        this.runAfterRecovery(entry.id, next, p.effects);
      } else if (p.kind === 'ensure') {
        this.deps.db.transaction(() => this.writeDurable(entry.id, state, p.effects)).immediate();
      } else if (p.kind === 'wait') {
        this.schedule(entry.id, p.until);
      }
      report.push({ id: entry.id, from: entry.state, plan: p.kind === 'transition' ? p.to : p.kind });
      this.deps.log.info(
        { id: entry.id, merchantOrderId: entry.merchantOrderId, from: entry.state, plan: p.kind },
        'recovered',
      );
    }
    if (report.length > 0) this.deps.onOutbox?.();
    return report;
  }

  /** Runs the effects a recovery transition asks for besides its outbox requests (the question, the deadline). */
  protected runAfterRecovery(id: number, state: MachineState<N, D>, effects: readonly E[]): void {
    for (const e of effects) {
      if (this.#durable.has(e.kind)) continue;
      this.runShared(id, state, e).catch((err: unknown) => this.deps.log.warn({ id, err }, 'recovery effect failed'));
    }
  }

  /**
   * The effects every kind shares: beginning the receipt step, printing the receipt (the state is
   * `printing`, committed; a failure to know is `unsure`), asking the cashier about it, arming the
   * deadline, raising an alarm. True when `effect` was one.
   */
  protected async runShared(id: number, state: MachineState<N, D>, effect: E): Promise<boolean> {
    if (!isSharedKind(effect)) return false;
    const e = this.#words.effect(effect);
    switch (e.kind) {
      case 'receipt.start':
        await this.#applyReceiptStep(id, { kind: 'print' });
        return true;
      case 'print.receipt': {
        // `printing` is committed: a receipt that cannot be told printed is `unsure`.
        const result = await printReceipt(this.deps.receipt, this.receiptSubject(state), this.deps.log);
        await this.#applyReceiptStep(id, { kind: 'receipt', result });
        return true;
      }
      case 'ask.receipt': {
        const question = this.#words.receipt?.question({ type: 'receipt-question', id });
        if (question !== undefined) this.emit(question);
        return true;
      }
      case 'schedule.deadline':
        this.schedule(id, e.at);
        return true;
      case 'alarm':
        this.alarm(id, e.code, e.message);
        return true;
    }
  }

  /**
   * Asks the host every `pollMs` while the payment stays in `waiting` and its code is valid:
   * `poll` gives the input to apply (paid) or undefined (ask again); past `expiresAt` the
   * expiry input is applied. Ends when `stopped()` says so.
   */
  protected async watch(
    id: number,
    o: {
      waiting: N;
      pollMs: number;
      expired: I;
      stopped: () => boolean;
      expiresAt: (d: D) => string | undefined;
      poll: (d: D) => Promise<I | undefined>;
    },
  ): Promise<void> {
    for (;;) {
      if (o.stopped()) return;
      const entry = this.entry(id);
      if (entry.state !== o.waiting) return;
      const data = this.stateOf(entry).data;
      if (this.deps.clock.now().getTime() >= Date.parse(o.expiresAt(data) ?? '')) {
        await this.apply(id, o.expired);
        return;
      }
      const input = await o.poll(data).catch(() => undefined);
      if (input !== undefined) {
        await this.apply(id, input);
        return;
      }
      await sleep(o.pollMs);
    }
  }

  /**
   * What the receipt of payment `id` says, rebuilt from the journal (the host's receipt rows are
   * in its data), and its state: reprints and screen views are made from this.
   */
  receiptOf(id: number): { state: N; subject: ReceiptSubject } {
    const state = this.stateOf(this.entry(id));
    return { state: state.name, subject: this.receiptSubject(state) };
  }

  /** The cashier's answer to "did the receipt come out?" (the receipt question). */
  async receiptAnswer(id: number, printed: boolean): Promise<void> {
    await this.#applyReceiptStep(id, { kind: 'receipt', result: printed ? 'printed' : 'failed' });
  }

  /** For the outbox forwarder, inside its transaction: a request of this machine was settled. */
  settled(task: OutboxTask, delivery: Delivery): void {
    if (task.journalId === null || delivery.action === 'retry') return;
    const entry = this.deps.journal.get(task.journalId);
    if (!entry || entry.kind !== this.#kind) return;
    const step = this.transition(this.stateOf(entry), this.deliveredInput(delivery), this.ctx());
    if (!step.ok) {
      this.deps.log.warn({ id: entry.id, reason: step.reason }, 'delivery not applied');
      return;
    }
    this.commit(entry, step.state, step.input, []);
    const after: E[] = [];
    for (const effect of step.effects) {
      const e = isSharedKind(effect) ? this.#words.effect(effect) : undefined;
      if (e?.kind === 'alarm') this.alarm(entry.id, e.code, e.message);
      else if (!this.#durable.has(effect.kind)) after.push(effect);
    }
    // The others (a void confirmed by the late watch prints its receipt) once the forwarder's transaction is over,
    // as `apply` runs them after its commit.
    if (after.length > 0) setImmediate(() => void this.#runAfterSettled(entry.id, step.state, after));
  }

  async #runAfterSettled(id: number, state: MachineState<N, D>, effects: readonly E[]): Promise<void> {
    for (const effect of effects)
      await this.run(id, state, effect).catch((e: unknown) =>
        this.deps.log.warn({ id, err: e, effect: effect.kind }, 'effect after a delivery failed'),
      );
  }

  /** Clears the deadline timers. */
  stopTimers(): void {
    this.#timers.clear();
  }

  protected stateOf(entry: JournalEntry): MachineState<N, D> {
    // The journal holds what this machine wrote (its data, as JSON): read back as written.
    return { name: entry.state as N, data: entry.data as D };
  }

  protected ctx(): SaleContext {
    const { clock, attended, ecrDecisionMs, closeMarginMs, undoUnclearDeclines } = this.deps;
    return {
      now: clock.now(),
      attended,
      decisionDeadline: (now) => decisionDeadline(now, ecrDecisionMs, closeMarginMs),
      ...(undoUnclearDeclines ? { undoUnclearDeclines } : {}),
    };
  }

  protected entry(id: number): JournalEntry {
    const entry = this.deps.journal.get(id);
    if (!entry || entry.kind !== this.#kind)
      throw new OmniposError('ENGINE_NOT_FOUND', `no ${this.#kind} ${id}`, { id });
    return entry;
  }

  /** Applies one input: commit first (with its outbox requests), then run the other effects. */
  protected async apply(id: number, input: I): Promise<void> {
    const entry = this.entry(id);
    const step = this.transition(this.stateOf(entry), input, this.ctx());
    if (!step.ok) {
      this.deps.log.debug({ id, reason: step.reason }, 'input ignored');
      return;
    }
    this.commit(entry, step.state, step.input, step.effects);
    for (const effect of step.effects) if (!this.#durable.has(effect.kind)) await this.run(id, step.state, effect);
  }

  protected commit(entry: JournalEntry, next: MachineState<N, D>, input: string, effects: readonly E[]): void {
    const { db, journal, clock } = this.deps;
    db.transaction(() => {
      journal.transition(entry.id, { from: entry.state, to: next.name, input, at: clock.now(), data: next.data });
      this.writeDurable(entry.id, next, effects);
    }).immediate();
    this.emit(this.stateEvent(entry.id, next, input));
    if (effects.some((e) => this.#durable.has(e.kind))) this.deps.onOutbox?.();
  }

  /**
   * Arms the cash register's deadline (deadline-timers.ts): when it passes, the deadline undo is
   * applied. An apply that fails (the journal could not commit: a busy or full disk) is tried again,
   * 1 s later doubling to 30 s, until it commits or the payment no longer awaits it (the input is
   * then ignored): a sale is never left awaiting a decision until the host confirms it at its close.
   */
  protected schedule(id: number, at: string, failures = 0): void {
    this.#timers.arm(id, at, () => {
      this.#applyReceiptStep(id, { kind: 'decision', decision: 'undo', by: 'deadline' }).catch((e: unknown) => {
        this.deps.log.error({ id, err: e, failures: failures + 1 }, 'deadline undo failed; trying again');
        const retryMs = Math.min(30_000, 1000 * 2 ** Math.min(failures, 5));
        this.schedule(id, new Date(this.deps.clock.now().getTime() + retryMs).toISOString(), failures + 1);
      });
    });
  }

  protected alarm(id: number, code: string, message: string): void {
    this.deps.log.error({ id, alarm: code }, message);
    this.emit(this.alarmEvent(id, code, message));
  }

  protected emit(event: Ev): void {
    try {
      this.#onEvent?.(event);
    } catch (e) {
      this.deps.log.warn({ err: e }, 'event listener failed');
    }
  }
}
