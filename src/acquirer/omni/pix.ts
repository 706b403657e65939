import { ecommercePaymentId, isOutcomeUnknown, type EcommerceClient } from '../index.js';
import type { PixCreatePort } from '../../engine/pix/engine.js';
import type { PixCreation } from '../../engine/pix/types.js';

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

  async status(paymentId: string): Promise<{ kind: 'found'; status: number } | { kind: 'unknown'; reason: string }> {
    try {
      return { kind: 'found', status: (await this.#client.getSale(paymentId)).Payment.Status };
    } catch (e) {
      return { kind: 'unknown', reason: reason(e) };
    }
  }

  async void(paymentId: string): Promise<{ kind: 'answered'; status: number } | { kind: 'unknown'; reason: string }> {
    try {
      return { kind: 'answered', status: (await this.#client.voidSale(paymentId)).Status };
    } catch (e) {
      return { kind: 'unknown', reason: reason(e) };
    }
  }
}
