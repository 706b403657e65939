import { isOmniposError } from '../../core/index.js';
import type { ExpiryKey, JournalEntry, MerchantOrderIds } from '../../store/index.js';
import { CardReads } from '../card-reads.js';
import { chipFinished, finishChipSession } from '../chip-session.js';
import { HeldCards } from '../held-cards.js';
import { MachineOwner, type MachineStep, type OwnerDeps } from '../machine-owner.js';
import { SPEAKS_ALL } from '../machine-vocabulary.js';
import { idempotencyKey } from '../outbox/tasks.js';
import type { CardPort, CardPromptCode, PromptListener, ReceiptSubject, SaleAuthorizationPort } from '../ports.js';
import { undoRequestTags } from './chip-tags.js';
import { chipMessage, saleOutboxTasks } from './durable.js';
import { saleTransition } from './machine.js';
import { planRecovery } from './recovery.js';
import { paymentStatus, type PaymentStatus } from './status.js';
import { unfinishedStates } from '../state-lists.js';
import {
  FINAL_STATES,
  SALE_STATES,
  type HostSaleOutcome,
  type SaleContext,
  type SaleData,
  type SaleEffect,
  type SaleInput,
  type SaleRequest,
  type SaleState,
  type SaleStateName,
} from './types.js';

export type SaleEvent =
  | { type: 'state'; id: number; merchantOrderId: string; state: SaleStateName; status: PaymentStatus; input: string }
  | { type: 'alarm'; id: number; code: string; message: string }
  | { type: 'receipt-question'; id: number }
  /** What the pinpad shows the customer during the sale: a stable code and the Portuguese text. */
  | { type: 'prompt'; id: number; merchantOrderId: string; prompt: CardPromptCode; text: string };

/** A card sale's request: `entry: 'typed'` has the card number typed on the pinpad (where the tables allow). */
export type CardSaleRequest = SaleRequest & { entry?: 'card' | 'typed' };

export interface SaleEngineDeps extends OwnerDeps {
  orderIds: MerchantOrderIds;
  card: CardPort;
  host: SaleAuthorizationPort;
  /** The terminal's key for the card's expiry: the journal keeps its keyed hash only. */
  expiryKey: ExpiryKey;
  onEvent?: (event: SaleEvent) => void;
}

const DURABLE = new Set<SaleEffect['kind']>(['outbox.confirm', 'outbox.undo', 'outbox.undo-emv']);

/**
 * Owns card sales: runs the pure machine (commit first, outbox requests in the same
 * transaction, then the effects on the ports); each sale holds the terminal's payment lock
 * (MachineOwner.holdPayment) from its start until its flow is over.
 */
export class SaleEngine extends MachineOwner<SaleStateName, SaleData, SaleInput, SaleEffect, SaleEvent> {
  readonly #d: SaleEngineDeps;
  readonly #reads = new CardReads();
  readonly #cards: HeldCards;

  constructor(deps: SaleEngineDeps) {
    super(deps, 'sale', DURABLE, SPEAKS_ALL, deps.onEvent);
    this.#d = deps;
    this.#cards = new HeldCards(deps.expiryKey);
  }

