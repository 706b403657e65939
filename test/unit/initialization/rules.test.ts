import { describe, expect, it } from 'vitest';
import {
  authenticationMethodOf,
  candidateProducts,
  checkInstallments,
  checkLastFour,
  deviceAccepted,
  duplicateWarning,
  expiryAccepted,
  fallbackAllowed,
  inputModeOf,
  installmentRange,
  lastFourRequired,
  passwordRule,
  productChoice,
  planSale,
  securityCodeRule,
  stripeAccepted,
  typingAllowed,
  voidAllowed,
  type Candidate,
  type CardRead,
  type Levels,
  type TableSet,
} from '../../../src/initialization/index.js';
import { fixture } from '../../helpers/initialization-fixture.js';

const ids = (set: TableSet, read: CardRead, want?: Parameters<typeof candidateProducts>[2]) => {
  const r = candidateProducts(set, read, want);
  return r.ok ? r.candidates.map((c) => c.product.ProductId) : r.reason;
};
function only(set: TableSet, read: CardRead, productId: number): { c: Candidate; levels: Levels } {
  const r = candidateProducts(set, read);
  if (!r.ok) throw new Error(r.message);
  const c = r.candidates.find((x) => x.product.ProductId === productId)!;
  return { c, levels: { parameters: set.tables.parameters, issuer: c.issuer, bin: c.bin } };
}
const stripe = (digits = '47617300', extra: Partial<CardRead> = {}): CardRead => ({
  entry: 'magstripe',
  digits,
  serviceCode: '101',
  ...extra,
});
const chip = (aid: string, digits = '47617300'): CardRead => ({ entry: 'emv', digits, aid });

describe('candidate products', () => {
  const set = fixture();
  it('by BIN: overlapping ranges give the specific one, the narrowest (8-digit) first, the generic one last', () => {
    expect(ids(set, stripe('47617300'))).toEqual([1, 2]);
    expect(ids(set, stripe('47617315'))).toEqual([1]);
    expect(only(set, stripe('47617315'), 1).c.issuer?.IssuerId).toBe(11);
    expect(ids(set, stripe('41000000'))).toEqual([1]);
    expect(only(set, stripe('41000000'), 1).c.bin?.Type).toBe(1);
    expect(ids(set, stripe('30000000'))).toBe('unknown-bin');
  });

  it("by chip AID: only the products the card's application lists (credit AID → credit, debit AID → debit)", () => {
    expect(ids(set, chip('A0000000031010'))).toEqual([1]);
    expect(ids(set, chip('A000000003201001'))).toEqual([2]); // partial selection: the card's AID extends the table's
    expect(ids(set, chip('A0000000041010'))).toBe('aid-not-in-table');
  });

  it('a chip card outside every range: served from its AID unless the Emv entry requires the BIN in the range table', () => {
    expect(ids(set, chip('A0000000031010', '30000000'))).toEqual([1]);
    const strict = fixture((t) => (t.Emv[0]!.RequireBINToBeInCardRangeTable = true));
    expect(ids(strict, chip('A0000000031010', '30000000'))).toBe('bin-not-in-range-table');
  });

  it('by input mode: contactless only for products that allow it', () => {
    expect(ids(set, { entry: 'contactlessEmv', digits: '47617300', aid: 'A0000000031010' })).toEqual([1]);
    const noCtls = fixture((t) => (t.Products[0]!.AllowTransactionWithContactlessCard = false));
    expect(ids(noCtls, { entry: 'contactlessEmv', digits: '47617300', aid: 'A0000000031010' })).toBe(
      'contactless-not-allowed',
    );
    expect(ids(set, { entry: 'contactlessMagstripe', digits: '50670001' })).toBe('contactless-not-allowed');
  });

  it('by sale type: credit, debit, voucher (a voucher brand)', () => {
    expect(ids(set, stripe('47617300'), 'PhysicalDebitCard')).toEqual([2]);
    expect(ids(set, stripe('50670001'), 'PhysicalVoucherCard')).toEqual([3]);
    expect(ids(set, stripe('50670001'), 'PhysicalCreditCard')).toBe('no-product-of-type');
  });

  it('the customer chooses when several products fit, and only then', () => {
    const both = candidateProducts(set, stripe('47617300'));
    const one = candidateProducts(set, stripe('47617315'));
    expect(both.ok && productChoice(both.candidates)).toEqual({
      mustChoose: true,
      options: [
        { productId: 1, label: 'VISA CREDITO' },
        { productId: 2, label: 'VISA DEBITO' },
      ],
    });
    expect(one.ok && productChoice(one.candidates).mustChoose).toBe(false);
  });
});

