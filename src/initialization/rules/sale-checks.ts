import type { Issuer, Parameters, Product } from '../schema/tables.js';
import { requiredByAny, type Levels } from './levels.js';
import { refuse, type Decision } from './types.js';

/** A sale already made, as the duplicate check needs it (the engine reads them from the journal). */
export interface RecentSale {
  amount: number;
  /** First 8 and last 4 digits, e.g. "47617300******0060" (masked as the pinpad gives it). */
  maskedPan: string;
}

/**
 * The duplicate-value warning: with `RestrictSaleWithDuplicateValue` (or, for a postdated sale,
 * `RestrictSaleWithDuplicateValueWhenPostdated`) at any level, a sale of the same amount on the
 * same card as one the engine passes in (today's approved sales) asks the cashier to confirm.
 */
export function duplicateWarning(
  levels: Levels,
  sale: RecentSale,
  recent: readonly RecentSale[],
  postdated = false,
): boolean {
  const flag = postdated ? 'RestrictSaleWithDuplicateValueWhenPostdated' : 'RestrictSaleWithDuplicateValue';
  if (!requiredByAny(levels, flag)) return false;
  const card = (m: string) => `${m.slice(0, 6)}${m.slice(-4)}`;
  return recent.some((r) => r.amount === sale.amount && card(r.maskedPan) === card(sale.maskedPan));
}

/** What the terminal has, from the pinpad's capabilities. */
export interface Device {
  hasPinpad: boolean;
  hasChipReader: boolean;
}

/** The issuer's device requirements: `RequiresPinpad`, `RequiresChipReader`. */
export function deviceAccepted(issuer: Issuer | undefined, device: Device): Decision {
  if (issuer?.RequiresPinpad && !device.hasPinpad)
    return refuse('requires-pinpad', `${issuer.IssuerNameForDisplay || issuer.IssuerName} requires a PIN pad`);
  if (issuer?.RequiresChipReader && !device.hasChipReader)
    return refuse('requires-chip-reader', `${issuer.IssuerNameForDisplay || issuer.IssuerName} requires a chip reader`);
  return { ok: true };
}

export interface VoidRequest {
  /** The sale's amount and the void's, in cents. */
  saleAmount: number;
  voidAmount: number;
  /** Whole days from the sale's host date to today's. */
  daysSinceSale: number;
}

/**
 * Whether a void is allowed: the product allows cancelling (`AllowCancel`); the issuer's limits
 * (`LimitDayforReversal` days, `LimitValueforReversal` cents, `LimitPercentforReversal` percent of
 * the sale; 0 or empty = no limit); and a void above the sale's amount only with
 * `Parameters.AllowCancellationWithValueGreaterThanTheValueOfTheSale`.
 */
export function voidAllowed(
  product: Product,
  issuer: Issuer | undefined,
  parameters: Parameters,
  v: VoidRequest,
): Decision {
  if (!product.AllowCancel)
    return refuse('void-not-allowed', `${product.ProductName} sales cannot be voided (AllowCancel)`);
  if (v.voidAmount <= 0) return refuse('void-over-limit', 'the void amount must be positive');
  if (v.voidAmount > v.saleAmount && !parameters.AllowCancellationWithValueGreaterThanTheValueOfTheSale) {
    return refuse('void-over-limit', `the void (${v.voidAmount}) exceeds the sale (${v.saleAmount})`);
  }
  if (issuer) {
    if (issuer.LimitDayforReversal > 0 && v.daysSinceSale > issuer.LimitDayforReversal) {
      return refuse(
        'void-too-late',
        `${issuer.IssuerName} allows voids up to ${issuer.LimitDayforReversal} days after the sale; this one is ${v.daysSinceSale} days old`,
      );
    }
    const maxValue = Number(issuer.LimitValueforReversal || '0');
    if (maxValue > 0 && v.voidAmount > maxValue)
      return refuse('void-over-limit', `${issuer.IssuerName} allows voids up to ${maxValue} cents`);
    if (issuer.LimitPercentforReversal > 0 && v.voidAmount * 100 > v.saleAmount * issuer.LimitPercentforReversal) {
      return refuse(
        'void-over-limit',
        `${issuer.IssuerName} allows voids up to ${issuer.LimitPercentforReversal}% of the sale`,
      );
    }
  }
  return { ok: true };
}
