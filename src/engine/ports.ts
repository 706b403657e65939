import type { HostSaleOutcome } from './sale/types.js';

/**
 * The engine's ports: what it needs from the acquirer, the pinpad and the printer, in its own
 * terms. Adapters (src/adapters) implement them on the acquirer clients and the drivers, so
 * another acquirer or pinpad is a new adapter, not an engine change.
 */

/** What a confirm or undo answer means for the outbox (the acquirer's outcome table decides). */
export interface Delivery {
  action: 'done' | 'retry' | 'dead-letter' | 'needs-refund';
  reason: string;
}

export type SaleQuery =
  | { kind: 'found'; paymentId?: string; status?: number; confirmationStatus?: number }
  /** Not found now; never final by itself (the sale may still be landing). */
  | { kind: 'not-found' }
  | { kind: 'unknown'; reason: string };

/** The requests the outbox delivers. Each is safe to repeat. */
export interface AcquirerDeliveryPort {
  confirm(paymentId: string, emv?: Record<string, string>): Promise<Delivery>;
  undo(paymentId: string, emv?: Record<string, string>): Promise<Delivery>;
  /** Undo when the sale's answer never came (`DELETE …/orderId/{MerchantOrderId}`). */
  undoByOrderId(merchantOrderId: string, emv?: Record<string, string>): Promise<Delivery>;
  queryByOrderId(merchantOrderId: string): Promise<SaleQuery>;
}

export type { HostSaleOutcome };