describe('installments', () => {
  it('ByMerchant from the store minimum to the store maximum; ByIssuer up to the card company maximum', () => {
    const set = fixture((t) => (t.Products[0]!.MinimumNumberOfInstallmentsWhenFinancingByStore = 3));
    const { c, levels } = only(set, stripe(), 1);
    expect(installmentRange(c, levels, 'ByMerchant')).toEqual({ min: 3, max: 12 });
    expect(installmentRange(c, levels, 'ByIssuer')).toEqual({ min: 2, max: 24 });
    expect(checkInstallments(c, levels, 12, 'ByMerchant').ok).toBe(true);
    expect(checkInstallments(c, levels, 13, 'ByMerchant').ok).toBe(false);
    expect(checkInstallments(c, levels, 2, 'ByMerchant').ok).toBe(false);
    expect(checkInstallments(c, levels, 24, 'ByIssuer').ok).toBe(true);
    expect(checkInstallments(c, levels, 25, 'ByIssuer').ok).toBe(false);
    expect(checkInstallments(c, levels, 1, 'ByMerchant').ok).toBe(true);
  });

  it('a BIN row or issuer that forbids a financing wins over the product; debit has none', () => {
    const set = fixture((t) => {
      t.Bins[1]!.AllowFinancingByStore = false;
      t.Issuers[0]!.AllowFinancingByCreditCardCompany = false;
    });
    const { c, levels } = only(set, stripe(), 1);
    expect(checkInstallments(c, levels, 3, 'ByMerchant')).toMatchObject({
      ok: false,
      reason: 'installments-not-allowed',
    });
    expect(checkInstallments(c, levels, 3, 'ByIssuer').ok).toBe(false);
    const debit = only(fixture(), stripe(), 2);
    expect(checkInstallments(debit.c, debit.levels, 2, 'ByIssuer').ok).toBe(false);
    expect(checkInstallments(debit.c, debit.levels, 1).ok).toBe(true);
  });
});

describe('typing and fallback', () => {
  it('typing needs a keyboard and every level to allow it', () => {
    const set = fixture();
    const { levels } = only(set, stripe(), 1);
    expect(typingAllowed(set.tables.acquirer, levels).ok).toBe(true);
    expect(typingAllowed(set.tables.acquirer, { parameters: set.tables.parameters }).ok).toBe(true);
    const binForbids = fixture((t) => (t.Bins[1]!.AllowTypingCardNumber = false));
    expect(typingAllowed(binForbids.tables.acquirer, only(binForbids, stripe(), 1).levels)).toMatchObject({
      ok: false,
      reason: 'typing-not-allowed',
    });
    const noKeyboard = fixture((t) => (t.Acquirer.HasKeyboard = false));
    expect(typingAllowed(noKeyboard.tables.acquirer, { parameters: noKeyboard.tables.parameters }).ok).toBe(false);
  });

  it('a swiped chip card must be inserted; its fallback swipe is allowed only if every level allows fallback', () => {
    const set = fixture();
    const { levels } = only(set, stripe(), 1);
    expect(stripeAccepted(stripe('47617300', { serviceCode: '201' }), set.tables.acquirer, levels)).toMatchObject({
      ok: false,
      reason: 'use-chip',
    });
    expect(
      stripeAccepted(stripe('47617300', { serviceCode: '201', fallback: true }), set.tables.acquirer, levels).ok,
    ).toBe(true);
    expect(stripeAccepted(stripe('47617300', { serviceCode: '101' }), set.tables.acquirer, levels).ok).toBe(true);
    const issuerForbids = fixture((t) => (t.Issuers[0]!.AllowFallbackWhenChipReadingFails = false));
    const l2 = only(issuerForbids, stripe(), 1).levels;
    expect(
      stripeAccepted(stripe('47617300', { serviceCode: '201', fallback: true }), issuerForbids.tables.acquirer, l2),
    ).toMatchObject({ ok: false, reason: 'fallback-not-allowed' });
    expect(fallbackAllowed(issuerForbids.tables.acquirer, l2).ok).toBe(false);
  });
});

