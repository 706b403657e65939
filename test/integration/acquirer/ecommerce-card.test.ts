import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EcommerceCardNotPresent } from '../../../src/acquirer/ecommerce/backend.js';
import type { EcommerceClient } from '../../../src/acquirer/index.js';
import { isOmniposError } from '../../../src/core/errors/index.js';
import type { CnpSaleRequest } from '../../../src/engine/index.js';
import { nextOrderId, startHarness, type Harness } from '../../helpers/sandbox.js';

/**
 * The `ecommerce` card-not-present backend against the sandbox's e-commerce host over real HTTP:
 * each manual rule the host models (src/sandbox/ecommerce-card*.ts) seen through the backend's words.
 * ECOMMERCE = `_i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md`.
 */

let h: Harness;
let cnp: EcommerceCardNotPresent;
let ec: EcommerceClient;
beforeAll(async () => {
  h = await startHarness();
  ec = h.acquirer.ecommerce as EcommerceClient;
  cnp = new EcommerceCardNotPresent(ec, { softDescriptor: 'OMNIPOS' });
});
afterAll(async () => {
  await h.close();
});

/** A 16-digit number ending in `last` (ECOMMERCE:388: the first 15 digits are free). */
const pan = (last: number): string => `455187000000018${last}`;

const sale = (o: Partial<CnpSaleRequest> & { last?: number } = {}): CnpSaleRequest => ({
  merchantOrderId: o.merchantOrderId ?? nextOrderId(),
  amountCents: o.amountCents ?? 10_000,
  installments: 1,
  capture: o.capture ?? false,
  method: o.method ?? 'credit',
  card: { number: pan(o.last ?? 1), holder: 'Teste Holder', expiry: '12/2030', securityCode: '123', brand: 'Visa' },
});

describe('credit sale with and without capture (ECOMMERCE:545-968)', () => {
  it('with capture: approved and captured at the host (Status 2, ReturnCode 6), the number masked', async () => {
    const s = await cnp.sale(sale({ capture: true }));
    expect(s).toMatchObject({ answer: 'approved', state: 'approved', maskedNumber: '455187******0181' });
    expect(s.detail).toMatch(/Status 2 PaymentConfirmed, ReturnCode 6/);
    await expect(cnp.query(s.paymentId as string)).resolves.toMatchObject({ state: 'approved', captured: true });
  });

  it('without capture: a pre-authorization (Status 1, ReturnCode 4)', async () => {
    const s = await cnp.sale(sale());
    expect(s).toMatchObject({ answer: 'approved', state: 'pending' });
    expect(s.detail).toMatch(/Status 1 Authorized, ReturnCode 4/);
  });

  it.each([
    [2, '05'],
    [3, '57'],
    [5, '78'],
    [6, '99'],
    [7, '77'],
    [8, '70'],
  ])('a card ending in %s is denied with ReturnCode %s (ECOMMERCE:399-407)', async (last, code) => {
    const s = await cnp.sale(sale({ last }));
    expect(s.answer).toBe('declined');
    expect(s.detail).toContain(`ReturnCode ${code}`);
  });

  it.each([0, 4])('a card ending in %s is authorized (ECOMMERCE:401)', async (last) => {
    await expect(cnp.sale(sale({ last }))).resolves.toMatchObject({ answer: 'approved' });
  });

  it('a card ending in 9 is authorized or denied with 99, at random (ECOMMERCE:408)', async () => {
    const s = await cnp.sale(sale({ last: 9 }));
    expect(s.answer === 'approved' || /ReturnCode 99/.test(s.detail)).toBe(true);
  });

  it('the host model keeps the masked number only: no full number, no security code in its database', async () => {
    const number = '4551870000000184';
    const r = sale({ capture: true });
    r.card = { ...r.card, number, securityCode: '987' };
    await expect(cnp.sale(r)).resolves.toMatchObject({ answer: 'approved' });
    const files = readdirSync(h.dir).filter((f) => f.startsWith('sandbox.db'));
    const bytes = Buffer.concat(files.map((f) => readFileSync(path.join(h.dir, f))));
    expect(bytes.includes(number)).toBe(false);
    expect(bytes.includes('"SecurityCode":"987"')).toBe(false);
    expect(bytes.includes('455187******0184')).toBe(true);
  });

  it('debit is refused by name before anything is sent', async () => {
    const before = (await h.ledger()).entries.length;
    await expect(cnp.sale(sale({ method: 'debit' }))).rejects.toSatisfy(
      (e: unknown) => isOmniposError(e) && e.code === 'CNP_DEBIT_NEEDS_AUTHENTICATION',
    );
    expect((await h.ledger()).entries.length).toBe(before);
  });

  it('a holder with an accent is refused (214, ECOMMERCE:760): nothing charged', async () => {
    const r = sale();
    r.card.holder = 'José Silva';
    const s = await cnp.sale(r);
    expect(s).toMatchObject({ answer: 'refused' });
    expect(s.detail).toMatch(/HTTP 400/);
  });
});

