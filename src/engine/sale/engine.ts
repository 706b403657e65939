import type { Clock } from '../../core/clock.js';
import { OmniposError } from '../../core/errors/index.js';
import type { Logger } from '../../core/log/index.js';
import type { Db, Journal, JournalEntry, MerchantOrderIds, Outbox, OutboxTask } from '../../store/index.js';
import { decisionDeadline } from '../daily-close.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type ConfirmTask, type UndoTask } from '../outbox/tasks.js';
import type { CardPort, Delivery, EncryptedCard, ReceiptPort, SaleAuthorizationPort } from '../ports.js';
import { saleTransition } from './machine.js';
import { planRecovery } from './recovery.js';
import { paymentStatus, type PaymentStatus } from './status.js';
import type { SaleContext, SaleData, SaleEffect, SaleInput, SaleRequest, SaleState, SaleStateName } from './types.js';

export type SaleEvent =
  | { type: 'state'; id: number; merchantOrderId: string; state: SaleStateName; status: PaymentStatus; input: string }
  | { type: 'alarm'; id: number; code: string; message: string }
  | { type: 'receipt-question'; id: number };

export interface SaleEngineDeps {
  db: Db;
  journal: Journal;
  outbox: Outbox;
  orderIds: MerchantOrderIds;
  card: CardPort;
  host: SaleAuthorizationPort;
  receipt: ReceiptPort;
  clock: Clock;
  log: Logger;
  /** A cashier is there (counter) or not (kiosk). */
  attended: boolean;
  /** How long the cash register has to confirm or undo an approved sale, ms. */
  ecrDecisionMs: number;
  /** Deadlines end at least this long before the daily close, ms. */
  closeMarginMs: number;
  /** Called after a commit that put a request in the outbox (wake the forwarder). */
  onOutbox?: () => void;
  onEvent?: (event: SaleEvent) => void;
}

const DURABLE = new Set<SaleEffect['kind']>(['outbox.confirm', 'outbox.undo']);

function stateOf(entry: JournalEntry): SaleState {
  return { name: entry.state as SaleStateName, data: entry.data as unknown as SaleData };
}

/**
 * Owns card sales: runs the pure machine, commits each transition (and the outbox requests it
 * asks for, in the same transaction) before running its effects on the ports, and feeds the
 * ports' results back as inputs. One sale at a time holds the pinpad.
 */
export class SaleEngine {
  readonly #d: SaleEngineDeps;
  #active: { id: number; abort: AbortController; cancelBy?: 'ecr' | 'customer' | 'operator' } | undefined;
  readonly #cards = new Map<number, EncryptedCard>();
  readonly #timers = new Map<number, NodeJS.Timeout>();

  constructor(deps: SaleEngineDeps) {
    this.#d = deps;
  }

  get busy(): boolean {
    return this.#active !== undefined;
  }

