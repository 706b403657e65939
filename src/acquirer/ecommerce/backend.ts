import { OmniposError } from '../../core/index.js';
import { maskPanDigits } from '../../emv/index.js';
import type {
  CardNotPresentBackend,
  CardProduct,
  CnpChangeOutcome,
  CnpHostRules,
  CnpSaleOutcome,
  CnpRecurrenceStatus,
  CnpSaleRequest,
  CnpSaveOutcome,
  CnpTokenSaleRequest,
  SaleQuery,
  TypedCard,
} from '../../engine/index.js';
import type { CardBinAnswer, CardSaleRequest, EcommerceClient } from '../ecommerce-client.js';
import { cardQueryOutcome, cardSaleOutcome, changeOutcome, orderIdsOutcome } from './outcomes.js';
import { recurrenceNode, recurrenceOutcome, savedCardOutcome } from './saved-cards.js';
import { settle } from './settle.js';

/** What the `ecommerce` backend takes from the configuration (`cardNotPresent` has no keys of its own for it). */
export interface EcommerceCnpSettings {
  /** `terminal.softDescriptor`: the store's name on the invoice (`Payment.SoftDescriptor`, 13 letters or digits, ecom:750). */
  softDescriptor?: string;
  timeoutMs?: number;
}

/**
 * The BIN lookup's `Provider` → the sale's `CreditCard.Brand`: the lookup answers upper case
 * (ecom:478 "AMEX", "MASTERCARD", "DISCOVER", "VISA"), the sale takes "Visa / Master / Amex / Elo
 * / Aura / JCB / Diners / Discover / Hipercard" (ecom:764).
 */
const BRAND_OF_PROVIDER: Readonly<Record<string, string>> = {
  VISA: 'Visa',
  MASTERCARD: 'Master',
  MASTER: 'Master',
  AMEX: 'Amex',
  ELO: 'Elo',
  AURA: 'Aura',
  JCB: 'JCB',
  DINERS: 'Diners',
  DISCOVER: 'Discover',
  HIPERCARD: 'Hipercard',
};

/** The card type of the BIN lookup (ecom:478: "Débito", "Crédito", "Múltiplo"; the example: "Multiplo"). */
function cardType(t: string): CardProduct['type'] {
  const plain = t
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
  return plain === 'debito' ? 'debit' : plain === 'credito' ? 'credit' : 'multiple';
}

export function cardProductOf(a: CardBinAnswer): CardProduct {
  return {
    brand: BRAND_OF_PROVIDER[a.Provider.toUpperCase()] ?? a.Provider,
    type: cardType(a.CardType),
    prepaid: a.Prepaid === true,
    foreign: a.ForeignCard,
    corporate: a.CorporateCard,
    // "00 - Analise autorizada"; 01 scheme not supported, 02 voucher not supported (ecom:478).
    supported: a.Status === '00',
    issuerCode: a.IssuerCode,
    detail: `Status ${a.Status}, ${a.Provider} ${a.CardType}, issuer ${a.IssuerCode}`,
  };
}

/** The e-commerce page's rules for a pre-authorization's captures and voids. */
export const ECOMMERCE_RULES: CnpHostRules = {
  captureDeadlineDays: 15,
  partialCaptureOnce: true,
  partialVoidNeedsCapture: true,
  partialVoidLeavesCaptured: true,
  sources: {
    captureDeadline: 'ecom:6072 "A captura é um processo com prazo de execução padrão de 15 dias"',
    partialCapture:
      'ecom:6078-6080 "pode ocorrer apenas uma vez por transação"; "Após a captura, não é possível realizar capturas adicionais"',
    partialVoid: 'ecom:6285 "O cancelamento parcial está disponível apenas para transações capturadas"',
    partialVoidLeaves:
      'ecom:6313-6330 (a partial void answers Status 2); ecom:7375-7376 (a whole one 10, or 11 after the day)',
  },
};

/** The JSON e-commerce API as the card-not-present backend: credit sales typed on the pinpad. */
export class EcommerceCardNotPresent implements CardNotPresentBackend {
  readonly kind = 'ecommerce';
  readonly rules = ECOMMERCE_RULES;
  /** `Payment.RecurrentPayment` and its query (ecom:4256-4500, 5928-6052). */
  readonly schedulesRecurrences = true;
  /** Each `POST /1/card` answers a new `CardToken` (ecom:3075-3147): a lost answer's token stays unnamed. */
  readonly tokenPerCard = false;
  readonly #client: EcommerceClient;
  readonly #settings: EcommerceCnpSettings;

