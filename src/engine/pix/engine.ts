import type { JournalEntry } from '../../store/index.js';
import { CodeSaleOwner, type CodeSaleDeps, type CodeSaleRecovery } from '../code-sale-owner.js';
import type { MachineStep } from '../machine-owner.js';
import { SPEAKS_ALL } from '../machine-vocabulary.js';
import type { PixTask } from '../outbox/pix.js';
import { OUTBOX_OPERATIONS, idempotencyKey } from '../outbox/tasks.js';
import type { PixCreatePort, ReceiptSubject } from '../ports.js';
import type { SaleContext } from '../sale/types.js';
import { codeTimes, watchUntil } from '../code-times.js';
import { pixTransition } from './machine.js';
import { showQr, type QrDisplayPort } from '../qr/code-port.js';
import { unfinishedStates } from '../state-lists.js';
import {
  PIX_FINAL,
  PIX_STATES,
  type PixCreation,
  type PixEffect,
  type PixInput,
  type PixSaleData,
  type PixSaleRequest,
  type PixState,
  type PixStateName,
} from './types.js';

export type PixEvent =
  | { type: 'state'; id: number; merchantOrderId: string; state: PixStateName; input: string }
  /** Show this copy-and-paste code (and its QR) to the payer. */
  | { type: 'qr'; id: number; qrCode: string; expiresAt: string }
  | { type: 'alarm'; id: number; code: string; message: string }
  | { type: 'receipt-question'; id: number };

export type { PixCreatePort } from '../ports.js';

export interface PixEngineDeps extends CodeSaleDeps {
  host: PixCreatePort;
  /** How long the code is shown and watched, ms; a cancelled code is watched that long plus the margin. */
  validityMs: number;
  watchMarginMs: number;
  pollMs: number;
  /** The customer's display (the pinpad): the code as an image, or a text. */
  display?: QrDisplayPort;
  onEvent?: (event: PixEvent) => void;
}

const DURABLE = new Set<PixEffect['kind']>(['outbox.pix-cancel', 'outbox.pix-refund']);

/** The states a restart finds an unfinished Pix sale in: all but the final ones. */
const PIX_UNFINISHED = unfinishedStates(PIX_STATES, PIX_FINAL);

/** Owns Pix sales, as SaleEngine owns card sales. */
export class PixEngine extends CodeSaleOwner<PixStateName, PixSaleData, PixInput, PixEffect, PixEvent, PixSaleRequest> {
  readonly #d: PixEngineDeps;

  constructor(deps: PixEngineDeps) {
    super(deps, 'pix', 'Pix', DURABLE, SPEAKS_ALL, deps.onEvent);
    this.#d = deps;
  }

  /** Opens the journal row, creates the charge (the row says `creating` before the request leaves), shows it, watches it. */
  protected async startHeld(
    request: PixSaleRequest,
    options: { idempotencyKey?: string },
    attach: (id: number) => void,
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    await this.beforeSale(request);
    const { entry, data } = await this.openRow(request, options, 'creating', attach);
    const { merchantOrderId } = data;
    this.emit({ type: 'state', id: entry.id, merchantOrderId, state: 'creating', input: 'request' });
    const done = (async () => {
      let result: PixCreation;
      try {
        result = await this.#d.host.create({ merchantOrderId, amount: request.amount, payer: request.payer });
      } catch (e) {
        result = { kind: 'unknown', reason: (e as Error).message };
      }
      await this.apply(entry.id, { kind: 'created', result, ...codeTimes(this.#d.clock.now(), this.#d) });
    })();
    return { entry, done };
  }

  /**
   * At start: a charge being created was never shown (failed); a code that was showing is
   * cancelled and watched; a paid sale whose receipt was not out is refunded; decisions wait
   * for their deadline; outbox requests are made sure of.
   */
  recover(): { id: number; from: string; plan: string }[] {
    return this.recoverCodeSales(PIX_UNFINISHED, (state): CodeSaleRecovery<PixStateName, PixEffect> => {
      const to = (name: PixStateName, reason: string, effects: PixEffect[]) =>
        ({ kind: 'transition', to: name, reason, effects }) as const;
      switch (state.name) {
        case 'creating':
          return to(
            'failed',
            'stopped before the code was shown',
            state.data.paymentId ? [{ kind: 'outbox.pix-cancel' }] : [],
          );
        case 'showing':
          return to('cancelling', 'stopped while the code was showing', [{ kind: 'outbox.pix-cancel' }]);
        case 'approved':
          return to('refunding', 'stopped before the receipt was out', [{ kind: 'outbox.pix-refund' }]);
        case 'printing':
          return { kind: 'printing' };
        case 'awaiting-decision':
          return { kind: 'decision', to: 'refunding', effects: [{ kind: 'outbox.pix-refund' }] };
        default:
          return {
            kind: 'ensure',
            effect: { kind: state.name === 'cancelling' ? 'outbox.pix-cancel' : 'outbox.pix-refund' },
          };
      }
    });
  }

  /* ---------------------------------------------------- the machine's hooks */

  protected transition(state: PixState, input: PixInput, ctx: SaleContext): MachineStep<PixState, PixEffect> {
    return pixTransition(state, input, ctx);
  }

  protected stateEvent(id: number, state: PixState, input: string): PixEvent {
    return { type: 'state', id, merchantOrderId: state.data.merchantOrderId, state: state.name, input };
  }

  protected writeDurable(journalId: number, state: PixState, effects: readonly PixEffect[]): void {
    const at = this.#d.clock.now();
    const d = state.data;
    for (const e of effects) {
      if (!d.paymentId || (e.kind !== 'outbox.pix-cancel' && e.kind !== 'outbox.pix-refund')) continue;
      const cancel = e.kind === 'outbox.pix-cancel';
      const payload: PixTask = {
        merchantOrderId: d.merchantOrderId,
        paymentId: d.paymentId,
        ...(cancel ? { until: watchUntil(d.expiresAt ?? at.toISOString(), this.#d) } : {}),
      };
      this.#d.outbox.enqueue({
        journalId,
        operation: cancel ? OUTBOX_OPERATIONS.pixCancel : OUTBOX_OPERATIONS.pixRefund,
        idempotencyKey: idempotencyKey(cancel ? 'pix-cancel' : 'pix-refund', d.merchantOrderId),
        payload: { ...payload },
        at,
      });
    }
  }

  protected receiptSubject(state: PixState): ReceiptSubject {
    return {
      merchantOrderId: state.data.merchantOrderId,
      paymentType: 'pix',
      amount: state.data.request.amount,
      installments: 1,
    };
  }

  protected async run(id: number, state: PixState, effect: PixEffect): Promise<void> {
    if (await this.runShared(id, state, effect)) return;
    if (effect.kind !== 'watch.payment') return;
    this.emit({ type: 'qr', id, qrCode: state.data.qrCode ?? '', expiresAt: state.data.expiresAt ?? '' });
    const onPinpad = showQr(this.#d.display, this.deps.log, state.data.qrCode ?? '', {
      kind: 'pix',
      amount: state.data.request.amount,
    });
    // Asks for the charge's status until it is paid, the code expires, or the sale leaves `showing`.
    await this.watch(id, {
      waiting: 'showing',
      pollMs: this.#d.pollMs,
      expired: { kind: 'expired' },
      stopped: () => this.stopped,
      expiresAt: (d) => d.expiresAt,
      poll: async (d) => {
        const s = await this.#d.host.status(d.paymentId ?? '');
        return s.kind === 'found' && s.status === 'paid' ? { kind: 'paid' } : undefined;
      },
    });
    await onPinpad.clear();
  }
}