  /** Opens the journal row (committed before anything else) and runs the sale in the background. */
  async start(request: SaleRequest, options: { idempotencyKey?: string } = {}): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    if (this.#active) throw new OmniposError('ENGINE_BUSY', 'a sale is already using the pinpad', { active: this.#active.id });
    const abort = new AbortController();
    this.#active = { id: -1, abort };
    try {
      const merchantOrderId = await this.#d.orderIds.next();
      const data: SaleData = { request, merchantOrderId, ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) };
      const entry = this.#d.journal.open({
        kind: 'sale',
        merchantOrderId,
        state: 'started',
        amount: request.amount,
        data: data as unknown as Record<string, unknown>,
        input: 'request',
        at: this.#d.clock.now(),
      });
      this.#active.id = entry.id;
      this.#emit({ type: 'state', id: entry.id, merchantOrderId, state: 'started', status: 'pending', input: 'request' });
      const done = this.#drive(entry.id, abort.signal).finally(() => {
        this.#cards.delete(entry.id);
        if (this.#active?.id === entry.id) this.#active = undefined;
      });
      return { entry, done };
    } catch (e) {
      this.#active = undefined;
      throw e;
    }
  }

  /** The cash register, the customer or an operator cancels. Whatever was approved is undone. */
  async cancel(id: number, by: 'ecr' | 'customer' | 'operator'): Promise<void> {
    const entry = this.#entry(id);
    if (this.#active?.id === id && entry.state === 'started') {
      this.#active.cancelBy = by;
      this.#active.abort.abort(new OmniposError('ENGINE_CANCELLED', `cancelled by ${by}`));
      return;
    }
    if (this.#active?.id === id) this.#active.abort.abort(new OmniposError('ENGINE_CANCELLED', `cancelled by ${by}`));
    await this.#apply(id, { kind: 'cancel', by });
  }

  /** The cash register's decision on an approved sale. */
  async decide(id: number, decision: 'confirm' | 'undo', by: 'ecr' | 'operator' = 'ecr'): Promise<JournalEntry> {
    const state = this.#entry(id).state;
    if (state !== 'awaiting-decision' && !(decision === 'undo' && state === 'approved')) {
      throw new OmniposError('ENGINE_NOT_ALLOWED', `sale ${id} is ${state}: it cannot be ${decision === 'confirm' ? 'confirmed' : 'undone'} now`, { id, state });
    }
    await this.#apply(id, { kind: 'decision', decision, by });
    return this.#entry(id);
  }

  /** The cashier's answer to "did the receipt come out?". */
  async receiptAnswer(id: number, printed: boolean): Promise<void> {
    await this.#apply(id, { kind: 'receipt', result: printed ? 'printed' : 'failed' });
  }

  /** For the outbox forwarder, inside its transaction: a confirmation or undo was settled. */
  settled(task: OutboxTask, delivery: Delivery): void {
    if (task.journalId === null || delivery.action === 'retry') return;
    const entry = this.#d.journal.get(task.journalId);
    if (!entry) return;
    const step = saleTransition(stateOf(entry), { kind: 'delivered', action: delivery.action, reason: delivery.reason }, this.#ctx());
    if (!step.ok) {
      this.#d.log.warn({ id: entry.id, reason: step.reason }, 'delivery not applied');
      return;
    }
    this.#commit(entry, step.state, step.input, []);
    for (const e of step.effects) if (e.kind === 'alarm') this.#alarm(entry.id, e.code, e.message);
  }

  /**
   * At start, before any new sale: decides and records what each unfinished sale needs
   * (DESIGN.md's recovery table); the outbox delivers it.
   */
  recover(): { id: number; from: string; plan: string }[] {
    const now = this.#d.clock.now();
    const unfinished = this.#d.journal.inStates(['started', 'card-read', 'authorizing', 'finishing-chip', 'approved', 'awaiting-decision', 'confirming', 'undoing']);
    const report: { id: number; from: string; plan: string }[] = [];
    for (const entry of unfinished) {
      if (entry.kind !== 'sale') continue;
      const state = stateOf(entry);
      const plan = planRecovery(state, now);
      if (plan.kind === 'transition') {
        this.#commit(entry, { name: plan.to, data: { ...state.data, reason: plan.reason } }, `recovery: ${plan.reason}`, plan.effects);
      } else if (plan.kind === 'ensure') {
        this.#d.db.transaction(() => this.#durable(entry.id, state, plan.effects)).immediate();
      } else if (plan.kind === 'wait') {
        this.#schedule(entry.id, plan.until);
      }
      report.push({ id: entry.id, from: entry.state, plan: plan.kind === 'transition' ? plan.to : plan.kind });
      this.#d.log.info({ id: entry.id, merchantOrderId: entry.merchantOrderId, from: entry.state, plan: plan.kind }, 'recovered');
    }
    if (report.length > 0) this.#d.onOutbox?.();
    return report;
  }

  stop(): void {
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    this.#active?.abort.abort(new OmniposError('ENGINE_CANCELLED', 'stopping'));
  }

  /* ------------------------------------------------------------ internals */

  async #drive(id: number, signal: AbortSignal): Promise<void> {
    const data = stateOf(this.#entry(id)).data;
    let read;
    try {
      read = await this.#d.card.readCard({ merchantOrderId: data.merchantOrderId, amount: data.request.amount, method: data.request.method }, signal);
    } catch (e) {
      const by = this.#active?.cancelBy;
      await this.#apply(id, signal.aborted && by ? { kind: 'cancel', by } : { kind: 'card-failed', reason: (e as Error).message });
      return;
    }
    this.#cards.set(id, read.card);
    await this.#apply(id, { kind: 'card-read', card: read.summary });
    if (signal.aborted) {
      await this.#apply(id, { kind: 'cancel', by: this.#active?.cancelBy ?? 'ecr' });
      return;
    }
    await this.#apply(id, { kind: 'authorize' });
  }

  #ctx(): SaleContext {
    const { clock, attended, ecrDecisionMs, closeMarginMs } = this.#d;
    return { now: clock.now(), attended, decisionDeadline: (now) => decisionDeadline(now, ecrDecisionMs, closeMarginMs) };
  }

  #entry(id: number): JournalEntry {
    const entry = this.#d.journal.get(id);
    if (!entry || entry.kind !== 'sale') throw new OmniposError('ENGINE_NOT_FOUND', `no sale ${id}`, { id });
    return entry;
  }

  /** Applies one input: commit first (with its outbox requests), then run the other effects. */
  async #apply(id: number, input: SaleInput): Promise<void> {
    const entry = this.#entry(id);
    const step = saleTransition(stateOf(entry), input, this.#ctx());
    if (!step.ok) {
      this.#d.log.debug({ id, reason: step.reason }, 'input ignored');
      return;
    }
    this.#commit(entry, step.state, step.input, step.effects);
    for (const effect of step.effects) {
      if (!DURABLE.has(effect.kind)) await this.#run(id, step.state, effect);
    }
  }

  #commit(entry: JournalEntry, next: SaleState, input: string, effects: readonly SaleEffect[]): void {
    const { db, journal } = this.#d;
    const at = this.#d.clock.now();
    db.transaction(() => {
      journal.transition(entry.id, { from: entry.state, to: next.name, input, at, data: next.data as unknown as Record<string, unknown> });
      this.#durable(entry.id, next, effects);
    }).immediate();
    this.#emit({ type: 'state', id: entry.id, merchantOrderId: next.data.merchantOrderId, state: next.name, status: paymentStatus(next.name), input });
    if (effects.some((e) => DURABLE.has(e.kind))) this.#d.onOutbox?.();
  }

  /** Writes the outbox requests of `effects` (idempotent: one task per sale and operation). */
  #durable(journalId: number, state: SaleState, effects: readonly SaleEffect[]): void {
    const at = this.#d.clock.now();
    const d = state.data;
    for (const e of effects) {
      if (e.kind === 'outbox.confirm' && d.paymentId) {
        const payload: ConfirmTask = { merchantOrderId: d.merchantOrderId, paymentId: d.paymentId, ...(d.emv ? { emv: d.emv } : {}) };
        this.#d.outbox.enqueue({ journalId, operation: OUTBOX_OPERATIONS.confirm, idempotencyKey: idempotencyKey('confirm', d.merchantOrderId), payload: { ...payload }, at });
      } else if (e.kind === 'outbox.undo') {
        const payload: UndoTask = {
          merchantOrderId: d.merchantOrderId,
          sentAt: d.sentAt ?? at.toISOString(),
          ...(e.by === 'paymentId' && d.paymentId ? { paymentId: d.paymentId } : {}),
          ...(d.emv ? { emv: d.emv } : {}),
        };
        this.#d.outbox.enqueue({ journalId, operation: OUTBOX_OPERATIONS.undo, idempotencyKey: idempotencyKey('undo', d.merchantOrderId), payload: { ...payload }, at });
      }
    }
  }

  async #run(id: number, state: SaleState, effect: SaleEffect): Promise<void> {
    const { card, host, receipt, log } = this.#d;
    switch (effect.kind) {
      case 'acquirer.sale': {
        const secret = this.#cards.get(id);
        this.#cards.delete(id);
        const d = state.data;
        let outcome;
        if (!secret || !d.card) outcome = { kind: 'not-sent' as const };
        else {
          try {
            outcome = await host.authorize({ merchantOrderId: d.merchantOrderId, request: d.request, summary: d.card, card: secret, paymentDateTime: new Date(d.sentAt ?? Date.now()) });
          } catch (e) {
            outcome = { kind: 'unknown' as const, reason: (e as Error).message };
          }
        }
        await this.#apply(id, { kind: 'host-answer', outcome });
        return;
      }
      case 'pinpad.finish-chip': {
        let result;
        try {
          result = await card.finishChip(effect.decision, {
            ...(state.data.authorizationCode ? { authorizationCode: state.data.authorizationCode } : {}),
            ...(state.data.emvResponse ? { emvResponse: state.data.emvResponse } : {}),
          });
        } catch (e) {
          result = { card: 'failed' as const, reason: (e as Error).message };
        }
        if (state.name === 'finishing-chip') {
          await this.#apply(id, { kind: 'chip-finished', card: result.card, ...(result.emv ? { emv: result.emv } : {}), ...(result.reason ? { reason: result.reason } : {}) });
        }
        return;
      }
      case 'pinpad.end':
        await card.end(effect.message).catch((e: unknown) => log.warn({ id, err: e }, 'pinpad end failed'));
        return;
      case 'print.receipt': {
        let result: 'printed' | 'skipped' | 'failed' | 'unsure';
        try {
          result = await receipt.print(state.data);
        } catch (e) {
          log.warn({ id, err: e }, 'receipt failed');
          result = 'unsure';
        }
        await this.#apply(id, { kind: 'receipt', result });
        return;
      }
      case 'ask.receipt':
        this.#emit({ type: 'receipt-question', id });
        return;
      case 'schedule.deadline':
        this.#schedule(id, effect.at);
        return;
      case 'alarm':
        this.#alarm(id, effect.code, effect.message);
        return;
      default:
        return;
    }
  }

  #schedule(id: number, at: string): void {
    clearTimeout(this.#timers.get(id));
    const t = setTimeout(() => {
      this.#timers.delete(id);
      this.#apply(id, { kind: 'decision', decision: 'undo', by: 'deadline' }).catch((e: unknown) => this.#d.log.error({ id, err: e }, 'deadline undo failed'));
    }, Math.max(0, Date.parse(at) - this.#d.clock.now().getTime()));
    t.unref();
    this.#timers.set(id, t);
  }

  #alarm(id: number, code: string, message: string): void {
    this.#d.log.error({ id, alarm: code }, message);
    this.#emit({ type: 'alarm', id, code, message });
  }

  #emit(event: SaleEvent): void {
    try {
      this.#d.onEvent?.(event);
    } catch (e) {
      this.#d.log.warn({ err: e }, 'event listener failed');
    }
  }
}
