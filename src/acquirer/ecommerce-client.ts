import { randomUUID } from 'node:crypto';
import { OmniposError } from '../core/index.js';
import { httpError } from './errors.js';
import type { AcquirerHttp, AcquirerResponse, SendOptions } from './http.js';
import type { SecretSource } from './oauth.js';
import type { RouteName, RouteParams } from './omni/routes.js';

/** A Pix sale: the payer fields 002 requires. */
export interface PixSaleRequest {
  MerchantOrderId: string;
  Customer: { Name: string; Identity: string; IdentityType: 'CPF' | 'CNPJ' };
  Payment: { Type: 'Pix'; Amount: number };
}

/**
 * A QR code card sale (status 12 until a wallet pays the code), as the e-commerce page's
 * "Gerando um QR Code via API" request writes it (lines 2374-2389): `QrCode` under `Payment`.
 */
export interface QrSaleRequest {
  MerchantOrderId: string;
  Payment: {
    Type: 'qrcode';
    Amount: number;
    Installments: number;
    Capture: boolean;
    Modality?: 'Credit' | 'Debit';
    QrCode?: { MerchantName?: string };
  };
}

/**
 * A credit card sale without the card present (e-commerce page, "Criando uma transação de crédito",
 * lines 559-768 and the property table after it): `Capture` false is a pre-authorization. The card
 * lives in this object for the one request only.
 */
export interface CardSaleRequest {
  MerchantOrderId: string;
  Payment: {
    Type: 'CreditCard';
    Amount: number;
    Installments: number;
    Capture: boolean;
    SoftDescriptor?: string;
    /** A scheduled recurrence (ecom:4266-4292): the host charges again at each interval. */
    RecurrentPayment?: EcommerceRecurrence;
    CreditCard:
      | {
          CardNumber: string;
          Holder: string;
          ExpirationDate: string;
          SecurityCode?: string;
          Brand: string;
          /** `true`: the host saves the card and answers its `CardToken` (ecom:763, 3151-3153). */
          SaveCard?: boolean;
        }
      | { CardToken: string; SecurityCode?: string; Brand: string };
  };
}

/** A scheduled recurrence's node (ecom:4277-4281, its table 4341-4343): `AuthorizeNow` true charges the first time at once. */
export interface EcommerceRecurrence {
  AuthorizeNow: boolean;
  /** `YYYY-MM-DD`; absent: until the store ends it (ecom:3958). */
  EndDate?: string;
  Interval?: 'Monthly' | 'Bimonthly' | 'Quarterly' | 'SemiAnnual' | 'Annual';
}

/** `POST /1/card` (ecom:3081-3113): a card saved alone; the example names the buyer `CustomerName` (3085). */
export interface CardSaveRequest {
  CustomerName: string;
  CardNumber: string;
  Holder: string;
  ExpirationDate: string;
  Brand: string;
}

/** Its answer (ecom:3121-3131): the token, a GUID. */
export interface CardSaveAnswer {
  CardToken: string;
  [more: string]: unknown;
}

/** `GET /1/RecurrentPayment/{RecurrentPaymentId}` (ecom:5958-5993): the recurrence, not its transactions. */
export interface EcommerceRecurrenceAnswer {
  RecurrentPayment: {
    RecurrentPaymentId: string;
    /** 1 active, 2 finished, 3 deactivated by the store, 4 by retries, 5 by an expired card (ecom:6046). */
    Status: number;
    NextRecurrency?: string;
    EndDate?: string;
    Interval?: string;
    Amount?: number;
    SuccessfulRecurrences?: number;
    RecurrentTransactions?: { PaymentId: string; PaymentNumber?: number; TryNumber?: number }[];
    [more: string]: unknown;
  };
  [more: string]: unknown;
}

/** A capture's answer (e-commerce page lines 6118-6140). */
export interface EcommerceCaptureAnswer {
  Status: number;
  ReturnCode?: string | number;
  ReturnMessage?: string;
  [more: string]: unknown;
}