describe('password and security code', () => {
  it('"password except for EMV cards": the stripe asks, the chip leaves it to the card, typed goes without', () => {
    const set = fixture((t) => (t.Bins[1]!.RequiresPasswordExceptForEMVCard = true));
    const { levels } = only(set, stripe(), 1);
    expect(passwordRule(stripe(), levels)).toBe('required');
    expect(passwordRule(chip('A0000000031010'), levels)).toBe('card');
    expect(passwordRule({ entry: 'typed', digits: '47617300' }, levels)).toBe('none');
    expect(passwordRule(stripe(), only(fixture(), stripe(), 1).levels)).toBe('none');
  });

  it('"password" (issuer level) applies to chip too: no PIN bypass', () => {
    const set = fixture((t) => (t.Issuers[0]!.RequiresPassword = true));
    const { levels } = only(set, stripe(), 1);
    expect(passwordRule(chip('A0000000031010'), levels)).toBe('required');
    expect(passwordRule(stripe(), levels)).toBe('required');
  });

  it("the service code's last digit asks for a PIN when the tables interpret it", () => {
    const set = fixture((t) => (t.Parameters[0]!.InterpretsLastDigitOfSecurityCode = true));
    const { levels } = only(set, stripe(), 1);
    expect(passwordRule(stripe('47617300', { serviceCode: '206' }), levels)).toBe('required');
    expect(passwordRule(stripe('47617300', { serviceCode: '101' }), levels)).toBe('none');
  });

  it('CVV: typed and stripe by their own flags, never chip; "unreadable" and "none" only when enabled', () => {
    const set = fixture((t) => (t.Bins[1]!.RequiresSecurityCodeWhenCardNumberIsTyped = true));
    const { levels } = only(set, stripe(), 1);
    expect(securityCodeRule({ entry: 'typed', digits: '47617300' }, levels)).toEqual({
      ask: true,
      statuses: ['Collected'],
    });
    expect(securityCodeRule(stripe(), levels).ask).toBe(false);
    const both = fixture((t) => {
      t.Issuers[0]!.RequiresSecurityCodeWhenMagneticTrackIsRead = true;
      t.Parameters[0]!.EnableAdditionalSecurityCodeOptions_Unreadable_NoCode = true;
    });
    const l2 = only(both, stripe(), 1).levels;
    expect(securityCodeRule(stripe(), l2)).toEqual({ ask: true, statuses: ['Collected', 'Unreadable', 'Nonexistent'] });
    expect(securityCodeRule(chip('A0000000031010'), l2).ask).toBe(false);
  });
});

