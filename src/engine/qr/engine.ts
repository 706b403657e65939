import { OmniposError } from '../../core/index.js';
import { nextNsu, type JournalEntry } from '../../store/index.js';
import { CodeSaleOwner, type CodeSaleDeps, type CodeSaleRecovery } from '../code-sale-owner.js';
import type { MachineStep } from '../machine-owner.js';
import { SPEAKS_ALL } from '../machine-vocabulary.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type ConfirmTask, type UndoTask } from '../outbox/tasks.js';
import type { WatchTask } from '../outbox/watch.js';
import type { AcquirerDeliveryPort, ReceiptSubject } from '../ports.js';
import type { SaleContext } from '../sale/types.js';
import type { MerchantProfile } from './code.js';
import { showQr, terminalQrCodes, type QrCodePort, type QrDisplayPort } from './code-port.js';
import { codeTimes, watchUntil } from '../code-times.js';
import { qrTransition } from './machine.js';
import { unfinishedStates } from '../state-lists.js';
import {
  QR_FINAL,
  QR_STATES,
  type QrEffect,
  type QrInput,
  type QrSaleData,
  type QrSaleRequest,
  type QrState,
  type QrStateName,
} from './types.js';

export type QrEvent =
  | { type: 'state'; id: number; merchantOrderId: string; state: QrStateName; input: string }
  /** Show this code to the customer (screen, pinpad display, paper on request). */
  | { type: 'qr'; id: number; qrCode: string; expiresAt: string }
  | { type: 'alarm'; id: number; code: string; message: string }
  | { type: 'receipt-question'; id: number };

export interface QrEngineDeps extends CodeSaleDeps {
  host: AcquirerDeliveryPort;
  /** What the code says of the merchant; without it (and without `codes`) new QR sales are refused (recovery still runs). */
  merchant?: MerchantProfile;
  /** Where codes come from (the terminal builds them from `merchant` unless another adapter is given). */
  codes?: QrCodePort;
  /** The customer's display (the pinpad): the code as an image, or a text. */
  display?: QrDisplayPort;
  /** How long a code can be paid, ms (shared with the sandbox's check of 81.01). */
  validityMs: number;
  /** How long after the validity a cancelled or expired code is still watched, ms. */
  watchMarginMs: number;
  /** How often the host is asked whether the code was paid, ms. */
  pollMs: number;
  onEvent?: (event: QrEvent) => void;
}

const DURABLE = new Set<QrEffect['kind']>(['outbox.confirm', 'outbox.undo', 'outbox.watch']);

/** The states a restart finds an unfinished wallet QR sale in: all but the final ones. */
const QR_UNFINISHED = unfinishedStates(QR_STATES, QR_FINAL);

/** Owns wallet QR sales, as SaleEngine owns card sales: commit first, then effects. */
export class QrEngine extends CodeSaleOwner<QrStateName, QrSaleData, QrInput, QrEffect, QrEvent, QrSaleRequest> {
  readonly #d: QrEngineDeps;

  constructor(deps: QrEngineDeps) {
    super(deps, 'qr', 'QR sale', DURABLE, SPEAKS_ALL, deps.onEvent);
    this.#d = deps;
  }

