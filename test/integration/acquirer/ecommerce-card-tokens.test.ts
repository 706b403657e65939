import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EcommerceCardNotPresent } from '../../../src/acquirer/ecommerce/backend.js';
import type { EcommerceClient } from '../../../src/acquirer/index.js';
import type { CnpSaleRequest, TypedCard } from '../../../src/engine/index.js';
import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';
import { nextOrderId, startHarness, type Harness } from '../../helpers/sandbox.js';

/**
 * Saved cards and scheduled recurrences of the `ecommerce` backend against the sandbox's e-commerce
 * host over real HTTP: each rule the host models (src/sandbox/ecommerce-card-tokens.ts,
 * ecommerce-recurrence.ts) seen through the port's words. ECOMMERCE = the e-commerce page.
 */

let h: Harness;
let cnp: EcommerceCardNotPresent;
beforeAll(async () => {
  h = await startHarness();
  cnp = new EcommerceCardNotPresent(h.acquirer.ecommerce as EcommerceClient, { softDescriptor: 'OMNIPOS' });
});
afterAll(async () => {
  await h.close();
});

const card = (last = 1, o: Partial<TypedCard> = {}): TypedCard => ({
  number: `455187000000018${last}`,
  holder: 'Teste Holder',
  expiry: '12/2030',
  securityCode: '123',
  brand: 'Visa',
  ...o,
});

const order = (o: Partial<Omit<CnpSaleRequest, 'card'>> = {}): Omit<CnpSaleRequest, 'card'> => ({
  merchantOrderId: nextOrderId(),
  amountCents: 10_000,
  installments: 1,
  capture: true,
  method: 'credit',
  ...o,
});

