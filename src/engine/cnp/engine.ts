import type { JournalEntry, MerchantOrderIds } from '../../store/index.js';
import type { CardNotPresentBackend, CnpSaleOutcome, TypedCard } from '../cnp-ports.js';
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
  onEvent?: (event: CnpEvent) => void;
}

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
   * before sending (debit) ends `failed`, its reason the refusal's. `card` may be a reading (the
   * pinpad's keys): it runs holding the terminal's payment lock, before the row opens; a reading
   * that throws (cancelled, refused) opens no row.
   */
  async start(
    request: CnpPaymentRequest,
    card: TypedCard | (() => Promise<TypedCard>),
    options: { idempotencyKey?: string } = {},
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    return this.holdPayment(async (attach) => {
      await this.beforeSale({ receipt: false });
      const typed = typeof card === 'function' ? await card() : card;
      const merchantOrderId = await this.#d.orderIds.next();
      const data: CnpSaleData = {
        request,
        merchantOrderId,
        backend: this.#d.host.kind,
        sentAt: this.#d.clock.now().toISOString(),
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
          outcome = await this.#d.host.sale({ ...request, merchantOrderId, amountCents: request.amount, card: typed });
        } catch (e) {
          outcome = thrown(e);
        }
        await this.apply(entry.id, { kind: 'answered', outcome });
      })();
      return { entry, done };
    });
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
