import { OmniposError } from '../../core/index.js';
import type { JournalEntry } from '../../store/index.js';
import { CardReads } from '../card-reads.js';
import { chipFinished, finishChipSession } from '../chip-session.js';
import { HeldCards, journaledCard } from '../held-cards.js';
import { MachineOwner, type MachineStep } from '../machine-owner.js';
import { SPEAKS_CORE } from '../machine-vocabulary.js';
import type { ReceiptSubject } from '../ports.js';
import { checkPixRefund, checkVoidLimits, cardMismatch, voidableSale } from './checks.js';
import { chipEndMessage, voidOutboxTasks } from './durable.js';
import { voidTransition } from './machine.js';
import { planVoidRecovery } from './recovery.js';
import type { SupervisorCredential } from './supervisor.js';
import type { SupervisorProof } from './types.js';
import { remainingOf, voidIdsOf, type Remaining } from './ledger.js';
import { showQr } from '../qr/code-port.js';
import { unprintedVoidAlarm } from '../receipt-step.js';
import { printVoidReceipt, voidReceiptSubject } from './receipt.js';
import { issueCancellation, watchUntil } from './wallet.js';
import { codePastClose } from '../code-past-close.js';
import { WALLET_CANCELLATION, decide } from '../rules/index.js';
import type { VoidEngineDeps, VoidEvent } from './engine-deps.js';
import { unfinishedStates } from '../state-lists.js';
import {
  FINAL_VOID_STATES,
  VOID_STATES,
  voidStatus,
  type HostVoidOutcome,
  type VoidData,
  type VoidEffect,
  type VoidInput,
  type VoidState,
  type VoidStateName,
} from './types.js';

export type { VoidEngineDeps, VoidEvent } from './engine-deps.js';

const DURABLE = new Set<VoidEffect['kind']>([
  'outbox.void-confirm',
  'outbox.void-undo',
  'outbox.pix-refund',
  'outbox.code-watch',
]);
const UNFINISHED = unfinishedStates(VOID_STATES, FINAL_VOID_STATES);

/**
 * Owns card voids: a supervisor authorizes each; the sale and the limits are checked before a
 * journal row opens; the customer's card is read again (refund transaction type) and must be
 * the sale's before anything is sent; then void → confirm (or undo) through the outbox, every
 * transition committed before its effect. Each void holds the terminal's payment lock
 * (MachineOwner.holdPayment), shared with the sales, from its checks until its flow is over.
 */
export class VoidEngine extends MachineOwner<VoidStateName, VoidData, VoidInput, VoidEffect, VoidEvent> {
  readonly #d: VoidEngineDeps;
  readonly #reads = new CardReads();
  readonly #cards: HeldCards;
  #stopped = false;

  constructor(deps: VoidEngineDeps) {
    super(deps, 'void', DURABLE, SPEAKS_CORE, deps.onEvent);
    this.#d = deps;
    this.#cards = new HeldCards(deps.expiryKey);
  }

