import { ecommercePaymentId, type EcommerceClient, type EcommerceVoidAnswer } from '../ecommerce-client.js';
import { acquirerContext, isOutcomeUnknown } from '../errors.js';
import type { PixCreatePort, PixCreation, PixStatusQuery, PixVoidAnswer } from '../../engine/index.js';
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
      // "NSU Pix" (ecom 1918); the answer carries no authorization code and no card brand.
      const nsu = sale.Payment.ProofOfSale;
      return {
        kind: 'created',
        paymentId,
        qrCode,
        ...(typeof nsu === 'string' && nsu !== '' ? { nsu } : {}),
      };
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

  /**
   * A cancel or refund (`PUT /1/sales/{PaymentId}/void`), read from its body (ecom:1975-1979: `Status`
   * 12, `ReasonCode` 0 "Successful"): `ReasonCode` 0 → accepted; another `ReasonCode` (e.g.
   * "Lojista com saldo insuficiente para devolução", ecom:1948) → refused; a 4xx → refused (the
   * host read it and said no), but 401/403 and a request that never left → not sent; a 2xx without
   * `ReasonCode`, a 5xx, a timeout → unknown (the refund may have been asked: never asked again).
   */
  async void(paymentId: string): Promise<PixVoidAnswer> {
    let answer: EcommerceVoidAnswer;
    try {
      answer = await this.#client.voidSale(paymentId);
    } catch (e) {
      const ctx = acquirerContext(e);
      if (ctx?.transport === 'not-sent' || ctx?.status === 401 || ctx?.status === 403)
        return { kind: 'not-sent', reason: reason(e) };
      if (!isOutcomeUnknown(e) && ctx?.status !== undefined && ctx.status >= 400 && ctx.status < 500)
        return { kind: 'refused', reason: reason(e) };
      return { kind: 'unknown', reason: reason(e) };
    }
    const code = answer.ReasonCode;
    const said = `Status ${String(answer.Status)}, ReasonCode ${String(code)}${answer.ReasonMessage ? ` (${answer.ReasonMessage})` : ''}`;
    if (code === 0 || code === '0') return { kind: 'accepted' };
    if (code === undefined || code === null || code === '')
      return { kind: 'unknown', reason: `a 2xx without ReasonCode (${said})` };
    return { kind: 'refused', reason: said };
  }
}
