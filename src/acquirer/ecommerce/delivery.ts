import type { CnpDeliveryPort, Delivery, SaleQuery } from '../../engine/index.js';
import type { EcommerceClient } from '../ecommerce-client.js';
import type { EcommerceCardNotPresent } from './backend.js';
import { changeOutcome } from './outcomes.js';
import { settle } from './settle.js';

/**
 * The engine's delivery port on the e-commerce card API, so the money rules that already govern
 * card sales govern sales without the card too, through the engine's own code: the undo race of a
 * sale whose answer was lost (src/engine/outbox/undo-race.ts `attemptUndo`, decided by the
 * rulebook's `sale.undo` table) queries by MerchantOrderId and voids what it finds pending.
 * - `confirm`: the capture of a pre-authorization, whole (a captured sale needs none);
 * - `undo`: the whole void by PaymentId; `undoByOrderId`: the void by order id (ecom:6207-6209);
 * - only a 2xx body showing the state asked decides; anything else is `retry` and the query decides.
 */
export class EcommerceCnpDelivery implements CnpDeliveryPort {
  readonly #client: EcommerceClient;
  readonly #backend: EcommerceCardNotPresent;

  constructor(client: EcommerceClient, backend: EcommerceCardNotPresent) {
    this.#client = client;
    this.#backend = backend;
  }

  async confirm(paymentId: string): Promise<Delivery> {
    const shown = await this.#backend.query(paymentId);
    if (shown.kind === 'found' && shown.captured === true) return { action: 'done', reason: 'captured at the host' };
    return this.capture(paymentId);
  }

  async capture(paymentId: string, amountCents?: number): Promise<Delivery> {
    const c = await this.#backend.capture(paymentId, amountCents);
    if (c.kind === 'done') return { action: 'done', reason: `captured (${c.detail})` };
    return { action: 'retry', reason: `capture: ${c.detail}` };
  }

  query(paymentId: string): Promise<SaleQuery> {
    return this.#backend.query(paymentId);
  }

  async undo(paymentId: string): Promise<Delivery> {
    const v = await this.#backend.void(paymentId);
    if (v.kind === 'done') return { action: 'done', reason: `voided (${v.detail})` };
    return { action: 'retry', reason: `void: ${v.detail}` };
  }

  async undoByOrderId(merchantOrderId: string): Promise<Delivery> {
    const v = changeOutcome(await settle(() => this.#client.voidByOrderId(merchantOrderId)), ['undone', 'cancelled']);
    if (v.kind === 'done') return { action: 'done', reason: `voided by order id (${v.detail})` };
    return { action: 'retry', reason: `void by order id: ${v.detail}` };
  }

  /** The newest sale under the order id (the amount is not in the list's answer: ownership is the order id's). */
  async queryByOrderId(merchantOrderId: string): Promise<SaleQuery> {
    return this.#backend.queryByOrderId(merchantOrderId);
  }
}
