/**
 * The adapter's use of the tables' selection rules (src/initialization planSale) on the sandbox
 * tables: the customer's choice when several products fit, refusals, typed entry.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  tableProductSelector,
  typedEntryRefusal,
  type ProductQuery,
} from '../../../src/adapters/pinpad-card-products.js';
import { parseInitialization, paymentTypeOf, TableSet } from '../../../src/initialization/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { sandboxAnswer } from '../../helpers/initialization-tables.js';

const set = new TableSet(parseInitialization(sandboxAnswer()));
const select = tableProductSelector(
  () => set,
  () => new Date('2026-06-15T12:00:00Z'),
);
const facts = { amount: 1000, installments: 1, interest: 'ByMerchant' as const, maskedPan: '' };
const card = (name: string) => TEST_CARDS.find((c) => c.name.includes(name))!;
const q = (pan: string, over: Partial<ProductQuery> = {}): ProductQuery => ({
  entry: 'magstripe',
  digits: pan.slice(0, 8),
  serviceCode: '101',
  fallback: false,
  method: 'credit',
  ...over,
});
const ALELO = card('alelo voucher');

describe('tableProductSelector', () => {
  it('two voucher products on one card: the customer must choose, in table order; the choice is then the product', () => {
    const query = q(ALELO.pan, { entry: 'emv', aid: 'A0000004942010', method: 'voucher' });
    expect(select(query, facts)).toEqual({
      kind: 'choose',
      options: [
        { productId: 200, label: 'ALELO REFEICAO' },
        { productId: 201, label: 'ALELO ALIMENTACAO' },
      ],
    });
    expect(select(query, { ...facts, productId: 201 })).toMatchObject({
      kind: 'product',
      productId: 201,
      brandId: 20,
      issuerId: 2000,
    });
  });

  it('a credit/debit combo BIN gives one product per method, and who asks the PIN', () => {
    const stripe = card('stripe card, PIN 4321');
    // credit: RequiresPasswordExceptForEMVCard on a stripe read → the terminal asks (GPN)
    expect(select(q(stripe.pan), facts)).toMatchObject({ kind: 'product', productId: 80, password: 'required' });
    expect(select(q(stripe.pan, { method: 'debit' }), facts)).toMatchObject({
      kind: 'product',
      productId: 81,
      password: 'required',
    });
    // a chip read leaves the PIN to the card's CVM list
    expect(select(q(stripe.pan, { entry: 'emv', aid: 'A0000000041010' }), facts)).toMatchObject({
      kind: 'product',
      productId: 80,
      password: 'card',
    });
  });

  it('refusals say why: a swiped chip card, installments debit does not allow, a method the card lacks, an unknown BIN, no tables', () => {
    const c0 = card('ending 0');
    expect(select(q(c0.pan, { serviceCode: '201' }), facts)).toMatchObject({ kind: 'refused', reason: 'use-chip' });
    expect(select(q(c0.pan, { serviceCode: '201', fallback: true }), facts)).toMatchObject({
      kind: 'product',
      productId: 1,
    });
    expect(
      select(q(card('visa debit').pan, { entry: 'emv', aid: 'A0000000032010', method: 'debit' }), {
        ...facts,
        installments: 3,
      }),
    ).toMatchObject({ kind: 'refused', reason: 'installments-not-allowed' });
    expect(select(q(ALELO.pan, { entry: 'emv', aid: 'A0000004942010', method: 'credit' }), facts)).toMatchObject({
      kind: 'refused',
      reason: 'no-product-of-type',
    });
    expect(select(q('99999999'), facts)).toMatchObject({ kind: 'refused', reason: 'unknown-bin' });
    expect(tableProductSelector(() => undefined)(q(c0.pan), facts)).toMatchObject({
      kind: 'refused',
      reason: 'not-initialized',
    });
  });

  it('typed entry: allowed for a Visa credit, refused for a BIN that forbids typing and where the security code is wanted (Amex)', () => {
    const typed = (pan: string, method: ProductQuery['method'] = 'credit') =>
      select({ entry: 'typed', digits: pan.slice(0, 8), fallback: false, method }, { ...facts, expiry: '3012' });
    expect(typed(card('ending 0').pan)).toMatchObject({ kind: 'product', productId: 1, password: 'none' });
    expect(typed(card('visa debit').pan, 'debit')).toMatchObject({ kind: 'refused', reason: 'typing-not-allowed' });
    expect(typed(card('amex').pan)).toMatchObject({ kind: 'refused', reason: 'typing-not-allowed' });
    // the Visa range checks a typed expiry (CheckExpiryDateWhenCardNumberIsTyped): January 2023 is past in June 2026
    const expired = select(
      { entry: 'typed', digits: card('ending 0').pan.slice(0, 8), fallback: false, method: 'credit' },
      { ...facts, expiry: '2301' },
    );
    expect(expired).toMatchObject({ kind: 'refused', reason: 'expired' });
    // a typo: the check digit is wrong and no level waives the check (DoNotValidateCardModule10)
    const typo = select(
      { entry: 'typed', digits: card('ending 0').pan.slice(0, 8), fallback: false, method: 'credit' },
      { ...facts, expiry: '3012', luhnValid: false },
    );
    expect(typo).toMatchObject({ kind: 'refused', reason: 'invalid-card-number' });
  });

  it('typedEntryRefusal: credit can be typed; no debit or voucher range allows it; no tables, no typing', () => {
    expect(typedEntryRefusal(set, 'credit')).toBeUndefined();
    expect(typedEntryRefusal(set, 'debit')).toMatch(/no typed debit/);
    expect(typedEntryRefusal(set, 'voucher')).toMatch(/no typed voucher/);
    expect(typedEntryRefusal(undefined, 'credit')).toMatch(/no initialization tables/);
  });

  it('property: for any test card, entry, method and installments the selector answers (never throws) and a product is of the method asked', () => {
    const seed = Date.now();
    console.log(`fast-check seed ${seed}`);
    const want = { credit: 'PhysicalCreditCard', debit: 'PhysicalDebitCard', voucher: 'PhysicalVoucherCard' } as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...TEST_CARDS),
        fc.constantFrom('magstripe', 'emv', 'contactlessEmv', 'typed' as const),
        fc.constantFrom('credit', 'debit', 'voucher' as const),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom('ByMerchant', 'ByIssuer' as const),
        fc.boolean(),
        (c, entry, method, installments, interest, fallback) => {
          const aid = set.tables.emv.find((e) => e.ProductIds.includes(c.productId))?.Aid;
          const query: ProductQuery = {
            entry,
            digits: c.pan.slice(0, 8),
            ...(entry === 'emv' || entry === 'contactlessEmv' ? (aid ? { aid } : {}) : { serviceCode: c.serviceCode }),
            fallback,
            method,
          };
          const s = select(query, { ...facts, installments, interest, maskedPan: c.pan.slice(0, 8), expiry: c.expiry });
          if (s.kind === 'product') {
            expect(paymentTypeOf(set.product(s.productId)!)).toBe(want[method]);
            if (installments > 1) expect(method).toBe('credit');
          } else if (s.kind === 'choose') {
            expect(s.options.length).toBeGreaterThan(1);
          } else expect(s.message.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
