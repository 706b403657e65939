import type { PaymentType, TableSet } from '../table-set.js';
import { candidateProducts, productChoice } from './candidates.js';
import { passwordRule, securityCodeRule, type PasswordDecision, type SecurityCodeStatus } from './cardholder.js';
import { expiryAccepted, lastFourRequired, stripeAccepted } from './entry.js';
import { checkInstallments, type Interest } from './installments.js';
import type { Levels } from './levels.js';
import { inputModeOf, type InputMode } from './omni.js';
import { deviceAccepted, duplicateWarning, type Device, type RecentSale } from './sale-checks.js';
import type { CardRead, Decision } from './types.js';

/** What the engine knows of the sale when the card has been read. */
export interface SaleContext {
  amount: number;
  installments: number;
  interest?: Interest;
  /** The sale type the cashier asked for, if any. */
  want?: PaymentType;
  /** The product the customer chose, when `mustChoose` was answered. */
  productId?: number;
  /** Stripe and typed reads: the card's expiry, YYMM. */
  expiry?: string;
  /** The host date (year, month) for the expiry check. */
  today: { year: number; month: number };
  /** First 8 and last 4 digits, for the duplicate-value check. */
  maskedPan: string;
  recent: readonly RecentSale[];
  device: Device;
}

/** Everything the tables decide for one sale, ready for the card commands and the omni request. */
export interface SalePlan {
  productId: number;
  brandId: number;
  issuerId: number | undefined;
  paymentType: PaymentType;
  InputMode: InputMode;
  IsFallback: boolean;
  password: PasswordDecision;
  securityCode: { ask: boolean; statuses: SecurityCodeStatus[] };
  lastFour: boolean;
  duplicateWarning: boolean;
  /** The `Emv` entry's tag lists for GOX/FCX (chip reads). */
  tags: { first: string; second: string } | undefined;
}

/**
 * The rules in the order a sale meets them, after the card is read: candidate products (asking the
 * customer to choose when several fit and none is chosen yet), the issuer's device requirements,
 * stripe acceptance (use the chip / fallback), installments, expiry; then what to ask (password,
 * security code, last four digits) and whether to warn of a duplicate value. Pure: the engine owns
 * the prompts and the pinpad.
 */
export function planSale(
  set: TableSet,
  read: CardRead,
  sale: SaleContext,
): Decision<{ plan: SalePlan }> | { ok: 'choose'; options: { productId: number; label: string }[] } {
  const found = candidateProducts(set, read, sale.want);
  if (!found.ok) return found;
  let candidates = found.candidates;
  if (sale.productId !== undefined) candidates = candidates.filter((c) => c.product.ProductId === sale.productId);
  const choice = productChoice(candidates.length ? candidates : found.candidates);
  if (candidates.length === 0 || choice.mustChoose) return { ok: 'choose', options: choice.options };
  const c = candidates[0]!;
  const levels: Levels = { parameters: set.tables.parameters, issuer: c.issuer, bin: c.bin };
  const checks: Decision[] = [
    deviceAccepted(c.issuer, sale.device),
    stripeAccepted(read, set.tables.acquirer, levels),
    checkInstallments(c, levels, sale.installments, sale.interest ?? 'ByMerchant'),
    sale.expiry === undefined ? { ok: true } : expiryAccepted(read, levels, sale.expiry, sale.today),
  ];
  const refused = checks.find((d) => !d.ok);
  if (refused && !refused.ok) return refused;
  const mode = inputModeOf(read);
  return {
    ok: true,
    plan: {
      productId: c.product.ProductId,
      brandId: Number(c.product.BrandId),
      issuerId: c.issuer?.IssuerId,
      paymentType: c.paymentType,
      ...mode,
      password: passwordRule(read, levels),
      securityCode: securityCodeRule(read, levels),
      lastFour: lastFourRequired(read, levels),
      duplicateWarning: duplicateWarning(levels, { amount: sale.amount, maskedPan: sale.maskedPan }, sale.recent),
      tags: c.emv && { first: c.emv.TagsFirst, second: c.emv.TagsSecond },
    },
  };
}
