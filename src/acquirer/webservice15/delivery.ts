import type { CnpDeliveryPort, Delivery, SaleQuery } from '../../engine/index.js';
import type { Webservice15CardNotPresent } from './backend.js';

/**
 * The engine's delivery port on the webservice 1.5, so the money rules that govern every sale
 * govern these too, through the engine's own code (the undo race, src/engine/outbox/undo-race.ts):
 * - `confirm`: the capture of a pre-authorization, whole (a captured sale needs none);
 * - `undo`: the whole cancellation by TID (ws15:1456-1466);
 * - `undoByOrderId`: the service cancels by TID only, so the newest transaction under the order
 *   number (ws15:1338) is found first and cancelled by its TID; not found is `retry` (the query
 *   decides, never final by itself);
 * - only an answer showing the state asked decides; anything else is `retry`.
 */
export class Webservice15CnpDelivery implements CnpDeliveryPort {
  readonly #backend: Webservice15CardNotPresent;

  constructor(backend: Webservice15CardNotPresent) {
    this.#backend = backend;
  }

  async confirm(tid: string): Promise<Delivery> {
    const shown = await this.#backend.query(tid);
    if (shown.kind === 'found' && shown.captured === true) return { action: 'done', reason: 'captured at the host' };
    return this.capture(tid);
  }

  async capture(tid: string, amountCents?: number): Promise<Delivery> {
    const c = await this.#backend.capture(tid, amountCents);
    if (c.kind === 'done') return { action: 'done', reason: `captured (${c.detail})` };
    return { action: 'retry', reason: `capture: ${c.detail}` };
  }

  query(tid: string): Promise<SaleQuery> {
    return this.#backend.query(tid);
  }

  async undo(tid: string): Promise<Delivery> {
    const v = await this.#backend.void(tid);
    if (v.kind === 'done') return { action: 'done', reason: `cancelled (${v.detail})` };
    return { action: 'retry', reason: `cancellation: ${v.detail}` };
  }

  async undoByOrderId(merchantOrderId: string): Promise<Delivery> {
    const found = await this.#backend.queryByOrderId(merchantOrderId);
    if (found.kind !== 'found' || found.paymentId === undefined)
      return { action: 'retry', reason: `cancellation by order number: ${found.kind}` };
    if (found.state === 'undone' || found.state === 'declined')
      return { action: 'done', reason: `nothing to cancel (${found.detail ?? found.state})` };
    return this.undo(found.paymentId);
  }

  async queryByOrderId(merchantOrderId: string): Promise<SaleQuery> {
    return this.#backend.queryByOrderId(merchantOrderId);
  }
}