  /** Opens the journal row, builds and shows the code, and watches for the payment in the background. */
  protected async startHeld(
    request: QrSaleRequest,
    options: { idempotencyKey?: string },
    attach: (id: number) => void,
  ): Promise<{ entry: JournalEntry; done: Promise<void> }> {
    await this.beforeSale(request);
    const codes = this.#d.codes ?? (this.#d.merchant ? terminalQrCodes(this.#d.merchant) : undefined);
    if (!codes)
      throw new OmniposError(
        'ENGINE_NOT_ALLOWED',
        "wallet QR sales need the merchant's data of an initialized terminal",
      );
    const { clock, db } = this.#d;
    // A code the host makes is marked, so its watch, confirmation and undo go to that host.
    const provider = codes.provider === 'terminal' ? {} : { provider: codes.provider };
    const { entry, data } = await this.openRow(request, options, 'started', attach, provider);
    const { merchantOrderId } = data;
    let input: QrInput;
    try {
      const issuedAt = clock.now();
      const nsu = nextNsu(db);
      const issued = await codes.issue({ request, merchantOrderId, nsu, issuedAt });
      // The host's sale id is journaled before its code is shown.
      if (issued.paymentId)
        this.commit(
          entry,
          { name: 'started', data: { ...data, ...provider, paymentId: issued.paymentId } },
          'code issued by the host',
          [],
        );
      input = { kind: 'shown', qrCode: issued.qrCode, nsu, ...codeTimes(issuedAt, this.#d) };
    } catch (e) {
      input = { kind: 'build-failed', reason: (e as Error).message };
    }
    const done = this.apply(entry.id, input);
    return { entry, done };
  }

  /**
   * At start: a code never shown is cancelled; a code that was showing is watched until its
   * validity ends (a payment that came while we were down is undone, never kept); a paid sale
   * whose receipt was not out is undone; decisions wait for their deadline; outbox requests are
   * made sure of.
   */
  recover(): { id: number; from: string; plan: string }[] {
    return this.recoverCodeSales(QR_UNFINISHED, (state): CodeSaleRecovery<QrStateName, QrEffect> => {
      const to = (name: QrStateName, reason: string, effects: QrEffect[]) =>
        ({ kind: 'transition', to: name, reason, effects }) as const;
      switch (state.name) {
        case 'started':
          return to('cancelled', 'stopped before the code was shown', []);
        case 'showing':
          return to('cancelling', 'stopped while the code was showing', [{ kind: 'outbox.watch' }]);
        case 'approved':
          return to('undoing', 'stopped before the receipt was out', [{ kind: 'outbox.undo' }]);
        case 'printing':
          return { kind: 'printing' };
        case 'awaiting-decision':
          return { kind: 'decision', to: 'undoing', effects: [{ kind: 'outbox.undo' }] };
        default:
          return {
            kind: 'ensure',
            effect: {
              kind:
                state.name === 'confirming'
                  ? 'outbox.confirm'
                  : state.name === 'undoing'
                    ? 'outbox.undo'
                    : 'outbox.watch',
            },
          };
      }
    });
  }

  /* ---------------------------------------------------- the machine's hooks */

  protected transition(state: QrState, input: QrInput, ctx: SaleContext): MachineStep<QrState, QrEffect> {
    return qrTransition(state, input, ctx);
  }

  protected stateEvent(id: number, state: QrState, input: string): QrEvent {
    return { type: 'state', id, merchantOrderId: state.data.merchantOrderId, state: state.name, input };
  }

  protected writeDurable(journalId: number, state: QrState, effects: readonly QrEffect[]): void {
    const at = this.#d.clock.now();
    const d = state.data;
    const enqueue = (op: string, name: string, payload: object): void =>
      void this.#d.outbox.enqueue({
        journalId,
        operation: op,
        idempotencyKey: idempotencyKey(name, d.merchantOrderId),
        payload: { ...payload },
        at,
      });
    for (const e of effects) {
      if (e.kind === 'outbox.confirm' && d.paymentId)
        enqueue(OUTBOX_OPERATIONS.confirm, 'confirm', {
          merchantOrderId: d.merchantOrderId,
          paymentId: d.paymentId,
        } satisfies ConfirmTask);
      else if (e.kind === 'outbox.undo')
        enqueue(OUTBOX_OPERATIONS.undo, 'undo', {
          merchantOrderId: d.merchantOrderId,
          sentAt: d.expiresAt ?? at.toISOString(),
          ...(d.paymentId ? { paymentId: d.paymentId } : {}),
        } satisfies UndoTask);
      else if (e.kind === 'outbox.watch') {
        enqueue(OUTBOX_OPERATIONS.watch, 'watch', {
          merchantOrderId: d.merchantOrderId,
          until: watchUntil(d.expiresAt ?? at.toISOString(), this.#d),
          amount: d.request.amount,
        } satisfies WatchTask);
      }
    }
  }

  protected receiptSubject(state: QrState): ReceiptSubject {
    const d = state.data;
    return {
      merchantOrderId: d.merchantOrderId,
      paymentType: 'wallet-qr',
      amount: d.request.amount,
      installments: d.request.installments,
      interest: d.request.interest,
      ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
      ...(d.nsu ? { nsu: d.nsu } : {}),
    };
  }

  protected async run(id: number, state: QrState, effect: QrEffect): Promise<void> {
    if (await this.runShared(id, state, effect)) return;
    if (effect.kind !== 'watch.payment') return;
    this.emit({ type: 'qr', id, qrCode: state.data.qrCode ?? '', expiresAt: state.data.expiresAt ?? '' });
    const onPinpad = showQr(this.#d.display, this.deps.log, state.data.qrCode ?? '', {
      kind: 'wallet-qr',
      amount: state.data.request.amount,
    });
    // Queries by MerchantOrderId until the payment appears, the code expires, or the sale leaves `showing`.
    await this.watch(id, {
      waiting: 'showing',
      pollMs: this.#d.pollMs,
      expired: { kind: 'expired' },
      stopped: () => this.stopped,
      expiresAt: (d) => d.expiresAt,
      poll: async (d) => {
        const q = await this.#d.host.queryByOrderId(d.merchantOrderId);
        return q.kind === 'found' && (q.state === 'approved' || q.state === 'confirmed') && q.paymentId
          ? { kind: 'paid', paymentId: q.paymentId, ...(q.authorization ? { authorization: q.authorization } : {}) }
          : undefined;
      },
    });
    await onPinpad.clear();
  }
}
