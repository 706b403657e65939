import type { JournalEntry, JournalKind, MerchantOrderIds } from '../store/index.js';
import { MachineOwner, type MachineState, type OwnerDeps } from './machine-owner.js';
import type { MachineVocabulary } from './machine-vocabulary.js';

/** What the cash register, the customer or the operator tells a sale paid by a code (wallet QR, Pix). */
type CodeSaleInput =
  | { kind: 'cancel'; by: 'ecr' | 'customer' | 'operator' }
  | { kind: 'decision'; decision: 'confirm' | 'undo'; by: 'ecr' | 'deadline' | 'operator' };

/**
 * What a restart does with a code sale found in one state: a transition with its outbox requests;
 * the outbox request its state stands for, made sure of; the receipt's step ended as unsure
 * (`printing`); or, awaiting the cash register's decision, `to` with `effects` once the deadline
 * passed (the deadline armed again before it).
 */
export type CodeSaleRecovery<N extends string, E> =
  | { kind: 'transition'; to: N; reason: string; effects: E[] }
  | { kind: 'ensure'; effect: E }
  | { kind: 'printing' }
  | { kind: 'decision'; to: N; effects: E[] };

/** What a code sale's owner needs besides the machine owner's: where its MerchantOrderIds come from. */
export interface CodeSaleDeps extends OwnerDeps {
  orderIds: MerchantOrderIds;
}

/** What every code sale's row holds from its start: the request, its MerchantOrderId, the idempotency key. */
export interface CodeSaleStart<R> {
  request: R;
  merchantOrderId: string;
  idempotencyKey?: string;
}

/**
 * The owner of a sale paid by a code the customer's wallet or bank reads (the wallet QR and Pix
 * engines): the cancel, the decision and the restart's walk, one implementation both read. Each
 * engine says what its states mean at a restart (`CodeSaleRecovery`).
 */
export abstract class CodeSaleOwner<
  N extends string,
  D extends { merchantOrderId: string; deadline?: string },
  I extends { kind: string },
  E extends { kind: string },
  Ev,
  R extends { amount: number; receipt?: boolean },
> extends MachineOwner<N, D, I | CodeSaleInput, E, Ev> {
  readonly #kind: JournalKind;
  readonly #orderIds: MerchantOrderIds;
  /** How errors name the sale (`QR sale`, `Pix`). */
  readonly #what: string;
  #stopped = false;

  protected constructor(
    deps: CodeSaleDeps,
    kind: JournalKind,
    what: string,
    durable: ReadonlySet<E['kind']>,
    words: MachineVocabulary<I | CodeSaleInput, E, Ev>,
    onEvent?: (event: Ev) => void,
  ) {
    super(deps, kind, durable, words, onEvent);
    this.#kind = kind;
    this.#what = what;
    this.#orderIds = deps.orderIds;
  }

  /** Opens the journal row and shows the code, holding the terminal's payment lock (`startHeld`). */
  async start(
    request: R,
    options: { idempotencyKey?: string } = {},
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    return this.holdPayment((attach) => this.startHeld(request, options, attach));
  }

  /** The sale's own start, the lock held (`attach` ties the lock to the journal row once opened). */
  protected abstract startHeld(
    request: R,
    options: { idempotencyKey?: string },
    attach: (id: number) => void,
  ): Promise<{ entry: JournalEntry; done: Promise<void> }>;

  /**
   * Opens the sale's journal row in `state` (committed before anything leaves) with a new
   * MerchantOrderId, and ties the payment lock to it; `extra` is written in the row beside the start.
   */
  protected async openRow(
    request: R,
    options: { idempotencyKey?: string },
    state: N,
    attach: (id: number) => void,
    extra: Readonly<Record<string, unknown>> = {},
  ): Promise<{ entry: JournalEntry; data: CodeSaleStart<R> }> {
    const merchantOrderId = await this.#orderIds.next();
    const data: CodeSaleStart<R> = {
      request,
      merchantOrderId,
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    };
    const entry = this.deps.journal.open({
      kind: this.#kind,
      merchantOrderId,
      state,
      amount: request.amount,
      data: { ...data, ...extra },
      input: 'request',
      at: this.deps.clock.now(),
    });
    attach(entry.id);
    return { entry, data };
  }

  /** Stops the watches and the deadline timers (the daemon's stop). */
  stop(): void {
    this.#stopped = true;
    this.stopTimers();
  }

  /** True once stopped: a watch ends. */
  protected get stopped(): boolean {
    return this.#stopped;
  }

  async cancel(id: number, by: 'ecr' | 'customer' | 'operator'): Promise<void> {
    await this.apply(id, { kind: 'cancel', by });
  }

  async decide(id: number, decision: 'confirm' | 'undo', by: 'ecr' | 'operator' = 'ecr'): Promise<void> {
    this.assertDecidable(id, decision, this.#what);
    await this.apply(id, { kind: 'decision', decision, by });
  }

  /** At start: each of this kind's sales in `states`, as `plan` says; then the outbox is woken. */
  protected recoverCodeSales(
    states: readonly N[],
    plan: (state: MachineState<N, D>) => CodeSaleRecovery<N, E>,
  ): { id: number; from: string; plan: string }[] {
    const now = this.deps.clock.now();
    const report: { id: number; from: string; plan: string }[] = [];
    for (const entry of this.deps.journal.inStates(states)) {
      if (entry.kind !== this.#kind) continue;
      const state = this.stateOf(entry);
      const p = plan(state);
      let done: string = entry.state;
      if (p.kind === 'transition') done = this.#recommit(entry, state, p.to, p.reason, p.effects);
      else if (p.kind === 'printing') done = this.recoverPrinting(entry);
      else if (p.kind === 'decision') {
        if (Date.parse(state.data.deadline ?? '') <= now.getTime())
          done = this.#recommit(entry, state, p.to, 'no decision before the deadline', p.effects);
        else this.schedule(entry.id, state.data.deadline as string);
      } else this.deps.db.transaction(() => this.writeDurable(entry.id, state, [p.effect])).immediate();
      report.push({ id: entry.id, from: entry.state, plan: done });
    }
    if (report.length > 0) this.deps.onOutbox?.();
    return report;
  }

  #recommit(entry: JournalEntry, state: MachineState<N, D>, to: N, reason: string, effects: E[]): string {
    this.commit(entry, { name: to, data: { ...state.data, reason } }, `recovery: ${reason}`, effects);
    return to;
  }
}
