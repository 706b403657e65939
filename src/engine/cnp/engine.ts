import type { JournalEntry, MerchantOrderIds } from '../../store/index.js';
import { maskPanDigits } from '../../emv/index.js';
import type {
  CardNotPresentBackend,
  CnpChangeOutcome,
  CnpPromptListener,
  CnpRecurrenceStatus,
  CnpSaleOutcome,
  SavedCardVault,
  TypedCard,
} from '../cnp-ports.js';
import { MachineOwner, type MachineStep, type OwnerDeps } from '../machine-owner.js';
import { SPEAKS_CORE } from '../machine-vocabulary.js';
import { OmniposError } from '../../core/index.js';
import { captureDeadline, checkChange } from './checks.js';
import { cnpTask } from './durable.js';
import { saveAtHost } from './save-card.js';
import type { ReceiptSubject } from '../ports.js';
import { cnpTransition } from './machine.js';
import type {
  CnpChange,
  CnpEffect,
  CnpInput,
  CnpPaymentRequest,
  CnpSaleData,
  CnpState,
  CnpStateName,
} from './types.js';

import { NO_ROW_YET, type CnpEvent, type CnpSavedCard } from './events.js';

export { NO_ROW_YET, type CnpEvent, type CnpSavedCard };

export interface CnpEngineDeps extends OwnerDeps {
  orderIds: MerchantOrderIds;
  /** The card-not-present backend the configuration chose (`cardNotPresent.kind`). */
  host: CardNotPresentBackend;
  /** Where saved cards are kept (the token sealed): absent, no sale saves a card nor sells by one. */
  savedCards?: SavedCardVault;
  onEvent?: (event: CnpEvent) => void;
}

/** A capture's or void's end: the row after its answer, and what the answer was (`unknown`: the outbox settles it). */
export interface CnpChangeResult {
  entry: JournalEntry;
  outcome: CnpChangeOutcome['kind'];
  detail: string;
}

/** What a sale sends: the host's call with our order id, the typed card or the saved card's token in memory. */
type Send = (merchantOrderId: string) => Promise<CnpSaleOutcome>;

/** What a sale is, once the card is in hand (read inside the payment lock): its call and what the row keeps. */
interface Prepared {
  send: Send;
  known: Partial<CnpSaleData>;
  typed?: { maskedNumber: string; brand: string };
}

