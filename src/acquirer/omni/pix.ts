import { ecommercePaymentId, type EcommerceClient } from '../ecommerce-client.js';
import { isOutcomeUnknown } from '../errors.js';
import type { PixCreatePort, PixCreation, PixStatusQuery } from '../../engine/index.js';
import { pixChargeStatus } from './states.js';

function reason(e: unknown): string {
  return e instanceof Error ? e.message : 'failed';
}

/** Pix on the JSON e-commerce API: create, status, void (cancel or refund). */
export class EcommercePixAdapter implements PixCreatePort {
  readonly #client: EcommerceClient;

  constructor(client: EcommerceClient) {
    this.#client = client;
  }

  async create(order: {
    merchantOrderId: string;
    amount: number;
    payer: { name: string; document: string };
  }): Promise<PixCreation> {
    const identity = order.payer.document.replace(/\D/g, '');
    try {
      const sale = await this.#client.createPixSale({
        MerchantOrderId: order.merchantOrderId,
        Customer: { Name: order.payer.name, Identity: identity, IdentityType: identity.length === 11 ? 'CPF' : 'CNPJ' },
        Payment: { Type: 'Pix', Amount: order.amount },
      });
      const qrCode = sale.Payment.QrCodeString;
      const paymentId = ecommercePaymentId(sale);
      if (!paymentId) return { kind: 'unknown', reason: 'the answer names no PaymentId' };
      if (!qrCode) return { kind: 'unknown', reason: 'the answer has no QrCodeString' };
      return { kind: 'created', paymentId, qrCode };
    } catch (e) {
      return isOutcomeUnknown(e) ? { kind: 'unknown', reason: reason(e) } : { kind: 'failed', reason: reason(e) };
    }
  }

  /** The charge's status in the engine's words (ECOMMERCE_PIX_STATES, states.ts). */
  async status(paymentId: string): Promise<PixStatusQuery> {
    try {
      const status = (await this.#client.getSale(paymentId)).Payment.Status;
      return { kind: 'found', status: pixChargeStatus(status), detail: String(status) };
    } catch (e) {
      return { kind: 'unknown', reason: reason(e) };
    }
  }

  async void(paymentId: string): Promise<{ kind: 'answered' } | { kind: 'unknown'; reason: string }> {
    try {
      await this.#client.voidSale(paymentId);
      return { kind: 'answered' };
    } catch (e) {
      return { kind: 'unknown', reason: reason(e) };
    }
  }
}