  /** What sale `saleId` has left to void: its amount minus every void that gave, or may give, money back. */
  remaining(saleId: number, amount?: number): Remaining {
    return remainingOf(this.#d.db, saleId, amount ?? this.entryOf(saleId)?.amount ?? 0);
  }

  /**
   * Authorizes, checks and opens the void of sale `saleId` (the whole remaining amount unless
   * `amount` says less), then reads the card and sends it in the background. Everything that
   * refuses here (supervisor, sale, limits, busy) refuses before a journal row exists.
   */
  async start(
    saleId: number,
    o: { amount?: number; supervisor: SupervisorCredential },
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    // Who asks is checked before the terminal is found busy: a refused supervisor is told so, not BUSY.
    const authorizedBy = this.#d.supervisor.authorize(o.supervisor);
    return this.holdPayment(async (attach) => {
      const started = await this.#start(saleId, o, authorizedBy);
      attach(started.entry.id);
      return started;
    });
  }

  async #start(
    saleId: number,
    o: { amount?: number },
    authorizedBy: SupervisorProof,
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    const saleEntry = this.entryOf(saleId);
    const sale = voidableSale(saleEntry, saleId);
    const left = this.remaining(saleId, sale.amount);
    const amount = o.amount ?? left.remaining;
    const now = this.#d.clock.now();
    checkVoidLimits({
      sale,
      saleAt: new Date((saleEntry as JournalEntry).createdAt),
      amount,
      voided: left.voided,
      now,
      tables: this.#d.tables(),
    });
    if (sale.kind === 'pix' || sale.kind === 'ecommerce-qr') {
      checkPixRefund(sale, amount, left.remaining, this.#d.pixRefunds === true);
      return this.#openRefund(sale, amount, authorizedBy);
    }
    if (sale.kind === 'wallet-qr') return this.#openCancellation(sale, amount, authorizedBy);
    const { entry } = await this.#open(sale, amount, authorizedBy, 'void', 'void started', now);
    const signal = this.#reads.open(entry.id);
    const done = this.#drive(entry.id, signal).finally(() => {
      this.#cards.forget(entry.id);
      this.#reads.close(entry.id);
    });
    return { entry, done };
  }

  /**
   * A wallet QR sale is voided by a cancellation code the customer's wallet pays: journaled, then
   * the code is built and shown, and the host watched until the wallet applied it or it expired.
   */
  async #openCancellation(
    sale: VoidData['sale'],
    amount: number,
    authorizedBy: VoidData['authorizedBy'],
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    const wallet = this.#d.wallet;
    if (!wallet)
      throw new OmniposError('VOID_NOT_ALLOWED', 'voids of wallet QR sales are not available in this daemon', {
        saleId: sale.id,
      });
    const { entry, data } = await this.#open(sale, amount, authorizedBy, 'void', 'wallet QR void started');
    const input = issueCancellation(this.#d.db, this.#d.clock, wallet.validityMs, data);
    const done = this.apply(entry.id, input);
    // A code whose watch runs past the daily close: told before the close, as a QR sale's is.
    if (input.kind === 'code-shown') {
      const until = watchUntil({ ...data, expiresAt: input.expiresAt }, wallet.watchMarginMs) ?? input.expiresAt;
      for (const a of codePastClose('wallet QR void', data.merchantVoidId, until, this.#d.clock.now()))
        this.alarm(entry.id, a.code, a.message);
    }
    done.catch((e: unknown) => this.deps.log.error({ id: entry.id, err: e }, 'wallet QR void failed'));
    return { entry, done };
  }

  /**
   * A Pix sale or an e-commerce QR sale is refunded, not voided with a card: the refund is journaled
   * with its outbox request in one commit, and the outbox asks it once (`PUT …/void`, the rulebook's
   * `pix.refund` tables) and queries until the host shows it given back.
   */
  async #openRefund(
    sale: VoidData['sale'],
    amount: number,
    authorizedBy: VoidData['authorizedBy'],
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    const what = sale.kind === 'ecommerce-qr' ? 'e-commerce QR sale refund started' : 'Pix refund started';
    const { entry } = await this.#open(sale, amount, authorizedBy, 'refund', what);
    await this.apply(entry.id, { kind: 'refund' });
    return { entry, done: Promise.resolve() };
  }

  /** Journals a new void row (`started`, under a fresh MerchantVoidId), logs and announces it. */
  async #open(
    sale: VoidData['sale'],
    amount: number,
    authorizedBy: VoidData['authorizedBy'],
    verb: 'void' | 'refund',
    started: string,
    at = this.#d.clock.now(),
  ): Promise<{ entry: JournalEntry; data: VoidData }> {
    const merchantVoidId = await this.#d.orderIds.next();
    const data: VoidData = { merchantOrderId: merchantVoidId, merchantVoidId, sale, amount, authorizedBy };
    const input = `${verb} by ${authorizedBy}`;
    const entry = this.#d.journal.open({
      kind: 'void',
      merchantOrderId: merchantVoidId,
      state: 'started',
      amount,
      data: { ...data },
      input,
      at,
    });
    this.deps.log.info({ id: entry.id, merchantVoidId, saleId: sale.id, amount, authorizedBy }, started);
    this.emit(this.stateEvent(entry.id, { name: 'started', data }, input));
    return { entry, data };
  }

  /** The customer, the cashier or an operator cancels while the card is being read. */
  async cancel(id: number, by: 'ecr' | 'customer' | 'operator'): Promise<void> {
    const entry = this.entry(id);
    // The card read in progress ends and the void's own flow records the cancel.
    if (this.#reads.cancel(id, by) && entry.state === 'started') return;
    await this.apply(id, { kind: 'cancel', by });
  }

  /** At start, before any new void: decides and records what each unfinished void needs; the outbox delivers it. */
  recover(): { id: number; from: string; plan: string }[] {
    const report = this.recoverEntries(UNFINISHED, planVoidRecovery);
    // A cancellation code shown before the stop stays payable: watch it again until it expires.
    for (const entry of this.#d.journal.inStates(['showing-code'])) {
      if (entry.kind !== 'void') continue;
      this.run(entry.id, this.stateOf(entry), { kind: 'watch.cancellation' }).catch((e: unknown) =>
        this.deps.log.warn({ id: entry.id, err: e }, 'cancellation watch failed'),
      );
    }
    return report;
  }

  stop(): void {
    this.#stopped = true;
    this.stopTimers();
    this.#reads.stopAll();
  }

  /** The voids (and refunds) of sale `saleId`, oldest first. */
  voidsOf(saleId: number): JournalEntry[] {
    return voidIdsOf(this.#d.db, saleId).map((id) => this.entry(id));
  }

  /** A void's journal entry (ENGINE_NOT_FOUND for anything else). */
  get(id: number): JournalEntry {
    return this.entry(id);
  }

  /* ---------------------------------------------------- the machine's hooks */

  protected transition(state: VoidState, input: VoidInput): MachineStep<VoidState, VoidEffect> {
    return voidTransition(state, input);
  }

  protected stateEvent(id: number, state: VoidState, input: string): VoidEvent {
    return {
      type: 'state',
      id,
      merchantOrderId: state.data.merchantVoidId,
      state: state.name,
      status: voidStatus(state.name),
      input,
      kind: 'void',
      saleId: state.data.sale.id,
    };
  }

  protected writeDurable(journalId: number, state: VoidState, effects: readonly VoidEffect[]): void {
    for (const task of voidOutboxTasks(journalId, state.data, effects, this.#d.clock.now()))
      this.#d.outbox.enqueue(task);
  }

  protected receiptSubject(state: VoidState): ReceiptSubject {
    return voidReceiptSubject(state.data);
  }

  protected async run(id: number, state: VoidState, effect: VoidEffect): Promise<void> {
    if (await this.runShared(id, state, effect)) return;
    const { card, log } = this.#d;
    switch (effect.kind) {
      case 'acquirer.void':
        await this.apply(id, { kind: 'host-answer', outcome: await this.#send(id, state.data) });
        return;
      case 'pinpad.finish-chip': {
        // The card's session is over: the closing message (RMC while the chip is in).
        const result = await finishChipSession(
          card,
          { decision: effect.decision, host: state.data.emvResponse ? { emvResponse: state.data.emvResponse } : {} },
          (c) => chipEndMessage(state.name, effect.decision, c),
          log,
          id,
        );
        if (state.name === 'finishing-chip') await this.apply(id, chipFinished(result));
        return;
      }
      case 'pinpad.end':
        await card.end(effect.message).catch((e: unknown) => log.warn({ id, err: e }, 'pinpad end failed'));
        return;
      case 'print.void-receipt':
        await this.#printReceipt(id, state);
        return;
      case 'watch.cancellation':
        await this.#watchCancellation(id, state);
        return;
      default:
        return;
    }
  }

  /* ------------------------------------------------------------ internals */

  /** Prints the approved void's copies; a failure alarms (and is logged), never undoes the void. */
  async #printReceipt(id: number, state: VoidState): Promise<void> {
    const result = await printVoidReceipt(this.deps.receipt, this.receiptSubject(state), this.deps.log);
    this.deps.log.info({ id, merchantVoidId: state.data.merchantVoidId, result }, 'void receipt');
    const alarm = unprintedVoidAlarm(state.data.merchantVoidId, result);
    if (alarm) this.alarm(id, alarm.code, alarm.message);
  }

  /** Shows the cancellation code and asks the host until the wallet applied it or it ended (then `void.code-watch`). */
  async #watchCancellation(id: number, state: VoidState): Promise<void> {
    const wallet = this.#d.wallet;
    const d = state.data;
    if (!wallet || !d.qrCode) return;
    this.emit({ type: 'qr', id, qrCode: d.qrCode, expiresAt: d.expiresAt ?? '', kind: 'void-cancellation' });
    const onPinpad = showQr(wallet.display, this.deps.log, d.qrCode, { kind: 'wallet-qr', amount: d.amount });
    const until = watchUntil(d, wallet.watchMarginMs);
    try {
      await this.watch(id, {
        waiting: 'showing-code',
        pollMs: wallet.pollMs,
        expired: { kind: 'code-expired', ...(until ? { until } : {}) },
        stopped: () => this.#stopped,
        expiresAt: (x) => watchUntil(x, wallet.watchMarginMs),
        poll: async (x) => {
          const found = await wallet.host.applied(x.sale.paymentId, x.merchantVoidId);
          // The rulebook's wallet cancellation table: applied → done; not applied → watch on.
          const rule = decide(WALLET_CANCELLATION, found ? 'applied' : 'not-applied');
          return found && rule.decision === 'done' ? { kind: 'code-applied', voidId: found.voidId } : undefined;
        },
      });
    } finally {
      await onPinpad.clear();
    }
  }

  private entryOf(id: number): JournalEntry | undefined {
    return this.#d.journal.get(id);
  }

  async #drive(id: number, signal: AbortSignal): Promise<void> {
    const data = this.stateOf(this.entry(id)).data;
    const { card: saleCard, method } = data.sale;
    if (!saleCard || method === 'pix')
      throw new OmniposError('INTERNAL', `void ${id}: a card void of a sale without a card`);
    let read;
    try {
      read = await this.#d.card.readCard({ merchantOrderId: data.merchantVoidId, amount: data.amount, method }, signal);
    } catch (e) {
      const by = this.#reads.cancelledBy(id);
      await this.apply(
        id,
        signal.aborted && by ? { kind: 'cancel', by } : { kind: 'card-failed', reason: (e as Error).message },
      );
      return;
    }
    const mismatch = cardMismatch(saleCard, read.summary, this.#d.expiryKey);
    if (mismatch) {
      this.#d.log.warn(
        { id, saleId: data.sale.id, mismatch, maskedPan: read.summary.maskedPan },
        'void refused: not the sale’s card',
      );
      const card = journaledCard(read.summary, this.#d.expiryKey);
      await this.apply(id, { kind: 'card-mismatch', card, reason: `not the sale's card: ${mismatch}` });
      return;
    }
    await this.apply(id, { kind: 'card-read', card: this.#cards.hold(id, read) });
    if (signal.aborted) {
      await this.apply(id, { kind: 'cancel', by: this.#reads.cancelledBy(id) ?? 'ecr' });
      return;
    }
    // MerchantVoidDate is journaled with the move to `voiding`, before the request leaves.
    await this.apply(id, { kind: 'send', at: this.#d.clock.now().toISOString() });
  }

  /** Sends the void with the card data held in memory for this one request, then forgets it. */
  async #send(id: number, d: VoidData): Promise<HostVoidOutcome> {
    const held = this.#cards.take(id);
    if (!held || !d.card) return { kind: 'not-sent' };
    try {
      return await this.#d.host.void({
        sale: d.sale,
        merchantVoidId: d.merchantVoidId,
        amount: d.amount,
        date: new Date(d.sentAt ?? Date.now()),
        summary: held.summary,
        card: held.card,
      });
    } catch (e) {
      return { kind: 'unknown', reason: (e as Error).message };
    }
  }
}