const DURABLE = new Set<CnpEffect['kind']>(['outbox.cnp-undo', 'outbox.cnp-capture', 'outbox.cnp-void-part']);

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
   * before sending (debit) ends `failed`, its reason the refusal's. `card` may be a reading (the
   * pinpad's keys): it runs holding the terminal's payment lock, before the row opens; a reading
   * that throws (cancelled, refused) opens no row. The reading is given a listener that publishes
   * each field the pinpad asks for (a `prompt` event, never a digit). `saveCard`: an approved sale's
   * token goes to the saved cards (sealed), the row keeps its `savedCardId` only.
   */
  async start(
    request: CnpPaymentRequest,
    card: TypedCard | ((onPrompt: CnpPromptListener) => Promise<TypedCard>),
    options: { idempotencyKey?: string } = {},
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    if (request.saveCard) this.#vault();
    const key = options.idempotencyKey;
    const onPrompt: CnpPromptListener = ({ prompt, text }) =>
      this.emit({ type: 'prompt', kind: 'cnp', id: NO_ROW_YET, prompt, text, ...(key ? { idempotencyKey: key } : {}) });
    return this.#begin(request, options, async () => {
      const typed = typeof card === 'function' ? await card(onPrompt) : card;
      // What the row keeps of the card from the start, whatever the host echoes (the webservice 1.5 echoes none).
      const shown = { maskedNumber: typed.maskedNumber ?? maskPanDigits(typed.number), brand: typed.brand };
      return {
        send: (merchantOrderId) =>
          this.#d.host.sale({ ...request, merchantOrderId, amountCents: request.amount, card: typed }),
        known: shown,
        typed: shown,
      };
    });
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
    const known = { savedCardId, maskedNumber: saved.maskedNumber, brand: saved.brand };
    return this.#begin(asked, options, () => Promise.resolve({ send, known }));
  }

  #vault(): SavedCardVault {
    if (!this.#d.savedCards) throw new OmniposError('CNP_NOT_OFFERED', 'this terminal keeps no saved cards');
    return this.#d.savedCards;
  }

  /** Holding the payment lock: the card in hand (`prepare`), then the row opened, then the call. */
  async #begin(
    request: CnpPaymentRequest,
    options: { idempotencyKey?: string },
    prepare: () => Promise<Prepared>,
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    return this.holdPayment(async (attach) => {
      await this.beforeSale({ receipt: false });
      const prepared = await prepare();
      const merchantOrderId = await this.#d.orderIds.next();
      const data: CnpSaleData = {
        request,
        merchantOrderId,
        backend: this.#d.host.kind,
        sentAt: this.#d.clock.now().toISOString(),
        ...prepared.known,
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
          outcome = await prepared.send(merchantOrderId);
        } catch (e) {
          outcome = thrown(e);
        }
        const { cardToken, ...answer } = outcome;
        const savedCardId = request.saveCard ? this.#keepCard(answer, cardToken, prepared.typed) : undefined;
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
   * Captures a pre-authorization, whole (no amount) or in part, within the host's deadline; see {@link change}.
   */
  capture(id: number, amount?: number): Promise<CnpChangeResult> {
    return this.change(id, 'capture', amount);
  }

  /** Voids a pre-authorization (whole) or a captured sale (whole, or a part of what remains); see {@link change}. */
  void(id: number, amount?: number): Promise<CnpChangeResult> {
    return this.change(id, 'void', amount);
  }

  /**
   * A capture or void: checked against the host's rules (checks.ts), journaled (`capturing`,
   * `voiding`) before it leaves, and moved by its answer: done, refused (the row back where it
   * was), or lost (the row stays, its outbox task settles it). Resolves with the row after the
   * answer and what the answer was.
   */
  async change(id: number, op: CnpChange['op'], amount?: number): Promise<CnpChangeResult> {
    const entry = this.entry(id);
    const state = this.stateOf(entry);
    const asked = checkChange(state, op, amount, this.#d.host.rules, this.#d.clock.now());
    const change: CnpChange = { ...asked, sentAt: this.#d.clock.now().toISOString() };
    const step = cnpTransition(state, { kind: 'change', change });
    if (!step.ok) throw new OmniposError('NOT_ALLOWED', step.reason);
    this.commit(entry, step.state, step.input, step.effects);
    const paymentId = state.data.paymentId ?? '';
    let outcome: CnpChangeOutcome;
    try {
      outcome =
        op === 'capture'
          ? await this.#d.host.capture(paymentId, change.amount)
          : await this.#d.host.void(paymentId, change.amount);
    } catch (e) {
      outcome = { kind: 'unknown', detail: (e as Error).message };
    }
    await this.apply(id, { kind: 'changed', outcome });
    return { entry: this.entry(id), outcome: outcome.kind, detail: outcome.detail };
  }

  /** The capture deadline of a pre-authorized row (the host's days from when the sale left). */
  captureDeadline(entry: JournalEntry): Date {
    return captureDeadline(this.stateOf(entry), this.#d.host.rules);
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
    return this.recoverEntries(['sending', 'undoing', 'capturing', 'voiding'], (state) => {
      if (state.name === 'sending')
        return {
          kind: 'transition',
          to: 'undoing',
          reason: 'stopped before the answer was journaled',
          effects: [{ kind: 'outbox.cnp-undo' }],
        };
      // A capture or void in flight may have reached the host: its settlement's task, as a lost answer's.
      const c = state.data.change;
      if (state.name !== 'undoing' && c)
        return {
          kind: 'ensure',
          effects: [
            c.op === 'capture'
              ? { kind: 'outbox.cnp-capture' }
              : c.amount === undefined
                ? { kind: 'outbox.cnp-undo' }
                : { kind: 'outbox.cnp-void-part' },
          ],
        };
      return { kind: 'ensure', effects: [{ kind: 'outbox.cnp-undo' }] };
    });
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
   * sealed to the saved cards; answered by the saved card's id and what may be shown of it. `card`
   * may be a reading (the pinpad's keys): it runs holding the terminal's payment lock, as a sale's.
   * `idempotencyKey`: the card this key saved already is answered again (`again`), nothing typed.
   */
  async saveCard(
    card: TypedCard | (() => Promise<TypedCard>),
    options: { idempotencyKey?: string } = {},
  ): Promise<CnpSavedCard> {
    const cards = this.#vault();
    if (typeof card !== 'function') return this.#saveAt(cards, card, options.idempotencyKey);
    const held = await this.holdPayment(async () => {
      const again = options.idempotencyKey ? cards.byIdempotencyKey(options.idempotencyKey) : undefined;
      const saved: CnpSavedCard = again
        ? { kind: 'saved', card: again, again: true }
        : await this.#saveAt(cards, await card(), options.idempotencyKey);
      return { saved, done: Promise.resolve() };
    });
    return held.saved;
  }

  async #saveAt(cards: SavedCardVault, card: TypedCard, idempotencyKey: string | undefined): Promise<CnpSavedCard> {
    const saved = await saveAtHost(this.#d.host, card);
    if (saved.kind === 'unknown')
      this.#d.log.warn({ detail: saved.detail }, 'card-not-present: a card save unanswered');
    if (saved.kind !== 'saved') return saved;
    const { token, maskedNumber, brand } = saved;
    const keep = { backend: this.#d.host.kind, maskedNumber, brand, token };
    return { kind: 'saved', card: cards.save(keep, this.#d.clock.now(), idempotencyKey) };
  }

  /** Whether the backend's host schedules recurrences (`RecurrentPayment`); the webservice 1.5 does not. */
  get schedulesRecurrences(): boolean {
    return this.#d.host.schedulesRecurrences;
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
    for (const e of effects) {
      const task = cnpTask(state, e);
      if (task) this.#d.outbox.enqueue({ journalId, ...task, at: this.#d.clock.now() });
    }
  }

  protected receiptSubject(state: CnpState): ReceiptSubject {
    return {
      merchantOrderId: state.data.merchantOrderId,
      paymentType: 'credit',
      amount: state.data.request.amount,
      installments: state.data.request.installments,
      ...(state.data.authorizationCode ? { authorizationCode: state.data.authorizationCode } : {}),
      ...(state.data.maskedNumber ? { maskedPan: state.data.maskedNumber } : {}),
      ...(state.data.brand ? { brand: state.data.brand } : {}),
    };
  }

  protected async run(id: number, state: CnpState, effect: CnpEffect): Promise<void> {
    await this.runShared(id, state, effect);
  }
}
