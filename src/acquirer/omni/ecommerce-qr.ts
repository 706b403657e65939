import { ecommercePaymentId, type EcommerceClient } from '../ecommerce-client.js';
import type {
  QrCodeOrder,
  QrCodePort,
  QrIssued,
  AcquirerDeliveryPort,
  Delivery,
  SaleQuery,
} from '../../engine/index.js';
import { qrTextFromPng } from './qr-image.js';
import { ecommerceQrSaleState } from './states.js';
import { hostAuthorization } from './authorization.js';

/** E-commerce sale statuses (002, "Transaction status"): 2 paid, 3 denied, 10 cancelled/voided, 12 pending, 13 aborted. */
const PAID = 2;
const VOIDED = 10;
const PENDING = 12;

function reason(e: unknown): string {
  return e instanceof Error ? e.message : 'failed';
}

/**
 * The documented e-commerce QR code sale as the wallet QR engine's second adapter (docs/architecture.md,
 * "Wallet QR sale"): `POST /1/sales` with `Payment.Type` `qrcode` and `Capture: true` makes the
 * code (status 12); the sale is asked for by its PaymentId until a wallet pays it (2); a payment
 * the terminal must not keep is voided (`PUT …/void`, 10). Captured when paid, it has no
 * confirmation of its own: confirming checks that it is still paid. The engine knows sales by
 * MerchantOrderId; `paymentIdOf` finds the PaymentId the engine journaled when the code was made.
 */
export class EcommerceQrAdapter implements QrCodePort, AcquirerDeliveryPort {
  readonly provider = 'ecommerce';
  readonly #client: EcommerceClient;
  readonly #paymentIdOf: (merchantOrderId: string) => string | undefined;
  readonly #merchantName: string | undefined;

  constructor(
    client: EcommerceClient,
    paymentIdOf: (merchantOrderId: string) => string | undefined,
    options: { merchantName?: string } = {},
  ) {
    this.#client = client;
    this.#paymentIdOf = paymentIdOf;
    this.#merchantName = options.merchantName;
  }

