import { sleep, type Clock } from '../../core/clock.js';
import { OmniposError } from '../../core/errors/index.js';
import type { Logger } from '../../core/log/index.js';
import { nextNsu, type Db, type Journal, type JournalEntry, type MerchantOrderIds, type Outbox, type OutboxTask } from '../../store/index.js';
import { decisionDeadline } from '../daily-close.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type ConfirmTask, type UndoTask } from '../outbox/tasks.js';
import type { WatchTask } from '../outbox/watch.js';
import type { AcquirerDeliveryPort, Delivery, ReceiptPort } from '../ports.js';
import type { SaleContext } from '../sale/types.js';
import { saleQrCode, type MerchantProfile } from './code.js';
import { qrTransition } from './machine.js';
import type { QrEffect, QrInput, QrSaleData, QrSaleRequest, QrState, QrStateName } from './types.js';

export type QrEvent =
  | { type: 'state'; id: number; merchantOrderId: string; state: QrStateName; input: string }
  /** Show this code to the customer (screen, pinpad display, paper on request). */
  | { type: 'qr'; id: number; qrCode: string; expiresAt: string }
  | { type: 'alarm'; id: number; code: string; message: string }
  | { type: 'receipt-question'; id: number };

export interface QrEngineDeps {
  db: Db;
  journal: Journal;
  outbox: Outbox;
  orderIds: MerchantOrderIds;
  host: AcquirerDeliveryPort;
  receipt: ReceiptPort;
  merchant: MerchantProfile;
  clock: Clock;
  log: Logger;
  attended: boolean;
  ecrDecisionMs: number;
  closeMarginMs: number;
  /** How long a code can be paid, ms (shared with the sandbox's check of 81.01). */
  validityMs: number;
  /** How long after the validity a cancelled or expired code is still watched, ms. */
  watchMarginMs: number;
  /** How often the host is asked whether the code was paid, ms. */
  pollMs: number;
  onOutbox?: () => void;
  onEvent?: (event: QrEvent) => void;
}

const DURABLE = new Set<QrEffect['kind']>(['outbox.confirm', 'outbox.undo', 'outbox.watch']);
const stateOf = (e: JournalEntry): QrState => ({ name: e.state as QrStateName, data: e.data as unknown as QrSaleData });

/** Owns wallet QR sales, as SaleEngine owns card sales: commit first, then effects. */
export class QrEngine {
  readonly #d: QrEngineDeps;
  readonly #timers = new Map<number, NodeJS.Timeout>();
  #stopped = false;

  constructor(deps: QrEngineDeps) {
    this.#d = deps;
  }

