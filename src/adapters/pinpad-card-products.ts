import { localTime } from '../core/index.js';
import type { CardRequest } from '../engine/index.js';
import {
  candidateProducts,
  paymentTypeOf,
  planSale,
  requiredByAny,
  typingAllowed,
  type PaymentType,
  type TableSet,
} from '../initialization/index.js';

/** What the product tables need to know of a read (never the full PAN: the first 8 digits). */
export interface ProductQuery {
  entry: 'magstripe' | 'emv' | 'contactlessMagstripe' | 'contactlessEmv' | 'typed';
  digits: string;
  aid?: string;
  serviceCode?: string;
  fallback: boolean;
  method: CardRequest['method'];
}

export type ProductResolver = (
  q: ProductQuery,
) => { productId: number; brandId?: number; issuerId?: number } | undefined;

/** The sale facts the selection rules check beside the card (installments, expiry). */
export interface SelectionFacts {
  amount: number;
  installments: number;
  interest: 'ByMerchant' | 'ByIssuer';
  /** YYMM, from the track or typed (stripe and typed reads). */
  expiry?: string;
  /** First 8 and last 4 digits. */
  maskedPan: string;
  /** The product the customer chose on the pinpad (MNU), once asked. */
  productId?: number;
  /** Typed entry: whether the number's check digit is right (Luhn); the tables may waive the check. */
  luhnValid?: boolean;
}

/**
 * What the tables decide for one read: the product (with who asks for the PIN), a choice the
 * customer must make on the pinpad (several products fit), or a refusal with its reason.
 */
export type ProductSelection =
  | { kind: 'product'; productId: number; brandId: number; issuerId?: number; password: 'required' | 'card' | 'none' }
  | { kind: 'choose'; options: { productId: number; label: string }[] }
  | { kind: 'refused'; reason: string; message: string };

export type ProductSelector = (q: ProductQuery, facts: SelectionFacts) => ProductSelection;

const WANT: Record<CardRequest['method'], PaymentType> = {
  credit: 'PhysicalCreditCard',
  debit: 'PhysicalDebitCard',
  voucher: 'PhysicalVoucherCard',
};

/** Resolves the product from the initialization tables (the first candidate of the sale's payment type). */
export function productResolver(set: TableSet): ProductResolver {
  return (q) => {
    const d = candidateProducts(set, {
      entry: q.entry,
      digits: q.digits,
      ...(q.aid ? { aid: q.aid } : {}),
      ...(q.serviceCode ? { serviceCode: q.serviceCode } : {}),
      fallback: q.fallback,
    });
    if (!d.ok) return undefined;
    const c = d.candidates.find((x) => paymentTypeOf(x.product) === WANT[q.method]) ?? undefined;
    if (!c) return undefined;
    return {
      productId: c.product.ProductId,
      brandId: Number(c.product.BrandId),
      ...(c.issuer ? { issuerId: c.issuer.IssuerId } : {}),
    };
  };
}

/**
 * The selection rules of src/initialization (`planSale`) for a read: candidate products of the
 * sale's method (a choice when several fit, e.g. a meal and a food voucher on one card), the
 * issuer's device needs, a swiped chip card sent to the chip unless it is the fallback the tables
 * allow, installments, expiry, the password rule; for typed entry also the typing permission at
 * every level and the check digit (unless `DoNotValidateCardModule10`). A typed card whose product wants the security code is refused: this terminal does
 * not collect it.
 */
export function tableProductSelector(
  tables: () => TableSet | undefined,
  now: () => Date = () => new Date(),
): ProductSelector {
  return (q, facts) => {
    const set = tables();
    if (!set) return { kind: 'refused', reason: 'not-initialized', message: 'no initialization tables are in force' };
    const today = localTime(now());
    const read = {
      entry: q.entry,
      digits: q.digits,
      ...(q.aid ? { aid: q.aid } : {}),
      ...(q.serviceCode ? { serviceCode: q.serviceCode } : {}),
      fallback: q.fallback,
    };
    const plan = planSale(set, read, {
      amount: facts.amount,
      installments: facts.installments,
      interest: facts.interest,
      want: WANT[q.method],
      ...(facts.productId !== undefined ? { productId: facts.productId } : {}),
      ...(facts.expiry ? { expiry: facts.expiry } : {}),
      today: { year: today.year, month: today.month },
      maskedPan: facts.maskedPan,
      recent: [],
      device: { hasPinpad: true, hasChipReader: true },
    });
    if (plan.ok === 'choose') return { kind: 'choose', options: plan.options };
    if (!plan.ok) return { kind: 'refused', reason: plan.reason, message: plan.message };
    const p = plan.plan;
    if (q.entry === 'typed') {
      const found = candidateProducts(set, read, WANT[q.method]);
      const c = found.ok ? found.candidates.find((x) => x.product.ProductId === p.productId) : undefined;
      const levels = { parameters: set.tables.parameters, issuer: c?.issuer, bin: c?.bin };
      const typing = typingAllowed(set.tables.acquirer, levels);
      if (!typing.ok) return { kind: 'refused', reason: typing.reason, message: typing.message };
      if (facts.luhnValid === false && !requiredByAny(levels, 'DoNotValidateCardModule10')) {
        return {
          kind: 'refused',
          reason: 'invalid-card-number',
          message: 'the typed card number fails its check digit (Luhn): type it again',
        };
      }
      if (p.securityCode.ask)
        return {
          kind: 'refused',
          reason: 'typing-not-allowed',
          message: 'the tables want the security code for this typed card, which this terminal does not collect',
        };
    }
    return {
      kind: 'product',
      productId: p.productId,
      brandId: p.brandId,
      ...(p.issuerId !== undefined ? { issuerId: p.issuerId } : {}),
      password: p.password,
    };
  };
}

/**
 * Whether typed entry can work at all for a method before any number is typed: the terminal has
 * a keyboard, `Parameters` allows typing, and some BIN range of a product of that method allows
 * it at its range and issuer levels. Undefined when allowed; otherwise why not.
 */
export function typedEntryRefusal(set: TableSet | undefined, method: CardRequest['method']): string | undefined {
  if (!set) return 'no initialization tables are in force';
  const terminal = typingAllowed(set.tables.acquirer, { parameters: set.tables.parameters });
  if (!terminal.ok) return terminal.message;
  const some = set.tables.bins.some((bin) => {
    const product = set.product(bin.ProductId);
    if (!product || paymentTypeOf(product) !== WANT[method]) return false;
    const levels = { parameters: set.tables.parameters, issuer: set.issuer(bin.IssuerId), bin };
    return (
      typingAllowed(set.tables.acquirer, levels).ok &&
      !requiredByAny(levels, 'RequiresSecurityCodeWhenCardNumberIsTyped')
    );
  });
  return some ? undefined : `the tables allow no typed ${method} card (AllowTypingCardNumber)`;
}