describe('last four digits, expiry, duplicate value', () => {
  it('stripe reads ask for the last four digits when a level requires it', () => {
    const set = fixture((t) => (t.Bins[1]!.RequiresTypingLast4Digits = true));
    const { levels } = only(set, stripe(), 1);
    expect(lastFourRequired(stripe(), levels)).toBe(true);
    expect(lastFourRequired(chip('A0000000031010'), levels)).toBe(false);
    expect(lastFourRequired(stripe(), only(fixture(), stripe(), 1).levels)).toBe(false);
    expect(checkLastFour('0060', '47617300****0060').ok).toBe(true);
    expect(checkLastFour('0061', '47617300****0060').ok).toBe(false);
  });

  it('expiry: checked for typed and stripe by their flags, valid through the end of the month', () => {
    const set = fixture((t) => (t.Bins[1]!.CheckExpiryDateWhenCardNumberIsTyped = true));
    const { levels } = only(set, stripe(), 1);
    const typed: CardRead = { entry: 'typed', digits: '47617300' };
    const today = { year: 2026, month: 11 };
    expect(expiryAccepted(typed, levels, '2611', today).ok).toBe(true);
    expect(expiryAccepted(typed, levels, '2610', today)).toMatchObject({ ok: false, reason: 'expired' });
    expect(expiryAccepted(stripe(), levels, '2610', today).ok).toBe(true); // the stripe flag is off
    expect(expiryAccepted(chip('A0000000031010'), levels, '2001', today).ok).toBe(true);
  });

  it('duplicate value: same amount on the same card warns, only when a level restricts it', () => {
    const set = fixture((t) => (t.Bins[1]!.RestrictSaleWithDuplicateValue = true));
    const { levels } = only(set, stripe(), 1);
    const sale = { amount: 1000, maskedPan: '47617300******0060' };
    expect(duplicateWarning(levels, sale, [{ amount: 1000, maskedPan: '47617300******0060' }])).toBe(true);
    expect(duplicateWarning(levels, sale, [{ amount: 1001, maskedPan: '47617300******0060' }])).toBe(false);
    expect(duplicateWarning(levels, sale, [{ amount: 1000, maskedPan: '47617300******0011' }])).toBe(false);
    expect(duplicateWarning(only(fixture(), stripe(), 1).levels, sale, [sale])).toBe(false);
  });
});

describe('issuer requirements and voids', () => {
  const set = fixture();
  it('an issuer may require a PIN pad or a chip reader', () => {
    expect(deviceAccepted(set.issuer(10), { hasPinpad: false, hasChipReader: true })).toMatchObject({
      ok: false,
      reason: 'requires-pinpad',
    });
    expect(deviceAccepted(set.issuer(11), { hasPinpad: true, hasChipReader: false })).toMatchObject({
      ok: false,
      reason: 'requires-chip-reader',
    });
    expect(deviceAccepted(set.issuer(10), { hasPinpad: true, hasChipReader: false }).ok).toBe(true);
  });

  it("voids within the issuer's days, value and percentage; above the sale only if the parameters allow", () => {
    const p = set.product(1)!;
    const params = set.tables.parameters;
    const ok = { saleAmount: 10000, voidAmount: 10000, daysSinceSale: 30 };
    expect(voidAllowed(p, set.issuer(10), params, ok).ok).toBe(true);
    expect(voidAllowed(p, set.issuer(10), params, { ...ok, daysSinceSale: 31 })).toMatchObject({
      reason: 'void-too-late',
    });
    expect(
      voidAllowed(p, set.issuer(10), params, { saleAmount: 90000, voidAmount: 60000, daysSinceSale: 0 }),
    ).toMatchObject({ reason: 'void-over-limit' });
    expect(voidAllowed(p, set.issuer(10), params, { ...ok, voidAmount: 10001 })).toMatchObject({
      reason: 'void-over-limit',
    });
    expect(voidAllowed(p, set.issuer(11), params, { saleAmount: 100, voidAmount: 100, daysSinceSale: 400 }).ok).toBe(
      true,
    );
    const half = fixture((t) => (t.Issuers[1]!.LimitPercentforReversal = 50)).issuer(11);
    expect(voidAllowed(p, half, params, { saleAmount: 1000, voidAmount: 501, daysSinceSale: 0 }).ok).toBe(false);
    expect(voidAllowed(p, half, params, { saleAmount: 1000, voidAmount: 500, daysSinceSale: 0 }).ok).toBe(true);
    const more = fixture((t) => (t.Parameters[0]!.AllowCancellationWithValueGreaterThanTheValueOfTheSale = true));
    expect(
      voidAllowed(p, more.issuer(11), more.tables.parameters, { saleAmount: 100, voidAmount: 150, daysSinceSale: 0 })
        .ok,
    ).toBe(true);
    expect(voidAllowed({ ...p, AllowCancel: false }, set.issuer(10), params, ok)).toMatchObject({
      reason: 'void-not-allowed',
    });
  });
});