describe('capture, whole and partial (ECOMMERCE:6054-6140)', () => {
  it('whole: Status 2 with the authorized amount', async () => {
    const s = await cnp.sale(sale({ amountCents: 5000 }));
    await expect(cnp.capture(s.paymentId as string)).resolves.toMatchObject({ kind: 'done', state: 'approved' });
    const got = await ec.getSale(s.paymentId as string);
    expect(got.Payment).toMatchObject({ Status: 2, CapturedAmount: 5000 });
  });

  it('partial, once: a second capture is refused (308, ECOMMERCE:6078-6080)', async () => {
    const s = await cnp.sale(sale({ amountCents: 5000 }));
    await expect(cnp.capture(s.paymentId as string, 3000)).resolves.toMatchObject({ kind: 'done' });
    expect((await ec.getSale(s.paymentId as string)).Payment.CapturedAmount).toBe(3000);
    await expect(cnp.capture(s.paymentId as string, 1000)).resolves.toMatchObject({ kind: 'refused', code: '308' });
  });

  it('more than authorized is refused; a denied sale cannot be captured', async () => {
    const s = await cnp.sale(sale({ amountCents: 5000 }));
    await expect(cnp.capture(s.paymentId as string, 5001)).resolves.toMatchObject({ kind: 'refused', code: '108' });
    const d = await cnp.sale(sale({ last: 2 }));
    await expect(cnp.capture(d.paymentId as string)).resolves.toMatchObject({ kind: 'refused', code: '308' });
  });

  it('past the 15 days of ECOMMERCE:6072 the capture is refused', async () => {
    const s = await cnp.sale(sale());
    await h.control('POST', '/sandbox/clock', { advanceMs: 15 * 24 * 3600_000 + 1000 });
    await expect(cnp.capture(s.paymentId as string)).resolves.toMatchObject({ kind: 'refused', code: '308' });
  });
});

describe('void, whole and partial (ECOMMERCE:6179-6330)', () => {
  it('a pre-authorization is voided whole (10); a part of it is refused (6285)', async () => {
    const s = await cnp.sale(sale({ amountCents: 4000 }));
    await expect(cnp.void(s.paymentId as string, 1000)).resolves.toMatchObject({ kind: 'refused', code: '309' });
    await expect(cnp.void(s.paymentId as string)).resolves.toMatchObject({ kind: 'done', state: 'undone' });
    await expect(cnp.query(s.paymentId as string)).resolves.toMatchObject({ state: 'undone' });
  });

  it('a captured sale in parts until nothing remains (6283), never above what remains', async () => {
    const s = await cnp.sale(sale({ amountCents: 3000, capture: true }));
    const id = s.paymentId as string;
    await expect(cnp.void(id, 1000)).resolves.toMatchObject({ kind: 'done', state: 'approved' });
    await expect(cnp.void(id, 2500)).resolves.toMatchObject({ kind: 'refused', code: '108' });
    await expect(cnp.void(id, 2000)).resolves.toMatchObject({ kind: 'done', state: 'undone' });
    await expect(cnp.void(id)).resolves.toMatchObject({ kind: 'refused', code: '309' });
  });

  it('a captured sale voided after its day is Refunded (11, ECOMMERCE:7376)', async () => {
    const s = await cnp.sale(sale({ capture: true }));
    await h.control('POST', '/sandbox/clock', { advanceMs: 24 * 3600_000 });
    await expect(cnp.void(s.paymentId as string)).resolves.toMatchObject({ kind: 'done', state: 'cancelled' });
    expect((await ec.getSale(s.paymentId as string)).Payment.Status).toBe(11);
  });
});