/** The query by order id's answer (e-commerce page lines 5891-5902): every PaymentId under the order id. */
export interface EcommerceOrderSales {
  Payment: { PaymentId: string; ReceveidDate?: string; [more: string]: unknown }[];
  [more: string]: unknown;
}

export interface EcommerceSale {
  MerchantOrderId: string;
  Payment: {
    /** The manual's Pix answer spells it `Paymentid` (e-commerce page line 1870): read with `ecommercePaymentId`. */
    PaymentId: string;
    Status: number;
    Amount: number;
    QrCodeString?: string;
    QrcodeBase64Image?: string;
    QrCodeBase64Image?: string;
    ReturnCode?: string | number;
    ReturnMessage?: string;
    [more: string]: unknown;
  };
  [more: string]: unknown;
}

/** The sale's PaymentId as either spelling the manual shows (`PaymentId`; `Paymentid` in the Pix answer, line 1870). */
export function ecommercePaymentId(sale: EcommerceSale): string | undefined {
  const p = sale.Payment as Record<string, unknown>;
  const id = typeof p.PaymentId === 'string' && p.PaymentId !== '' ? p.PaymentId : p.Paymentid;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export interface EcommerceVoidAnswer {
  Status: number;
  ReasonCode?: number | string;
  ReasonMessage?: string;
  ReturnCode?: string | number;
  ReturnMessage?: string;
  [more: string]: unknown;
}

export interface CardBinAnswer {
  Status: string;
  Provider: string;
  CardType: string;
  ForeignCard: boolean;
  CorporateCard: boolean;
  Issuer?: string;
  IssuerCode: string;
  [more: string]: unknown;
}

export interface EcommerceClientOptions {
  http: AcquirerHttp;
  merchantId: string;
  /**
   * Can refund anything for the merchant: kept in a file only the service user reads
   * (docs/acquirer.md, "The e-commerce API").
   */
  merchantKey: SecretSource;
}

/**
 * The JSON e-commerce API (002): Pix and QR code sales and void/refund on the request host; sale
 * query and BIN lookup on the query host (routes.ts `ecommerceQuery`). Every
 * request carries `MerchantId`, `MerchantKey` and a fresh `RequestId`. Non-2xx answers throw
 * ACQUIRER_HTTP with the first `{Code, Message}` of the error list.
 */
export class EcommerceClient {
  readonly #o: EcommerceClientOptions;

  constructor(options: EcommerceClientOptions) {
    this.#o = options;
  }

  async #json<N extends RouteName>(name: N, params: RouteParams<N>, options: SendOptions = {}): Promise<unknown> {
    const res: AcquirerResponse = await this.#o.http.send(name, params, {
      ...options,
      headers: {
        ...options.headers,
        MerchantId: this.#o.merchantId,
        MerchantKey: this.#o.merchantKey.reveal(),
        RequestId: randomUUID(),
      },
    });
    if (res.status < 200 || res.status >= 300) throw httpError(name, res.status, res.body);
    if (res.notJson || res.body === undefined) {
      throw new OmniposError('ACQUIRER_BAD_RESPONSE', `${name}: HTTP ${res.status} with a body that is not JSON`, {
        route: name,
        status: res.status,
        outcomeUnknown: true,
      });
    }
    return res.body;
  }

  /** `POST /1/sales` with `Payment.Type` `Pix`. Never repeated automatically. */
  async createPixSale(sale: PixSaleRequest, options: { timeoutMs?: number } = {}): Promise<EcommerceSale> {
    return (await this.#json('ecommerceSaleCreate', {}, { json: sale, ...options })) as EcommerceSale;
  }

  /** `POST /1/sales` with `Payment.Type` `qrcode`. Never repeated automatically. */
  async createQrSale(sale: QrSaleRequest, options: { timeoutMs?: number } = {}): Promise<EcommerceSale> {
    return (await this.#json('ecommerceSaleCreate', {}, { json: sale, ...options })) as EcommerceSale;
  }

  /** `POST /1/sales` with `Payment.Type` `CreditCard`. Never repeated automatically. */
  async createCardSale(sale: CardSaleRequest, options: { timeoutMs?: number } = {}): Promise<EcommerceSale> {
    return (await this.#json('ecommerceSaleCreate', {}, { json: sale, ...options })) as EcommerceSale;
  }

  /** `PUT /1/sales/{PaymentId}/capture[?amount=cents]`: whole (no amount) or partial. Never repeated automatically. */
  async captureSale(
    paymentId: string,
    amount?: number,
    options: { timeoutMs?: number } = {},
  ): Promise<EcommerceCaptureAnswer> {
    return (await this.#json(
      'ecommerceSaleCapture',
      { PaymentId: paymentId },
      {
        ...(amount !== undefined ? { query: { amount: String(amount) } } : {}),
        headers: { 'content-type': 'application/json' },
        ...options,
      },
    )) as EcommerceCaptureAnswer;
  }

  /**
   * `PUT /1/sales/OrderId/{MerchantOrderId}/void`: the whole void of the newest sale under the order
   * id (e-commerce page lines 6197-6209). Never repeated automatically.
   */
  async voidByOrderId(merchantOrderId: string, options: { timeoutMs?: number } = {}): Promise<EcommerceVoidAnswer> {
    return (await this.#json(
      'ecommerceSaleVoidByOrderId',
      { MerchantOrderId: merchantOrderId },
      { headers: { 'content-type': 'application/json' }, ...options },
    )) as EcommerceVoidAnswer;
  }

  /** `GET /1/sales?merchantOrderId=` on the query host. */
  async salesByOrderId(merchantOrderId: string, options: { timeoutMs?: number } = {}): Promise<EcommerceOrderSales> {
    return (await this.#json(
      'ecommerceSalesByOrderId',
      {},
      { query: { merchantOrderId }, ...options },
    )) as EcommerceOrderSales;
  }

  async getSale(paymentId: string, options: { timeoutMs?: number } = {}): Promise<EcommerceSale> {
    return (await this.#json('ecommerceSaleGet', { PaymentId: paymentId }, options)) as EcommerceSale;
  }

  /** `PUT /1/sales/{PaymentId}/void[?Amount=cents]`: cancel a pending sale, void a paid QR sale, refund a paid Pix. */
  async voidSale(
    paymentId: string,
    amount?: number,
    options: { timeoutMs?: number } = {},
  ): Promise<EcommerceVoidAnswer> {
    // The manual's void request names Content-Type: application/json as required, though it has no body.
    return (await this.#json(
      'ecommerceSaleVoid',
      { PaymentId: paymentId },
      {
        ...(amount !== undefined ? { query: { Amount: String(amount) } } : {}),
        headers: { 'content-type': 'application/json' },
        ...options,
      },
    )) as EcommerceVoidAnswer;
  }

  /** `POST /1/card`: the card saved alone, its token answered (ecom:3075-3131). Never repeated automatically. */
  async saveCard(card: CardSaveRequest, options: { timeoutMs?: number } = {}): Promise<CardSaveAnswer> {
    return (await this.#json('ecommerceCardSave', {}, { json: card, ...options })) as CardSaveAnswer;
  }

  /** `GET /1/RecurrentPayment/{RecurrentPaymentId}` on the query host (ecom:5928-6060). */
  async getRecurrence(id: string, options: { timeoutMs?: number } = {}): Promise<EcommerceRecurrenceAnswer> {
    return (await this.#json(
      'ecommerceRecurrentGet',
      { RecurrentPaymentId: id },
      options,
    )) as EcommerceRecurrenceAnswer;
  }

  /** `GET /1/cardBin/{first six digits}`. */
  async cardBin(bin: string, options: { timeoutMs?: number } = {}): Promise<CardBinAnswer> {
    return (await this.#json('ecommerceCardBin', { Bin: bin }, options)) as CardBinAnswer;
  }
}