  /** Creates the QR code sale; rejects (never retried: a POST) when the host gives no code to show. */
  async issue(order: QrCodeOrder): Promise<QrIssued> {
    const r = order.request;
    const sale = await this.#client.createQrSale({
      MerchantOrderId: order.merchantOrderId,
      Payment: {
        Type: 'qrcode',
        Amount: r.amount,
        Installments: r.installments,
        Capture: true,
        Modality: r.method === 'debit' ? 'Debit' : 'Credit',
        ...(this.#merchantName ? { QrCode: { MerchantName: this.#merchantName } } : {}),
      },
    });
    const paymentId = ecommercePaymentId(sale);
    if (!paymentId) throw new Error('the e-commerce QR sale answer names no PaymentId');
    // The host answers only the image (QrCodeBase64Image, no text): the text the pinpad shows and the
    // receipt prints is read from it, so all three carry the code the host registered.
    // Spelled three ways in the manual: QrCodeBase64Image (ecom:2548), QrcodeBase64Image (ecom:1874)
    // and, in the QR code sale's own answer, `QrCode` as a base64 string (ecom:2495).
    const spelledQrCode = typeof sale.Payment.QrCode === 'string' ? sale.Payment.QrCode : undefined;
    const image = sale.Payment.QrCodeBase64Image ?? sale.Payment.QrcodeBase64Image ?? spelledQrCode;
    try {
      if (typeof image !== 'string' || image.length === 0)
        throw new Error(`the e-commerce QR sale ${paymentId} came without QrCodeBase64Image`);
      return { qrCode: qrTextFromPng(image), paymentId };
    } catch (e) {
      // A code nobody can see is cancelled (best effort: unpaid, it also expires at the host).
      await this.#client.voidSale(paymentId).catch(() => undefined);
      throw e;
    }
  }

  /**
   * 12 (not paid yet) reads as not found: nothing to undo; 2 paid, and `captured` (Capture: true:
   * no confirmation will come, so past the daily close it stays charged like a confirmed card
   * sale); the rest by ECOMMERCE_QR_SALE_STATES (states.ts: 10 voided reads as undone).
   */
  async queryByOrderId(merchantOrderId: string): Promise<SaleQuery> {
    const paymentId = this.#paymentIdOf(merchantOrderId);
    if (!paymentId) return { kind: 'not-found' };
    let status: number;
    let sale: unknown;
    try {
      const answer = await this.#client.getSale(paymentId);
      sale = answer;
      status = answer.Payment.Status;
    } catch (e) {
      // Even a 404 is not final: the host gave this PaymentId when it made the code.
      return { kind: 'unknown', reason: reason(e) };
    }
    if (status === PENDING) return { kind: 'not-found' };
    // The e-commerce query's answer names `AuthorizationCode` and `ProofOfSale` (ecom 5645, 5650); the
    // brand only as a name (`CreditCard.Brand`, ecom 5665), not the tables' number: absent here.
    const authorization = hostAuthorization(sale);
    return {
      kind: 'found',
      paymentId,
      state: ecommerceQrSaleState(status),
      detail: `Status ${status}`,
      ...(status === PAID ? { captured: true } : {}),
      ...(authorization ? { authorization } : {}),
    };
  }

  async confirm(paymentId: string): Promise<Delivery> {
    try {
      const status = (await this.#client.getSale(paymentId)).Payment.Status;
      if (status === PAID)
        return { action: 'done', reason: 'captured when paid (Capture: true); the e-commerce API has no confirmation' };
      return { action: 'dead-letter', reason: `the e-commerce QR sale is in status ${status}, not paid` };
    } catch (e) {
      return { action: 'retry', reason: `query: ${reason(e)}` };
    }
  }

  async undo(paymentId: string): Promise<Delivery> {
    try {
      const v = await this.#client.voidSale(paymentId);
      if (v.Status === VOIDED) return { action: 'done', reason: 'voided at the e-commerce host' };
    } catch {
      // Maybe voided already (a repeated attempt): the status says.
    }
    try {
      const status = (await this.#client.getSale(paymentId)).Payment.Status;
      if (status === VOIDED) return { action: 'done', reason: 'the e-commerce host shows it voided' };
      return { action: 'retry', reason: `still in status ${status} at the e-commerce host` };
    } catch (e) {
      return { action: 'retry', reason: `query: ${reason(e)}` };
    }
  }

  /**
   * The code is gone from the terminal (cancelled, expired): the sale made with `Capture: true`
   * stays 12 until a wallet pays it (ecom:2584), and its validity at the host is not published
   * (qr:355), so while it shows 12 it is voided (`PUT /1/sales/{PaymentId}/void`, ecom:1952) until
   * the host shows it 10. Any other status → done here: a payment is the watch's query's to find
   * (and undo, with its alarm).
   */
  async cancelPending(merchantOrderId: string): Promise<Delivery> {
    const paymentId = this.#paymentIdOf(merchantOrderId);
    if (!paymentId) return { action: 'done', reason: 'no e-commerce QR sale was created for it' };
    let status: number;
    try {
      status = (await this.#client.getSale(paymentId)).Payment.Status;
    } catch (e) {
      return { action: 'retry', reason: `query: ${reason(e)}` };
    }
    // Paid already: not voided here, so the watch's query finds the late payment (its alarm) and undoes it.
    if (status !== PENDING) return { action: 'done', reason: `the e-commerce host shows it in status ${status}` };
    try {
      const v = await this.#client.voidSale(paymentId);
      if (v.Status === VOIDED) return { action: 'done', reason: 'voided at the e-commerce host' };
      return { action: 'retry', reason: `the void answered status ${String(v.Status)}` };
    } catch (e) {
      return { action: 'retry', reason: `void: ${reason(e)}` };
    }
  }

  async undoByOrderId(merchantOrderId: string): Promise<Delivery> {
    const paymentId = this.#paymentIdOf(merchantOrderId);
    if (!paymentId) return { action: 'done', reason: 'no e-commerce QR sale was created for it' };
    return this.undo(paymentId);
  }
}

/**
 * The outbox's one delivery port when some QR sales live on the e-commerce API: requests about
 * those (`owns`) go to `ecommerce`, every other (card sales, the terminal's QR sales) to `card`.
 */
export function routeQrDelivery(
  card: AcquirerDeliveryPort,
  ecommerce: AcquirerDeliveryPort,
  owns: { order(merchantOrderId: string): boolean; payment(paymentId: string): boolean },
): AcquirerDeliveryPort {
  const byPayment = (id: string): AcquirerDeliveryPort => (owns.payment(id) ? ecommerce : card);
  const byOrder = (id: string): AcquirerDeliveryPort => (owns.order(id) ? ecommerce : card);
  return {
    confirm: (id, emv) => byPayment(id).confirm(id, emv),
    undo: (id, emv) => byPayment(id).undo(id, emv),
    undoByOrderId: (id, emv) => byOrder(id).undoByOrderId(id, emv),
    queryByOrderId: (id, expected) => byOrder(id).queryByOrderId(id, expected),
    cancelPending: (id) =>
      owns.order(id) && ecommerce.cancelPending
        ? ecommerce.cancelPending(id)
        : Promise.resolve({ action: 'done', reason: 'the host holds nothing payable for this code' }),
  };
}