  /** Opens the journal row (committed before anything else) and runs the sale in the background. */
  async start(
    request: CardSaleRequest,
    options: { idempotencyKey?: string } = {},
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    return this.holdPayment((attach) => this.#start(request, options, attach));
  }

  async #start(
    request: CardSaleRequest,
    options: { idempotencyKey?: string },
    attach: (id: number) => void,
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    await this.beforeSale(request);
    // What the tables refuse whatever the card (typed entry for this method): refused before a journal row.
    this.#d.card.accepts?.({
      merchantOrderId: '',
      amount: request.amount,
      method: request.method,
      installments: request.installments,
      interest: request.interest,
      ...(request.entry ? { entry: request.entry } : {}),
    });
    const merchantOrderId = await this.#d.orderIds.next();
    const data: SaleData = {
      request,
      merchantOrderId,
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    };
    const entry = this.#d.journal.open({
      kind: 'sale',
      merchantOrderId,
      state: 'started',
      amount: request.amount,
      data: { ...data },
      input: 'request',
      at: this.#d.clock.now(),
    });
    attach(entry.id);
    this.emit({ type: 'state', id: entry.id, merchantOrderId, state: 'started', status: 'pending', input: 'request' });
    const signal = this.#reads.open(entry.id);
    const done = this.#drive(entry.id, signal).finally(() => {
      this.#cards.forget(entry.id);
      this.#reads.close(entry.id);
    });
    return { entry, done };
  }

  /** The cash register, the customer or an operator cancels. Whatever was approved is undone. */
  async cancel(id: number, by: 'ecr' | 'customer' | 'operator'): Promise<void> {
    const entry = this.entry(id);
    // The card read in progress ends and the sale's own flow records the cancel.
    if (this.#reads.cancel(id, by) && entry.state === 'started') return;
    await this.apply(id, { kind: 'cancel', by });
  }

  /** The cash register's decision on an approved sale. */
  async decide(id: number, decision: 'confirm' | 'undo', by: 'ecr' | 'operator' = 'ecr'): Promise<JournalEntry> {
    this.assertDecidable(id, decision, 'sale');
    await this.apply(id, { kind: 'decision', decision, by });
    return this.entry(id);
  }

  /**
   * At start, before any new sale: decides and records what each unfinished sale needs
   * (docs/architecture.md, "Recovery"); the outbox delivers it.
   */
  recover(): { id: number; from: string; plan: string }[] {
    const ctx = this.ctx();
    return this.recoverEntries(unfinishedStates(SALE_STATES, FINAL_STATES), (state) => planRecovery(state, ctx));
  }

  stop(): void {
    this.stopTimers();
    this.#reads.stopAll();
  }

  /* ---------------------------------------------------- the machine's hooks */

  protected transition(state: SaleState, input: SaleInput, ctx: SaleContext): MachineStep<SaleState, SaleEffect> {
    return saleTransition(state, input, ctx);
  }

  protected stateEvent(id: number, state: SaleState, input: string): SaleEvent {
    return {
      type: 'state',
      id,
      merchantOrderId: state.data.merchantOrderId,
      state: state.name,
      status: paymentStatus(state.name),
      input,
    };
  }

  /** Writes the outbox requests of `effects` (idempotent: one task per sale and operation). */
  protected writeDurable(journalId: number, state: SaleState, effects: readonly SaleEffect[]): void {
    const d = state.data;
    for (const task of saleOutboxTasks(journalId, d, effects, this.#d.clock.now())) this.#d.outbox.enqueue(task);
    if (effects.some((e) => e.kind === 'outbox.undo-emv') && d.emv) {
      // The card finished after the undo was written: the pending undo carries the tags after FCX.
      const t = this.#d.outbox.byKey(idempotencyKey('undo', d.merchantOrderId));
      if (t && t.doneAt === null && t.deadLetterReason === null)
        this.#d.outbox.updatePayload(t.id, { ...t.payload, emv: d.emv });
    }
  }

  protected receiptSubject(state: SaleState): ReceiptSubject {
    const d = state.data;
    return {
      merchantOrderId: d.merchantOrderId,
      paymentType: d.request.method,
      amount: d.request.amount,
      installments: d.request.installments,
      interest: d.request.interest,
      ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
      ...(d.nsu ? { nsu: d.nsu } : {}),
      ...(d.card
        ? {
            maskedPan: d.card.maskedPan,
            cvm: d.card.authenticationMethod === 'OnlineAuthentication' ? ('pin' as const) : ('none' as const),
          }
        : {}),
      ...(d.hostReceipt ? { hostReceipt: d.hostReceipt } : {}),
    };
  }

  protected async run(id: number, state: SaleState, effect: SaleEffect): Promise<void> {
    if (await this.runShared(id, state, effect)) return;
    const { card, log } = this.#d;
    switch (effect.kind) {
      case 'acquirer.sale':
        await this.apply(id, { kind: 'host-answer', outcome: await this.#authorize(id, state.data) });
        return;
      case 'pinpad.finish-chip': {
        const host = {
          ...(state.data.authorizationCode ? { authorizationCode: state.data.authorizationCode } : {}),
          ...(state.data.emvResponse ? { emvResponse: state.data.emvResponse } : {}),
        };
        // The card's session is over: the closing message (and RMC while the chip is in) before the sale moves on.
        const result = await finishChipSession(
          card,
          { decision: effect.decision, host },
          (c) => chipMessage(state, effect, c, this.stateOf(this.entry(id)).data.cancelRequested === true),
          log,
          id,
          this.#prompts(id, state.data.merchantOrderId),
        );
        if (state.name === 'finishing-chip') {
          await this.apply(id, chipFinished(result));
        } else if (result.emv && Object.keys(result.emv).length > 0 && this.entry(id).state === 'undoing') {
          // Timeout or anomaly: the sale was already being undone; the undo takes the card's tags after FCX.
          await this.apply(id, { kind: 'chip-data', emv: result.emv });
        }
        return;
      }
      case 'pinpad.end':
        await card
          .end(effect.message, this.#prompts(id, state.data.merchantOrderId))
          .catch((e: unknown) => log.warn({ id, err: e }, 'pinpad end failed'));
        return;
      default:
        return;
    }
  }

  /* ------------------------------------------------------------ internals */

  /** The sale's prompt listener: each prompt the pinpad shows becomes a `prompt` event of sale `id`. */
  #prompts(id: number, merchantOrderId: string): PromptListener {
    return (p) => this.emit({ type: 'prompt', id, merchantOrderId, prompt: p.prompt, text: p.text });
  }

  async #drive(id: number, signal: AbortSignal): Promise<void> {
    const data = this.stateOf(this.entry(id)).data;
    const r = data.request as CardSaleRequest;
    let read;
    try {
      read = await this.#d.card.readCard(
        {
          merchantOrderId: data.merchantOrderId,
          amount: r.amount,
          method: r.method,
          installments: r.installments,
          interest: r.interest,
          ...(r.entry ? { entry: r.entry } : {}),
        },
        signal,
        this.#prompts(id, data.merchantOrderId),
      );
    } catch (e) {
      const by = this.#reads.cancelledBy(id);
      // The customer's cancel key on the pinpad ends the read as a cancel, not as a failed card.
      const customer = isOmniposError(e, 'ENGINE_CANCELLED') && e.context.by === 'customer';
      // The tables do not take this card for the sale (its method, installments, expiry…): refused, not cancelled.
      const refused = isOmniposError(e, 'INIT_CARD_REFUSED');
      await this.apply(
        id,
        signal.aborted && by
          ? { kind: 'cancel', by }
          : customer
            ? { kind: 'cancel', by: 'customer' }
            : refused
              ? {
                  kind: 'card-refused',
                  reason: e.message,
                  refusal: typeof e.context.reason === 'string' ? e.context.reason : 'refused',
                }
              : { kind: 'card-failed', reason: (e as Error).message },
      );
      return;
    }
    if (read.summary.productId === undefined) {
      // Nothing can be sent without a product: the tables do not take this card for this method.
      await this.apply(id, {
        kind: 'card-refused',
        reason: `the tables have no ${data.request.method} product for this card`,
        refusal: 'no-product-of-type',
      });
      return;
    }
    const card = this.#cards.hold(id, read);
    const emv = read.summary.chip ? undoRequestTags(read.card.emvData) : undefined;
    await this.apply(id, { kind: 'card-read', card, ...(emv ? { emv } : {}) });
    if (signal.aborted) {
      await this.apply(id, { kind: 'cancel', by: this.#reads.cancelledBy(id) ?? 'ecr' });
      return;
    }
    await this.apply(id, { kind: 'authorize' });
  }

  /** Sends the sale with the card data held in memory for this one request, then forgets it. */
  async #authorize(id: number, d: SaleData): Promise<HostSaleOutcome> {
    const held = this.#cards.take(id);
    if (!held || !d.card) return { kind: 'not-sent' };
    try {
      return await this.#d.host.authorize({
        merchantOrderId: d.merchantOrderId,
        request: d.request,
        summary: held.summary,
        card: held.card,
        paymentDateTime: new Date(d.sentAt ?? Date.now()),
      });
    } catch (e) {
      return { kind: 'unknown', reason: (e as Error).message };
    }
  }
}
