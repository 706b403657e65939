import type { EcommerceClient } from '../../src/acquirer/ecommerce-client.js';
import { delivered } from '../../src/acquirer/omni/delivery.js';
import { EcommerceQrAdapter } from '../../src/acquirer/omni/ecommerce-qr.js';
import { operationOutcome, type Exchange, type Operation } from '../../src/acquirer/omni/outcomes.js';
import type { AcquirerDeliveryPort, Delivery } from '../../src/engine/ports.js';

/**
 * The seam: where the code under test decides what a confirm, undo, void confirmation or void undo
 * answer means. The engine's port asks the backend for a `Delivery` (a decision, not a fact), so on
 * this code the decision of those answers lives in the omni adapter's outcome table
 * (`src/acquirer/omni/outcomes.ts`, `operationOutcome`): the explorer feeds it the answer the host
 * model gives — an HTTP status and a body with the manual's fields — and hands the engine what the
 * table decided, through the omni adapter's own `delivered` (src/acquirer/omni/delivery.ts: `query`, an
 * answer that decides nothing, is tried again; a dead letter carries what the body showed). Nothing else of src/acquirer is used: the host's
 * states, the sale's answers and the queries are the model's, in the engine's words.
 */
export type HostAnswer =
  { kind: 'answer'; status: number; body: unknown } | { kind: 'transport'; failure: 'timeout' | 'lost' | 'not-sent' };

export function decide(op: Operation, answer: HostAnswer): Delivery {
  const exchange: Exchange = answer;
  return delivered(operationOutcome(op, exchange));
}

/**
 * The e-commerce QR sale's outbox requests (query, confirm, undo) as the code under test decides
 * them: on this code in the omni backend's e-commerce QR adapter (which reads `Status` 12 as "not
 * found"), fed by a client that answers what the host model holds, in the manual's shapes (ecom:
 * `GET /1/sales/{PaymentId}` → `Payment.Status`; `PUT /1/sales/{PaymentId}/void` → `Status`).
 */
export function ecommerceQrDelivery(
  host: {
    status(paymentId: string): number | undefined;
    void(paymentId: string): number | undefined;
  },
  paymentIdOf: (merchantOrderId: string) => string | undefined,
): AcquirerDeliveryPort {
  const missing = (paymentId: string): Error => Object.assign(new Error(`no sale ${paymentId}`), { status: 404 });
  const client = {
    getSale: (paymentId: string) => {
      const status = host.status(paymentId);
      return status === undefined
        ? Promise.reject(missing(paymentId))
        : Promise.resolve({ Payment: { PaymentId: paymentId, Status: status } });
    },
    voidSale: (paymentId: string) => {
      const status = host.void(paymentId);
      return status === undefined
        ? Promise.reject(missing(paymentId))
        : Promise.resolve({ Status: status, ReasonCode: 0, ReasonMessage: 'Successful' });
    },
  } as unknown as EcommerceClient;
  return new EcommerceQrAdapter(client, paymentIdOf);
}