  /** Opens the journal row, builds and shows the code, and watches for the payment in the background. */
  async start(request: QrSaleRequest, options: { idempotencyKey?: string } = {}): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    const { journal, clock, db } = this.#d;
    const merchantOrderId = await this.#d.orderIds.next();
    const data: QrSaleData = { request, merchantOrderId, ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) };
    const entry = journal.open({ kind: 'qr', merchantOrderId, state: 'started', amount: request.amount, data: data as unknown as Record<string, unknown>, input: 'request', at: clock.now() });
    let input: QrInput;
    try {
      const issuedAt = clock.now();
      const nsu = nextNsu(db);
      const qrCode = saleQrCode(this.#d.merchant, { request, merchantOrderId, nsu, issuedAt });
      input = { kind: 'shown', qrCode, nsu, expiresAt: new Date(issuedAt.getTime() + this.#d.validityMs).toISOString() };
    } catch (e) {
      input = { kind: 'build-failed', reason: (e as Error).message };
    }
    const done = this.#apply(entry.id, input);
    return { entry, done };
  }

  async cancel(id: number, by: 'ecr' | 'customer' | 'operator'): Promise<void> {
    await this.#apply(id, { kind: 'cancel', by });
  }

  async decide(id: number, decision: 'confirm' | 'undo', by: 'ecr' | 'operator' = 'ecr'): Promise<void> {
    const state = this.#entry(id).state;
    if (state !== 'awaiting-decision' && !(decision === 'undo' && state === 'approved')) {
      throw new OmniposError('ENGINE_NOT_ALLOWED', `QR sale ${id} is ${state}: it cannot be ${decision === 'confirm' ? 'confirmed' : 'undone'} now`, { id, state });
    }
    await this.#apply(id, { kind: 'decision', decision, by });
  }

  async receiptAnswer(id: number, printed: boolean): Promise<void> {
    await this.#apply(id, { kind: 'receipt', result: printed ? 'printed' : 'failed' });
  }

  /** For the outbox forwarder, inside its transaction. */
  settled(task: OutboxTask, delivery: Delivery): void {
    if (task.journalId === null || delivery.action === 'retry') return;
    const entry = this.#d.journal.get(task.journalId);
    if (!entry) return;
    const step = qrTransition(stateOf(entry), { kind: 'delivered', action: delivery.action, reason: delivery.reason, ...(delivery.late ? { late: true } : {}) }, this.#ctx());
    if (!step.ok) return;
    this.#commit(entry, step.state, step.input, []);
    for (const e of step.effects) if (e.kind === 'alarm') this.#alarm(entry.id, e.code, e.message);
  }

  /**
   * At start: a code never shown is cancelled; a code that was showing is watched until its
   * validity ends (a payment that came while we were down is undone, never kept); a paid sale
   * whose receipt was not out is undone; decisions wait for their deadline; outbox requests are
   * made sure of.
   */
  recover(): { id: number; from: string; plan: string }[] {
    const now = this.#d.clock.now();
    const report: { id: number; from: string; plan: string }[] = [];
    for (const entry of this.#d.journal.inStates(['started', 'showing', 'approved', 'awaiting-decision', 'confirming', 'undoing', 'cancelling', 'expiring'])) {
      if (entry.kind !== 'qr') continue;
      const state = stateOf(entry);
      let plan = entry.state;
      if (state.name === 'started') plan = this.#recommit(entry, state, 'cancelled', 'stopped before the code was shown', []);
      else if (state.name === 'showing') plan = this.#recommit(entry, state, 'cancelling', 'stopped while the code was showing', [{ kind: 'outbox.watch' }]);
      else if (state.name === 'approved') plan = this.#recommit(entry, state, 'undoing', 'stopped before the receipt was out', [{ kind: 'outbox.undo' }]);
      else if (state.name === 'awaiting-decision') {
        if (Date.parse(state.data.deadline ?? '') <= now.getTime()) plan = this.#recommit(entry, state, 'undoing', 'no decision before the deadline', [{ kind: 'outbox.undo' }]);
        else this.#schedule(entry.id, state.data.deadline as string);
      } else {
        const effect: QrEffect = state.name === 'confirming' ? { kind: 'outbox.confirm' } : state.name === 'undoing' ? { kind: 'outbox.undo' } : { kind: 'outbox.watch' };
        this.#d.db.transaction(() => this.#durable(entry.id, state, [effect])).immediate();
      }
      report.push({ id: entry.id, from: entry.state, plan });
    }
    if (report.length > 0) this.#d.onOutbox?.();
    return report;
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
  }

  /* ------------------------------------------------------------ internals */

  #recommit(entry: JournalEntry, state: QrState, to: QrStateName, reason: string, effects: QrEffect[]): string {
    this.#commit(entry, { name: to, data: { ...state.data, reason } }, `recovery: ${reason}`, effects);
    return to;
  }

  #ctx(): SaleContext {
    const { clock, attended, ecrDecisionMs, closeMarginMs } = this.#d;
    return { now: clock.now(), attended, decisionDeadline: (now) => decisionDeadline(now, ecrDecisionMs, closeMarginMs) };
  }

  #entry(id: number): JournalEntry {
    const e = this.#d.journal.get(id);
    if (!e || e.kind !== 'qr') throw new OmniposError('ENGINE_NOT_FOUND', `no QR sale ${id}`, { id });
    return e;
  }

  async #apply(id: number, input: QrInput): Promise<void> {
    const entry = this.#entry(id);
    const step = qrTransition(stateOf(entry), input, this.#ctx());
    if (!step.ok) {
      this.#d.log.debug({ id, reason: step.reason }, 'input ignored');
      return;
    }
    this.#commit(entry, step.state, step.input, step.effects);
    for (const e of step.effects) if (!DURABLE.has(e.kind)) await this.#run(id, step.state, e);
  }

  #commit(entry: JournalEntry, next: QrState, input: string, effects: readonly QrEffect[]): void {
    this.#d.db.transaction(() => {
      this.#d.journal.transition(entry.id, { from: entry.state, to: next.name, input, at: this.#d.clock.now(), data: next.data as unknown as Record<string, unknown> });
      this.#durable(entry.id, next, effects);
    }).immediate();
    this.#emit({ type: 'state', id: entry.id, merchantOrderId: next.data.merchantOrderId, state: next.name, input });
    if (effects.some((e) => DURABLE.has(e.kind))) this.#d.onOutbox?.();
  }

  #durable(journalId: number, state: QrState, effects: readonly QrEffect[]): void {
    const at = this.#d.clock.now();
    const d = state.data;
    const enqueue = (op: string, name: string, payload: object): void =>
      void this.#d.outbox.enqueue({ journalId, operation: op, idempotencyKey: idempotencyKey(name, d.merchantOrderId), payload: { ...payload }, at });
    for (const e of effects) {
      if (e.kind === 'outbox.confirm' && d.paymentId) enqueue(OUTBOX_OPERATIONS.confirm, 'confirm', { merchantOrderId: d.merchantOrderId, paymentId: d.paymentId } satisfies ConfirmTask);
      else if (e.kind === 'outbox.undo') enqueue(OUTBOX_OPERATIONS.undo, 'undo', { merchantOrderId: d.merchantOrderId, sentAt: d.expiresAt ?? at.toISOString(), ...(d.paymentId ? { paymentId: d.paymentId } : {}) } satisfies UndoTask);
      else if (e.kind === 'outbox.watch') {
        const until = new Date(Date.parse(d.expiresAt ?? at.toISOString()) + this.#d.watchMarginMs).toISOString();
        enqueue(OUTBOX_OPERATIONS.watch, 'watch', { merchantOrderId: d.merchantOrderId, until } satisfies WatchTask);
      }
    }
  }

  async #run(id: number, state: QrState, effect: QrEffect): Promise<void> {
    switch (effect.kind) {
      case 'watch.payment':
        this.#emit({ type: 'qr', id, qrCode: state.data.qrCode ?? '', expiresAt: state.data.expiresAt ?? '' });
        await this.#watch(id);
        return;
      case 'print.receipt': {
        let result: 'printed' | 'skipped' | 'failed' | 'unsure';
        try {
          result = await this.#d.receipt.print(state.data);
        } catch {
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

  /** Queries by MerchantOrderId until the payment appears, the code expires, or the sale leaves `showing`. */
  async #watch(id: number): Promise<void> {
    for (;;) {
      if (this.#stopped) return;
      const entry = this.#entry(id);
      if (entry.state !== 'showing') return;
      const data = stateOf(entry).data;
      if (this.#d.clock.now().getTime() >= Date.parse(data.expiresAt ?? '')) {
        await this.#apply(id, { kind: 'expired' });
        return;
      }
      const q = await this.#d.host.queryByOrderId(data.merchantOrderId).catch((e: unknown) => ({ kind: 'unknown' as const, reason: (e as Error).message }));
      if (q.kind === 'found' && q.status === 2 && q.confirmationStatus !== 2 && q.paymentId) {
        await this.#apply(id, { kind: 'paid', paymentId: q.paymentId });
        return;
      }
      await sleep(this.#d.pollMs);
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

  #emit(event: QrEvent): void {
    try {
      this.#d.onEvent?.(event);
    } catch (e) {
      this.#d.log.warn({ err: e }, 'event listener failed');
    }
  }
}