describe("the sandbox's ledger of these sales (what the chaos run reconciles against)", () => {
  it('each sale as the host holds it: held, captured in part and voided in part, voided, denied; one capture each', async () => {
    const held = sale({ amountCents: 4000 });
    await cnp.sale(held);
    const part = sale({ amountCents: 5000 });
    const p = await cnp.sale(part);
    await cnp.capture(p.paymentId as string, 3000);
    await cnp.void(p.paymentId as string, 1000);
    const gone = sale({ amountCents: 2000, capture: true });
    await cnp.void((await cnp.sale(gone)).paymentId as string);
    const denied = sale({ last: 2 });
    await cnp.sale(denied);
    const cards = (await h.ledger()).cards;
    const row = (r: CnpSaleRequest) => cards.find((c) => c.merchantOrderId === r.merchantOrderId);
    expect(row(held)).toMatchObject({ status: 1, held: 4000, charged: 0, captured: 0, captures: 0 });
    expect(row(part)).toMatchObject({ status: 2, captured: 3000, voided: 1000, charged: 2000, held: 0, captures: 1 });
    expect(row(gone)).toMatchObject({ status: 10, captured: 2000, voided: 2000, charged: 0, captures: 1 });
    expect(row(denied)).toMatchObject({ status: 3, charged: 0, held: 0, captures: 0 });
  });
});

describe('queries', () => {
  it('by MerchantOrderId: the newest sale under the order id (ECOMMERCE:5861-5902)', async () => {
    const orderId = nextOrderId();
    await cnp.sale(sale({ merchantOrderId: orderId, last: 2 }));
    await h.control('POST', '/sandbox/clock', { advanceMs: 1000 });
    const second = await cnp.sale(sale({ merchantOrderId: orderId, capture: true }));
    await expect(cnp.queryByOrderId(orderId)).resolves.toMatchObject({
      kind: 'found',
      paymentId: second.paymentId,
      state: 'approved',
    });
  });

  it('an order id the host never saw is not-found (303), never a decision by itself', async () => {
    await expect(cnp.queryByOrderId(nextOrderId())).resolves.toEqual({ kind: 'not-found' });
  });

  it('a PaymentId the host never saw is not-found (307)', async () => {
    await expect(cnp.query('00000000-0000-4000-8000-000000000000')).resolves.toEqual({ kind: 'not-found' });
  });
});

describe('BIN lookup (ECOMMERCE:465-479)', () => {
  it.each([
    [
      '411011',
      { brand: 'Visa', type: 'multiple', foreign: false, corporate: false, supported: true, issuerCode: '104' },
    ],
    ['535112', { brand: 'Master', type: 'debit', foreign: true, corporate: true, supported: true, issuerCode: '001' }],
    ['373334', { brand: 'Amex', type: 'credit', prepaid: true, foreign: true, supported: false, issuerCode: '237' }],
    [
      '652120',
      { brand: 'Discover', type: 'credit', prepaid: false, corporate: true, supported: false, issuerCode: '237' },
    ],
  ])('%s', async (bin, product) => {
    await expect(cnp.cardProduct(bin)).resolves.toMatchObject(product);
  });
});