describe('InputMode and AuthenticationMethod of the omni request', () => {
  it('InputMode by entry; a fallback is MagStripe with IsFallback', () => {
    expect(inputModeOf({ entry: 'emv' })).toEqual({ InputMode: 'Emv', IsFallback: false });
    expect(inputModeOf({ entry: 'contactlessEmv' })).toEqual({ InputMode: 'ContactlessEmv', IsFallback: false });
    expect(inputModeOf({ entry: 'contactlessMagstripe' })).toEqual({
      InputMode: 'ContactlessMagStripe',
      IsFallback: false,
    });
    expect(inputModeOf({ entry: 'magstripe', fallback: true })).toEqual({ InputMode: 'MagStripe', IsFallback: true });
    expect(inputModeOf({ entry: 'typed' })).toEqual({ InputMode: 'Typed', IsFallback: false });
  });

  it("chip: from the card's CVM result; stripe: from the tables' password bit", () => {
    expect(authenticationMethodOf({ entry: 'emv' }, 'card', { pinOffline: true, pinOnline: false })).toBe(
      'OfflineAuthentication',
    );
    expect(authenticationMethodOf({ entry: 'emv' }, 'card', { pinOffline: false, pinOnline: true })).toBe(
      'OnlineAuthentication',
    );
    expect(
      authenticationMethodOf({ entry: 'contactlessEmv' }, 'required', { pinOffline: false, pinOnline: false }),
    ).toBe('NoPassword');
    expect(authenticationMethodOf({ entry: 'magstripe' }, 'required')).toBe('OnlineAuthentication');
    expect(authenticationMethodOf({ entry: 'magstripe' }, 'none')).toBe('NoPassword');
    expect(authenticationMethodOf({ entry: 'typed' }, 'none')).toBe('NoPassword');
  });
});

describe("planSale: the rules in a sale's order", () => {
  const sale = {
    amount: 1000,
    installments: 1,
    today: { year: 2026, month: 11 },
    maskedPan: '47617300****0060',
    recent: [],
    device: { hasPinpad: true, hasChipReader: true },
  };
  it('asks the customer to choose, then plans the chosen product for the omni request', () => {
    const set = fixture((t) => (t.Bins[2]!.RequiresPassword = true));
    expect(planSale(set, stripe(), sale)).toEqual({
      ok: 'choose',
      options: [
        { productId: 1, label: 'VISA CREDITO' },
        { productId: 2, label: 'VISA DEBITO' },
      ],
    });
    const debit = planSale(set, stripe(), { ...sale, productId: 2 });
    expect(debit).toMatchObject({
      ok: true,
      plan: {
        productId: 2,
        brandId: 1,
        issuerId: 10,
        paymentType: 'PhysicalDebitCard',
        InputMode: 'MagStripe',
        IsFallback: false,
        password: 'required',
      },
    });
    const credit = planSale(set, chip('A0000000031010'), { ...sale, installments: 3 });
    expect(credit).toMatchObject({
      ok: true,
      plan: { productId: 1, InputMode: 'Emv', password: 'card', tags: { first: expect.any(String) } },
    });
  });

  it('refuses at the first rule that says no', () => {
    const set = fixture();
    expect(planSale(set, stripe('47617315'), { ...sale, installments: 13 })).toMatchObject({
      ok: false,
      reason: 'installments-not-allowed',
    });
    expect(planSale(set, stripe('47617315', { serviceCode: '201' }), sale)).toMatchObject({
      ok: false,
      reason: 'use-chip',
    });
    expect(
      planSale(set, stripe('47617315'), { ...sale, device: { hasPinpad: true, hasChipReader: false } }),
    ).toMatchObject({ ok: false, reason: 'requires-chip-reader' });
  });
});