  constructor(client: EcommerceClient, settings: EcommerceCnpSettings = {}) {
    this.#client = client;
    this.#settings = settings;
  }

  #options(): { timeoutMs?: number } {
    return this.#settings.timeoutMs !== undefined ? { timeoutMs: this.#settings.timeoutMs } : {};
  }

  #payment(r: Omit<CnpSaleRequest, 'card'>, creditCard: CardSaleRequest['Payment']['CreditCard']): CardSaleRequest {
    if (r.method === 'debit')
      throw new OmniposError(
        'CNP_DEBIT_NEEDS_AUTHENTICATION',
        'debit without the card needs the cardholder to authenticate in a browser (ecom:39, 420-433); sell it as credit or with the card present',
      );
    return {
      MerchantOrderId: r.merchantOrderId,
      Payment: {
        Type: 'CreditCard',
        Amount: r.amountCents,
        Installments: r.installments,
        Capture: r.capture,
        ...(this.#settings.softDescriptor ? { SoftDescriptor: this.#settings.softDescriptor } : {}),
        ...(r.recurrence ? { RecurrentPayment: recurrenceNode(r.recurrence) } : {}),
        CreditCard: creditCard,
      },
    };
  }

  async sale(r: CnpSaleRequest): Promise<CnpSaleOutcome> {
    const body = this.#payment(r, {
      CardNumber: r.card.number,
      Holder: r.card.holder,
      ExpirationDate: r.card.expiry,
      ...(r.card.securityCode !== undefined ? { SecurityCode: r.card.securityCode } : {}),
      Brand: r.card.brand,
      ...(r.saveCard ? { SaveCard: true } : {}),
    });
    const ex = await settle(() => this.#client.createCardSale(body, this.#options()));
    return cardSaleOutcome(ex, r.capture);
  }

  /** A sale by `CardToken` (ecom:3471-3535): the token and brand in place of the card. */
  async saleByToken(r: CnpTokenSaleRequest): Promise<CnpSaleOutcome> {
    const body = this.#payment(r, {
      CardToken: r.saved.token,
      ...(r.securityCode !== undefined ? { SecurityCode: r.securityCode } : {}),
      Brand: r.saved.brand,
    });
    const ex = await settle(() => this.#client.createCardSale(body, this.#options()));
    return cardSaleOutcome(ex, r.capture);
  }

  /** `POST /1/card` (ecom:3075-3147): the holder's name as the buyer's (`CustomerName`, 3085). */
  async saveCard(card: TypedCard): Promise<CnpSaveOutcome> {
    const body = {
      CustomerName: card.holder,
      CardNumber: card.number,
      Holder: card.holder,
      ExpirationDate: card.expiry,
      Brand: card.brand,
    };
    const ex = await settle(() => this.#client.saveCard(body, this.#options()));
    return savedCardOutcome(ex, { maskedNumber: maskPanDigits(card.number), brand: card.brand });
  }

  async recurrence(id: string): Promise<CnpRecurrenceStatus> {
    return recurrenceOutcome(await settle(() => this.#client.getRecurrence(id, this.#options())));
  }

  async capture(paymentId: string, amountCents?: number): Promise<CnpChangeOutcome> {
    const ex = await settle(() => this.#client.captureSale(paymentId, amountCents, this.#options()));
    return changeOutcome(ex, ['approved']);
  }

  async void(paymentId: string, amountCents?: number): Promise<CnpChangeOutcome> {
    const ex = await settle(() => this.#client.voidSale(paymentId, amountCents, this.#options()));
    // Whole: 10 (or 11 after the day); a partial void of a captured sale leaves it 2 (ecom:6313-6330).
    return changeOutcome(ex, amountCents === undefined ? ['undone', 'cancelled'] : ['undone', 'cancelled', 'approved']);
  }

  async query(paymentId: string): Promise<SaleQuery> {
    return cardQueryOutcome(await settle(() => this.#client.getSale(paymentId, this.#options())));
  }

  async queryByOrderId(merchantOrderId: string): Promise<SaleQuery> {
    const ids = orderIdsOutcome(await settle(() => this.#client.salesByOrderId(merchantOrderId, this.#options())));
    if (ids.kind !== 'ids') return ids;
    // The newest sale under the order id is the one a void by order id would reach too (ecom:6197).
    return this.query(ids.ids[ids.ids.length - 1] as string);
  }

  async cardProduct(bin: string): Promise<CardProduct> {
    return cardProductOf(await this.#client.cardBin(bin, this.#options()));
  }
}
