import type { JournalEntry, MerchantOrderIds } from '../../store/index.js';
import { OmniposError } from '../../core/index.js';
import { maskPanDigits } from '../../emv/index.js';
import type {
  CardNotPresentBackend,
  CnpRecurrenceStatus,
  CnpSaleOutcome,
  CnpSaveOutcome,
  SavedCardShown,
  SavedCardVault,
  TypedCard,
} from '../cnp-ports.js';
import { MachineOwner, type MachineStep, type OwnerDeps } from '../machine-owner.js';
import { SPEAKS_CORE } from '../machine-vocabulary.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type UndoTask } from '../outbox/tasks.js';
import type { ReceiptSubject } from '../ports.js';
import { cnpTransition } from './machine.js';
import type { CnpEffect, CnpInput, CnpPaymentRequest, CnpSaleData, CnpState, CnpStateName } from './types.js';

export type CnpEvent =
  | { type: 'state'; id: number; merchantOrderId: string; state: CnpStateName; input: string }
  | { type: 'alarm'; id: number; code: string; message: string };

export interface CnpEngineDeps extends OwnerDeps {
  orderIds: MerchantOrderIds;
  /** The card-not-present backend the configuration chose (`cardNotPresent.kind`). */
  host: CardNotPresentBackend;
  /** Where saved cards are kept (the token sealed): absent, no sale saves a card nor sells by one. */
  savedCards?: SavedCardVault;
  onEvent?: (event: CnpEvent) => void;
}

/** What a sale sends: the host's call with our order id, the typed card or the saved card's token in memory. */
type Send = (merchantOrderId: string) => Promise<CnpSaleOutcome>;

const DURABLE = new Set<CnpEffect['kind']>(['outbox.cnp-undo']);

/**
 * A request the backend threw on instead of answering: its refusals by name before anything is sent
 * (debit: CNP_DEBIT_NEEDS_AUTHENTICATION); what leaves and fails is an outcome, never a throw.
 */
function thrown(e: unknown): CnpSaleOutcome {
  return { answer: 'not-sent', detail: (e as Error).message };
}

/**
 * Owns card-not-present sales, as SaleEngine owns card sales: the row is journaled in `sending`
 * before the request leaves, the answer is decided by the rulebook's `sale` table, and what it
 * undoes goes to the outbox's undo race (`cnp.undo`, src/engine/outbox/attempts.ts).
 */
export class CnpEngine extends MachineOwner<CnpStateName, CnpSaleData, CnpInput, CnpEffect, CnpEvent> {
  readonly #d: CnpEngineDeps;

  constructor(deps: CnpEngineDeps) {
    super(deps, 'cnp', DURABLE, SPEAKS_CORE, deps.onEvent);
    this.#d = deps;
  }

  /**
   * Opens the journal row (`sending`, without the card), sends the sale with the typed card held
   * in memory for this one request, and applies its answer. A request the backend refuses by name
   * before sending (debit) ends `failed`, its reason the refusal's. `saveCard`: an approved sale's
   * token goes to the saved cards (sealed), the row keeps its `savedCardId` only.
   */
  async start(
    request: CnpPaymentRequest,
    card: TypedCard,
    options: { idempotencyKey?: string } = {},
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    if (request.saveCard) this.#vault();
    const send: Send = (merchantOrderId) =>
      this.#d.host.sale({ ...request, merchantOrderId, amountCents: request.amount, card });
    return this.#begin(request, {}, send, options, { maskedNumber: maskPanDigits(card.number), brand: card.brand });
  }

