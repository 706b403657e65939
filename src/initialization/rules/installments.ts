import { allowedByAll, type Levels } from './levels.js';
import { refuse, type Candidate, type Decision } from './types.js';

/** `Payment.Interest`: who finances the installments. */
export type Interest = 'ByMerchant' | 'ByIssuer';

export interface InstallmentRange {
  min: number;
  max: number;
}

/**
 * The installments a product allows for an `Interest` (2 or more; 1 is always a cash sale):
 * - `ByMerchant` (store financing): `AllowFinancingByStore` on the product and at every level,
 *   from `MinimumNumberOfInstallmentsWhenFinancingByStore` (at least 2) to
 *   `MaximumNumberOfInstallmentsWhenFinancingByStore`;
 * - `ByIssuer` (card company financing): `AllowFinancingByCreditCardCompany` likewise, 2 to
 *   `MaximumNumberOfInstallmentsWhenFinancingByCreditCardCompany`.
 * A maximum below 2 means none.
 */
export function installmentRange(
  candidate: Candidate,
  levels: Levels,
  interest: Interest,
): InstallmentRange | undefined {
  const p = candidate.product;
  const scoped: Levels = { ...levels, issuer: candidate.issuer ?? levels.issuer, bin: candidate.bin ?? levels.bin };
  if (interest === 'ByMerchant') {
    if (!p.AllowFinancingByStore || !allowedByAll(scoped, 'AllowFinancingByStore')) return undefined;
    const min = Math.max(2, p.MinimumNumberOfInstallmentsWhenFinancingByStore);
    const max = p.MaximumNumberOfInstallmentsWhenFinancingByStore;
    return max >= min ? { min, max } : undefined;
  }
  if (!p.AllowFinancingByCreditCardCompany || !allowedByAll(scoped, 'AllowFinancingByCreditCardCompany'))
    return undefined;
  const max = p.MaximumNumberOfInstallmentsWhenFinancingByCreditCardCompany;
  return max >= 2 ? { min: 2, max } : undefined;
}

/** Checks the installments of a sale (1 = cash, always allowed). */
export function checkInstallments(
  candidate: Candidate,
  levels: Levels,
  installments: number,
  interest: Interest = 'ByMerchant',
): Decision {
  if (!Number.isInteger(installments) || installments < 1 || installments > 99)
    return refuse('installments-not-allowed', `installments: expected 1 to 99, got ${installments}`);
  if (installments === 1) return { ok: true };
  const range = installmentRange(candidate, levels, interest);
  if (!range)
    return refuse(
      'installments-not-allowed',
      `${candidate.product.ProductName} allows no installments ${interest === 'ByMerchant' ? 'financed by the store' : 'financed by the card company'}`,
    );
  if (installments < range.min || installments > range.max) {
    return refuse(
      'installments-not-allowed',
      `${candidate.product.ProductName}: ${interest} allows ${range.min} to ${range.max} installments, not ${installments}`,
    );
  }
  return { ok: true };
}
