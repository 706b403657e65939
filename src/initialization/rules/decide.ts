import { binFlagsObject } from '../model.js';
import type { PaymentType, TableSet } from '../table-set.js';
import { candidateProducts, productChoice } from './candidates.js';
import { passwordRule, securityCodeRule, type PasswordDecision, type SecurityCodeStatus } from './cardholder.js';
import { fallbackAllowed, lastFourRequired, typingAllowed } from './entry.js';
import { installmentRange, type InstallmentRange } from './installments.js';
import type { Levels } from './levels.js';
import type { CardRead, Decision, Entry } from './types.js';

/** What the tables decide for one product of a card, by entry mode. */
export interface ProductDecision {
  productId: number;
  productName: string;
  paymentType: PaymentType;
  brandId: string;
  issuer: { issuerId: number; name: string; requiresPinpad: boolean; requiresChipReader: boolean } | undefined;
  range: { InitialBin: string; FinalBin: string; Type: 0 | 1 } | undefined;
  binFlags: Record<string, boolean> | undefined;
  installments: { ByMerchant: InstallmentRange | null; ByIssuer: InstallmentRange | null };
  typingAllowed: boolean;
  fallbackAllowed: boolean;
  byEntry: Partial<
    Record<Entry, { password: PasswordDecision; securityCode: SecurityCodeStatus[] | null; lastFour: boolean }>
  >;
}

export interface CardDecision {
  digits: string;
  mustChoose: boolean;
  products: ProductDecision[];
}

/**
 * Every rule for the first digits of a card, as `omnipos tables bin` shows them: the candidate
 * products (by BIN; by AID when `read.aid` is given), whether the customer must choose, and for
 * each product its issuer, installments, typing and fallback, and per entry mode the password,
 * security code and last-four rules.
 */
export function decideForCard(set: TableSet, read: CardRead, want?: PaymentType): Decision<CardDecision> {
  const found = candidateProducts(set, read, want);
  if (!found.ok) return found;
  const { mustChoose } = productChoice(found.candidates);
  const { parameters, acquirer } = set.tables;
  const products = found.candidates.map((c): ProductDecision => {
    const levels: Levels = { parameters, issuer: c.issuer, bin: c.bin };
    const byEntry: ProductDecision['byEntry'] = {};
    for (const entry of ['magstripe', 'emv', 'contactlessEmv', 'typed'] as const) {
      const r = { ...read, entry };
      const cvv = securityCodeRule(r, levels);
      byEntry[entry] = {
        password: passwordRule(r, levels),
        securityCode: cvv.ask ? cvv.statuses : null,
        lastFour: lastFourRequired(r, levels),
      };
    }
    return {
      productId: c.product.ProductId,
      productName: c.product.ProductName,
      paymentType: c.paymentType,
      brandId: c.product.BrandId,
      issuer: c.issuer && {
        issuerId: c.issuer.IssuerId,
        name: c.issuer.IssuerName,
        requiresPinpad: c.issuer.RequiresPinpad,
        requiresChipReader: c.issuer.RequiresChipReader,
      },
      range: c.bin && { InitialBin: c.bin.InitialBin, FinalBin: c.bin.FinalBin, Type: c.bin.Type },
      binFlags: c.bin && binFlagsObject(c.bin),
      installments: {
        ByMerchant: installmentRange(c, levels, 'ByMerchant') ?? null,
        ByIssuer: installmentRange(c, levels, 'ByIssuer') ?? null,
      },
      typingAllowed: typingAllowed(acquirer, levels).ok,
      fallbackAllowed: fallbackAllowed(acquirer, levels).ok,
      byEntry,
    };
  });
  return { ok: true, digits: read.digits, mustChoose, products };
}
