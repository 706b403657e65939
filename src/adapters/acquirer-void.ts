import { returnCodeName } from '../../tables/acquirer/return-codes.js';
import { acquirerContext, type OmniClient, type VoidOutcome, type VoidRequest } from '../acquirer/index.js';
import type { Delivery } from '../engine/ports.js';
import type { VoidDeliveryPort, VoidHostPort, VoidOrder, VoidUndoDelivery } from '../engine/void/ports.js';
import type { HostVoidOutcome } from '../engine/void/types.js';
import { cardNode } from './acquirer-sale.js';

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

  async confirmVoid(paymentId: string, voidId: string): Promise<Delivery> {
    const o = await this.#client.settle('void-confirm', () => this.#client.confirmVoid(paymentId, voidId));
    return { action: o.action, reason: o.reason };
  }

  undoVoid(paymentId: string, voidId: string): Promise<VoidUndoDelivery> {
    return this.#undo(() => this.#client.undoVoid(paymentId, voidId));
  }

  undoVoidByMerchantVoidId(paymentId: string, merchantVoidId: string): Promise<VoidUndoDelivery> {
    return this.#undo(() => this.#client.undoVoidByMerchantVoidId(paymentId, merchantVoidId));
  }

  /**
   * A void the host already confirmed (at its daily close, say) cannot be undone: the refund
   * stands, which the engine reads as `needs-refund` — the customer has the money back.
   */
  async #undo(call: () => Promise<unknown>): Promise<VoidUndoDelivery> {
    let notFound = false;
    let confirmed = false;
    const o = await this.#client.settle('void-undo', async () => {
      try {
        return await call();
      } catch (e) {
        const ctx = acquirerContext(e);
        notFound = ctx?.status === 404;
        confirmed = returnCodeName(ctx?.returnCode) === 'ALREADY_CONFIRMED';
        throw e;
      }
    });
    if (confirmed || o.cancellationStatus === 3) return { action: 'needs-refund', reason: `the void stands: the host had confirmed it (${o.reason})` };
    return { action: o.action, reason: o.reason, ...(notFound && o.action === 'retry' ? { notFound: true } : {}) };
  }
}