  /**
   * A sale by a saved card: the row journals the saved card's id (never its token), the token is
   * opened in memory for the one request. A card saved at another backend's host does not sell here.
   */
  async startByToken(
    request: CnpPaymentRequest,
    savedCardId: number,
    options: { idempotencyKey?: string; securityCode?: string } = {},
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    const saved = this.#vault().reveal(savedCardId);
    if (!saved) throw new OmniposError('NOT_FOUND', `no saved card ${savedCardId}`);
    if (saved.backend !== this.#d.host.kind)
      throw new OmniposError(
        'CNP_NOT_OFFERED',
        `saved card ${savedCardId} was saved at the ${saved.backend} host; this terminal sells through ${this.#d.host.kind}`,
      );
    const { saveCard: _never, ...asked } = request;
    const send: Send = (merchantOrderId) =>
      this.#d.host.saleByToken({
        ...asked,
        merchantOrderId,
        amountCents: request.amount,
        saved: { token: saved.token, brand: saved.brand },
        ...(options.securityCode !== undefined ? { securityCode: options.securityCode } : {}),
      });
    const data = { savedCardId, maskedNumber: saved.maskedNumber, brand: saved.brand };
    return this.#begin(asked, data, send, options);
  }

  #vault(): SavedCardVault {
    if (!this.#d.savedCards) throw new OmniposError('CNP_NOT_OFFERED', 'this terminal keeps no saved cards');
    return this.#d.savedCards;
  }

  async #begin(
    request: CnpPaymentRequest,
    known: Partial<CnpSaleData>,
    send: Send,
    options: { idempotencyKey?: string },
    typed?: { maskedNumber: string; brand: string },
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    return this.holdPayment(async (attach) => {
      await this.beforeSale({ receipt: false });
      const merchantOrderId = await this.#d.orderIds.next();
      const data: CnpSaleData = {
        request,
        merchantOrderId,
        backend: this.#d.host.kind,
        sentAt: this.#d.clock.now().toISOString(),
        ...known,
        ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      };
      const entry = this.#d.journal.open({
        kind: 'cnp',
        merchantOrderId,
        state: 'sending',
        amount: request.amount,
        data: { ...data },
        input: 'request',
        at: this.#d.clock.now(),
      });
      attach(entry.id);
      this.emit({ type: 'state', id: entry.id, merchantOrderId, state: 'sending', input: 'request' });
      const done = (async () => {
        let outcome: CnpSaleOutcome;
        try {
          outcome = await send(merchantOrderId);
        } catch (e) {
          outcome = thrown(e);
        }
        const { cardToken, ...answer } = outcome;
        const savedCardId = request.saveCard ? this.#keepCard(answer, cardToken, typed) : undefined;
        await this.apply(entry.id, {
          kind: 'answered',
          outcome: answer,
          ...(savedCardId !== undefined ? { savedCardId } : {}),
        });
      })();
      return { entry, done };
    });
  }

  /**
   * The token of a card an approved sale saved, to the saved cards (sealed); a declined or unclear
   * sale's card is not kept (the page: no token for a card not known good, ecom:3065-3066).
   */
  #keepCard(
    answer: Omit<CnpSaleOutcome, 'cardToken'>,
    token: string | undefined,
    typed: { maskedNumber: string; brand: string } | undefined,
  ): number | undefined {
    if (answer.answer !== 'approved' || !token || !typed || !this.#d.savedCards) return undefined;
    try {
      return this.#save(answer, token, typed, this.#d.savedCards);
    } catch (e) {
      // The sale stands whatever befalls the saved card: its answer is journaled next.
      this.#d.log.error({ err: (e as Error).message }, 'card-not-present: the approved sale’s card was not saved');
      return undefined;
    }
  }

  #save(
    answer: Omit<CnpSaleOutcome, 'cardToken'>,
    token: string,
    typed: { maskedNumber: string; brand: string },
    cards: SavedCardVault,
  ): number {
    const card = {
      backend: this.#d.host.kind,
      maskedNumber: answer.maskedNumber ?? typed.maskedNumber,
      brand: typed.brand,
    };
    return cards.save({ ...card, token }, this.#d.clock.now()).id;
  }

  /**
   * At start: a row still `sending` may have reached the host (the answer was lost with the
   * process): the undo race settles it, as an unknown answer's. A row `undoing` has its task made
   * sure of. A pre-authorization (`authorized`) waits for its capture or void.
   */
  recover(): { id: number; from: string; plan: string }[] {
    return this.recoverEntries(['sending', 'undoing'], (state) =>
      state.name === 'sending'
        ? {
            kind: 'transition',
            to: 'undoing',
            reason: 'stopped before the answer was journaled',
            effects: [{ kind: 'outbox.cnp-undo' }],
          }
        : { kind: 'ensure', effects: [{ kind: 'outbox.cnp-undo' }] },
    );
  }

  stop(): void {
    this.stopTimers();
  }

  /** The saved cards (listed, shown, removed by the local API); absent where the terminal keeps none. */
  get savedCards(): SavedCardVault | undefined {
    return this.#d.savedCards;
  }

  /**
   * Saves a card alone at the host (no money moves, so no journal row): the token it answers goes
   * sealed to the saved cards; answered by the saved card's id and what may be shown of it.
   */
  async saveCard(
    card: TypedCard,
  ): Promise<{ kind: 'saved'; card: SavedCardShown } | Exclude<CnpSaveOutcome, { kind: 'saved' }>> {
    const cards = this.#vault();
    const saved = await this.#d.host.saveCard(card);
    if (saved.kind !== 'saved') return saved;
    const { token, maskedNumber, brand } = saved;
    return {
      kind: 'saved',
      card: cards.save({ backend: this.#d.host.kind, maskedNumber, brand, token }, this.#d.clock.now()),
    };
  }

  /** The host's status of a recurrence a sale opened (e-commerce `GET /1/RecurrentPayment/{id}`). */
  recurrence(id: string): Promise<CnpRecurrenceStatus> {
    return this.#d.host.recurrence(id);
  }

  /* ---------------------------------------------------- the machine's hooks */

  protected transition(state: CnpState, input: CnpInput): MachineStep<CnpState, CnpEffect> {
    return cnpTransition(state, input);
  }

  protected stateEvent(id: number, state: CnpState, input: string): CnpEvent {
    return { type: 'state', id, merchantOrderId: state.data.merchantOrderId, state: state.name, input };
  }

  protected writeDurable(journalId: number, state: CnpState, effects: readonly CnpEffect[]): void {
    const d = state.data;
    for (const e of effects) {
      if (e.kind !== 'outbox.cnp-undo') continue;
      const task: UndoTask = {
        merchantOrderId: d.merchantOrderId,
        sentAt: d.sentAt,
        amount: d.request.amount,
        ...(d.paymentId ? { paymentId: d.paymentId } : {}),
      };
      this.#d.outbox.enqueue({
        journalId,
        operation: OUTBOX_OPERATIONS.cnpUndo,
        idempotencyKey: idempotencyKey('cnp-undo', d.merchantOrderId),
        payload: { ...task },
        at: this.#d.clock.now(),
      });
    }
  }

  protected receiptSubject(state: CnpState): ReceiptSubject {
    return {
      merchantOrderId: state.data.merchantOrderId,
      paymentType: 'credit',
      amount: state.data.request.amount,
      installments: state.data.request.installments,
    };
  }

  protected async run(id: number, state: CnpState, effect: CnpEffect): Promise<void> {
    await this.runShared(id, state, effect);
  }
}