/** A request to the host as printed, to see the published code of a refusal. */
async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await request(`${new URL(h.running.urls.ecommerceRequests).origin}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      MerchantId: SANDBOX_CREDENTIALS.merchantId,
      MerchantKey: SANDBOX_CREDENTIALS.merchantKey,
      RequestId: crypto.randomUUID(),
    },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: await res.body.json() };
}

describe('a card saved alone (POST /1/card, ECOMMERCE:3075-3147)', () => {
  it('answers a GUID token, the masked number and brand the terminal shows', async () => {
    const s = await cnp.saveCard(card());
    expect(s).toMatchObject({ kind: 'saved', maskedNumber: '455187******0181', brand: 'Visa' });
    expect(s.kind === 'saved' && /^[0-9a-f-]{36}$/.test(s.token)).toBe(true);
  });

  it.each([
    ['a number of 17 digits: 128 (the table says 16, 3114)', { number: '45518700000001811' }, '128'],
    ['a holder with an accent: 214 (3115)', { holder: 'José' }, '214'],
    ['an expiry not MM/YYYY: 126 (3116)', { expiry: '12/30' }, '126'],
    ['Hipercard, not among the eight brands (3117): 185', { brand: 'Hipercard' }, '185'],
  ])('refuses %s', async (_what, o, code) => {
    await expect(cnp.saveCard(card(1, o))).resolves.toMatchObject({ kind: 'refused', code });
  });

  it('takes the buyer as `CustomerName` (the example, 3085) or `Name` (the table, 3113); neither is 105', async () => {
    const base = {
      CardNumber: '4532117080573700',
      Holder: 'Comprador T Cielo',
      ExpirationDate: '12/2030',
      Brand: 'Visa',
    };
    expect((await post('/1/card', { ...base, Name: 'Comprador' })).status).toBe(201);
    const none = await post('/1/card', base);
    expect(none.status).toBe(400);
    expect(none.body).toEqual([expect.objectContaining({ Code: 105 })]);
  });
});

describe('a sale by a saved card (CardToken, ECOMMERCE:3471-3535)', () => {
  it('sells by the token: the saved card answers as the card would, its number masked', async () => {
    const saved = await cnp.saveCard(card(1));
    if (saved.kind !== 'saved') throw new Error(saved.detail);
    const s = await cnp.saleByToken({ ...order(), saved: { token: saved.token, brand: 'Visa' } });
    expect(s).toMatchObject({ answer: 'approved', state: 'approved', maskedNumber: '455187******0181' });
    const pre = await cnp.saleByToken({ ...order({ capture: false }), saved: { token: saved.token, brand: 'Visa' } });
    expect(pre).toMatchObject({ answer: 'approved', state: 'pending' });
  });

  it('a saved card ending in 2 is denied as the card is (05, ECOMMERCE:402)', async () => {
    const saved = await cnp.saveCard(card(2));
    if (saved.kind !== 'saved') throw new Error(saved.detail);
    const s = await cnp.saleByToken({ ...order(), saved: { token: saved.token, brand: 'Visa' } });
    expect(s.answer).toBe('declined');
    expect(s.detail).toContain('ReturnCode 05');
  });

  it('an unknown token is refused with 130 "Could not get Credit Card" (ECOMMERCE:7438)', async () => {
    const s = await cnp.saleByToken({
      ...order(),
      saved: { token: '6e1bf77a-b28b-4660-b14f-455e2a1c95e9', brand: 'Visa' },
    });
    expect(s).toMatchObject({ answer: 'refused' });
    expect(s.detail).toContain('130');
  });

  it('SaveCard on a sale answers the token (ECOMMERCE:3151-3153), and it sells', async () => {
    const s = await cnp.sale({ ...order(), card: card(4), saveCard: true });
    expect(s).toMatchObject({ answer: 'approved', maskedNumber: '455187******0184' });
    expect(s.cardToken).toMatch(/^[0-9a-f-]{36}$/);
    const again = await cnp.saleByToken({ ...order(), saved: { token: s.cardToken as string, brand: 'Visa' } });
    expect(again).toMatchObject({ answer: 'approved', maskedNumber: '455187******0184' });
  });

  it('a sale without SaveCard answers no token', async () => {
    const s = await cnp.sale({ ...order(), card: card(1) });
    expect(s.cardToken).toBeUndefined();
  });
});

describe('a scheduled recurrence (RecurrentPayment, ECOMMERCE:4256-4500, its query 5928-6052)', () => {
  it('the first charge authorized opens the recurrence; its query shows it active with that payment', async () => {
    const s = await cnp.sale({ ...order({ capture: true }), card: card(1), recurrence: { interval: 'monthly' } });
    expect(s).toMatchObject({ answer: 'approved' });
    expect(s.recurrenceId).toMatch(/^[0-9a-f-]{36}$/);
    const r = await cnp.recurrence(s.recurrenceId as string);
    expect(r).toMatchObject({ kind: 'found', status: 'active', amountCents: 10_000, paymentIds: [s.paymentId] });
  });

  it('a first charge denied opens none (ECOMMERCE:3961: effective once authorized)', async () => {
    const s = await cnp.sale({ ...order(), card: card(2), recurrence: { interval: 'annual' } });
    expect(s.answer).toBe('declined');
    expect(s.recurrenceId).toBeUndefined();
  });

  it('more than one installment is refused with 179 (ECOMMERCE:7485)', async () => {
    const s = await cnp.sale({ ...order({ installments: 3 }), card: card(1), recurrence: { interval: 'monthly' } });
    expect(s.answer).toBe('refused');
    expect(s.detail).toContain('179');
  });

  it('an unknown recurrence is not found (168, ECOMMERCE:7474)', async () => {
    await expect(cnp.recurrence('61e5bd30-ec11-44b3-ba0a-56fbbc8274c5')).resolves.toMatchObject({
      kind: 'not-found',
    });
  });

  it('AuthorizeNow missing is 166 (ECOMMERCE:7472); false schedules it: Status 20 (4630)', async () => {
    const base = {
      MerchantOrderId: nextOrderId(),
      Payment: {
        Type: 'CreditCard',
        Amount: 1500,
        Installments: 1,
        CreditCard: {
          CardNumber: '4551870000000181',
          Holder: 'Teste Holder',
          ExpirationDate: '12/2030',
          Brand: 'Visa',
        },
      },
    };
    const missing = await post('/1/sales', { ...base, Payment: { ...base.Payment, RecurrentPayment: {} } });
    expect(missing.body).toEqual([expect.objectContaining({ Code: 166 })]);
    const later = await post('/1/sales', {
      ...base,
      Payment: { ...base.Payment, RecurrentPayment: { AuthorizeNow: 'false', StartDate: '2030-01-05' } },
    });
    expect(later.status).toBe(201);
    expect(later.body).toMatchObject({
      Payment: { Status: 20, RecurrentPayment: { NextRecurrency: '2030-01-05', AuthorizeNow: false } },
    });
  });
});
