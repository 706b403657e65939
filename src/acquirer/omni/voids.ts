import { codeMeaning } from '../../../tables/acquirer/return-codes.js';
import { acquirerContext } from '../errors.js';
import { exchangeOf, queryOutcome, voidQueryOutcome, type VoidOutcome, type VoidQueryOutcome } from './outcomes.js';
import type { OmniClient } from './client.js';
import type { VoidRequest } from './types.js';
import {
  VOID_CONFIRM,
  VOID_UNDO,
  decide,
  type Delivery,
  type HostSaleState,
  type VoidDeliveryPort,
  type VoidHostPort,
  type VoidOrder,
  type VoidUndoDelivery,
  type HostVoidOutcome,
} from '../../engine/index.js';
import { cardNode } from './sale.js';
import { omniSaleState, voidAnswer } from './states.js';

/** The omni void request: `MerchantVoidId`, `MerchantVoidDate`, `VoidAmount` and the card read again. */
export function voidRequest(order: VoidOrder): VoidRequest {
  return {
    MerchantVoidId: order.merchantVoidId,
    MerchantVoidDate: order.date.toISOString(),
    VoidAmount: order.amount,
    Card: cardNode({ summary: order.summary }, order.card),
  };
}

/** The void table's outcome in the engine's terms. */
export function hostVoidOutcome(o: VoidOutcome): HostVoidOutcome {
  const rc = (x: { returnCode?: string | number; returnMessage?: string }) => ({
    ...(x.returnCode !== undefined ? { returnCode: String(x.returnCode) } : {}),
    ...(x.returnMessage !== undefined ? { returnMessage: x.returnMessage } : {}),
  });
  switch (o.kind) {
    case 'approved':
      return { kind: 'approved', voidId: o.voidId };
    case 'declined':
      return { kind: 'declined', ...(o.voidId ? { voidId: o.voidId } : {}), ...rc(o) };
    case 'refused':
      return { kind: 'refused', status: o.status, ...rc(o) };
    case 'not-sent':
      return { kind: 'not-sent' };
    case 'unknown':
      return { kind: 'unknown', reason: o.reason };
  }
}

/**
 * Card voids on the omni API: the create (applied to the void table, never repeated), and the
 * outbox's confirmation and undos (applied to the operation table). An undo answered 404 is
 * reported as `notFound`, which the outbox settles only after the processing window.
 */
export class OmniVoidAdapter implements VoidHostPort, VoidDeliveryPort {
  readonly #client: OmniClient;

  constructor(client: OmniClient) {
    this.#client = client;
  }

  async void(order: VoidOrder): Promise<HostVoidOutcome> {
    return hostVoidOutcome(await this.#client.settleVoid(order.sale.paymentId, voidRequest(order)));
  }

  /**
   * A void confirmation, decided by the rulebook's `void.confirm` table: done on a 2xx body with
   * `CancellationStatus` 3 only. Any other answer (a non-2xx, the manual's `CancellationStatus: 4`
   * beside `ConfirmatinoStatus: 1`, `{}`, `null`) is asked of the void's query: confirmed (3) →
   * done; still authorized (1) or not finished (0) → confirm again; denied (2) or undone (4) →
   * dead letter (the refund is not in effect: alarm).
   */
  async confirmVoid(paymentId: string, voidId: string): Promise<Delivery> {
    const o = await this.#client.settle('void-confirm', () => this.#client.confirmVoid(paymentId, voidId));
    if (o.action !== 'query') return { action: o.action, reason: o.reason };
    const q = await this.#queryVoid(paymentId, voidId);
    if (q.kind === 'unknown') return { action: 'retry', reason: `${o.reason}; void query: ${q.reason}` };
    const rule = decide(VOID_CONFIRM, q.kind === 'not-found' ? 'not-found' : voidAnswer(q.cancellationStatus));
    const shown = q.kind === 'not-found' ? 'not found' : `CancellationStatus ${String(q.cancellationStatus)}`;
    const action = rule.decision === 'done' || rule.decision === 'dead-letter' ? rule.decision : 'retry';
    return { action, reason: `${o.reason}; the void query shows ${shown}: ${rule.why}` };
  }

  undoVoid(paymentId: string, voidId: string): Promise<VoidUndoDelivery> {
    return this.#undo(() => this.#client.undoVoid(paymentId, voidId), voidId, paymentId);
  }

  undoVoidByMerchantVoidId(paymentId: string, merchantVoidId: string): Promise<VoidUndoDelivery> {
    return this.#undo(() => this.#client.undoVoidByMerchantVoidId(paymentId, merchantVoidId), undefined, paymentId);
  }

  /** The voided sale's state; undefined when the query fails or shows no `Status` (nothing read). */
  async saleState(paymentId: string): Promise<HostSaleState | undefined> {
    try {
      const q = queryOutcome({ kind: 'answer', status: 200, body: await this.#client.getSale(paymentId) });
      return q.kind === 'found' && q.status !== undefined ? omniSaleState(q) : undefined;
    } catch {
      return undefined;
    }
  }

  async #queryVoid(paymentId: string, voidId: string): Promise<VoidQueryOutcome> {
    try {
      return voidQueryOutcome({ kind: 'answer', status: 200, body: await this.#client.getVoid(paymentId, voidId) });
    } catch (e) {
      const q = voidQueryOutcome(exchangeOf({ error: e }));
      return q.kind === 'found' ? { kind: 'unknown', reason: (e as Error).message } : q;
    }
  }

  /**
   * An undo decided by its 2xx body (4 undone, 2 denied → done; 3 confirmed → the void stood,
   * `needs-refund`, which the engine reads as "the customer has the money back"). Anything else
   * is asked of the void's query when the VoidId is known, decided the same way; a published
   * "not found" (404 with 303/307/318) is reported as `notFound`, never final by itself.
   */
  async #undo(call: () => Promise<unknown>, voidId: string | undefined, paymentId: string): Promise<VoidUndoDelivery> {
    let notFound = false;
    const o = await this.#client.settle('void-undo', async () => {
      try {
        return await call();
      } catch (e) {
        const ctx = acquirerContext(e);
        notFound = ctx?.status === 404 && codeMeaning(ctx.returnCode) === 'not-found';
        throw e;
      }
    });
    if (o.action === 'needs-refund')
      return { action: 'needs-refund', reason: `the void stands: the host had confirmed it (${o.reason})` };
    if (o.action !== 'query') return { action: o.action, reason: o.reason };
    if (!voidId) return { action: 'retry', reason: o.reason, ...(notFound ? { notFound: true } : {}) };
    const q = await this.#queryVoid(paymentId, voidId);
    if (q.kind === 'not-found')
      return { action: 'retry', reason: `${o.reason}; the void query finds no such void`, notFound: true };
    if (q.kind === 'unknown') return { action: 'retry', reason: `${o.reason}; void query: ${q.reason}` };
    const rule = decide(VOID_UNDO, voidAnswer(q.cancellationStatus));
    const shown = `CancellationStatus ${String(q.cancellationStatus)}`;
    if (rule.decision === 'needs-refund')
      return { action: 'needs-refund', reason: `the void stands: the void query shows ${shown} (${o.reason})` };
    if (rule.decision === 'done')
      return { action: 'done', reason: `${o.reason}; the void query shows ${shown}: ${rule.why}` };
    return { action: 'retry', reason: `${o.reason}; the void query shows ${shown}: ${rule.why}` };
  }
}
