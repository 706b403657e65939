/**
 * The customer's and the merchant's copies in the TEF Dial answers (`712-000` to `715-xxx`,
 * `737-000`), read by the independent PDV (test/helpers/tef-pdv.ts) as the layout gives them, and
 * compared line by line with the receipt the local API gives for each copy
 * (`GET /v1/payments/{id}/receipt?copy=…&columns=32`).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBRL } from '../../../src/core/index.js';
import type { TestDaemon } from '../../helpers/daemon.js';
import { startTefDaemon, TEF_SUPERVISOR, type TefDaemon } from '../../helpers/tef-daemon.js';
import { CAPABILITIES, linesOf, pdvFile, printedCopies, type PdvFields, type TefPdv } from '../../helpers/tef-pdv.js';

let rig: TefDaemon;
let t: TestDaemon;
let pdv: TefPdv;
const SUPERVISOR = TEF_SUPERVISOR;
/** What a PDV that prints separate copies declares (PayGo's 706-000: 4 always, 8 the copies). */
const COPIES: [string, string] = ['706-000', String(CAPABILITIES.always + CAPABILITIES.separateCopies)];

beforeAll(async () => {
  rig = await startTefDaemon('omnipos-tefdial-copies');
  ({ t, pdv } = rig);
}, 60_000);

afterAll(async () => {
  await rig?.stop();
});

/**
 * A line as a file may carry it: PayGo's "Formato genérico" allows ASCII 20h–7Eh only, so the
 * PDV gets the API's line without its accents, its dashes as '-'.
 */
const inFile = (line: string): string =>
  line
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\u2014/g, '-');

/** The API's text receipt of payment `id` for one copy, 32 columns, as lines (as a file carries them). */
async function apiCopy(id: unknown, copy: 'customer' | 'merchant'): Promise<string[]> {
  const res = await request(`${t.apiUrl}/v1/payments/${String(id)}/receipt?copy=${copy}&columns=32`, {
    headers: { authorization: `Bearer ${t.token}` },
  });
  const text = await res.body.text();
  expect(res.statusCode, text).toBe(200);
  return text.replace(/\n$/, '').split('\n').map(inFile);
}

async function saleId(orderId: string | undefined): Promise<unknown> {
  const list = (await t.call('GET', '/v1/payments')).body.payments as { id: unknown; merchantOrderId: string }[];
  const found = list.find((p) => p.merchantOrderId === orderId);
  expect(found, `payment ${String(orderId)}`).toBeDefined();
  return found!.id;
}

/** Each copy's lines are the API's, their counts are the counts written, and the full receipt is the customer's. */
async function expectCopies(r: PdvFields, id: unknown): Promise<void> {
  const customer = await apiCopy(id, 'customer');
  const merchant = await apiCopy(id, 'merchant');
  expect(r['737-000']).toBe('3');
  expect(r['712-000']).toBe(String(customer.length));
  expect(r['714-000']).toBe(String(merchant.length));
  expect(linesOf(r, '712', '713')).toEqual(customer);
  expect(linesOf(r, '714', '715')).toEqual(merchant);
  expect(linesOf(r, '028', '029')).toEqual(customer);
  expect(customer.map((l) => l.trim())).toContain('VIA CLIENTE');
  expect(merchant.map((l) => l.trim())).toContain('VIA ESTABELECIMENTO');
  expect(printedCopies(r)).toEqual({ customer, merchant });
  expect([...customer, ...merchant].every((l) => /^[\x20-\x7e]*$/.test(l))).toBe(true);
}

describe("the customer's and the merchant's copies", () => {
  it('CRT from a PDV that prints separate copies (706-000 with 8): 712–715 and 737-000 3, as the API gives each copy', async () => {
    const r = (await pdv.crt('1101', 4300, [COPIES])).response!;
    expect(r['009-000'], r['030-000']).toBe('0');
    await expectCopies(r, await saleId(r['027-000']));
    await pdv.decide('CNF', '1102', r);
    await expect
      .poll(async () => (await t.call('GET', `/v1/payments/${String(await saleId(r['027-000']))}`)).body.status)
      .toBe('confirmed');
    // The reprint (docs/tef-dial.md "ADM"): the same CRT again, once confirmed, answers the same sale
    // and its two copies, with 729-000 1 ("já confirmada": no second CNF asked).
    const again = (await pdv.crt('1101', 4300, [COPIES])).response!;
    expect(again['009-000'], again['030-000']).toBe('0');
    expect(again['729-000']).toBe('1');
    expect(again['027-000']).toBe(r['027-000']);
    await expectCopies(again, await saleId(r['027-000']));
  });

  it('CRT from a PDV that does not say so (no 706-000, or 706-000 without 8): the full receipt alone', async () => {
    for (const [id, extra] of [
      ['1111', []],
      ['1113', [['706-000', String(CAPABILITIES.always)]]],
    ] as [string, [string, string][]][]) {
      const r = (await pdv.crt(id, 1200, extra)).response!;
      expect(r['009-000'], r['030-000']).toBe('0');
      for (const f of ['712-000', '714-000', '737-000']) expect(r[f], f).toBeUndefined();
      const customer = await apiCopy(await saleId(r['027-000']), 'customer');
      // PayGo's algorithm: without separate copies the PDV prints the full receipt for both.
      expect(printedCopies(r)).toEqual({ customer, merchant: customer });
      await pdv.decide('CNF', String(Number(id) + 1), r);
    }
  });

  it("CNC: the void's two copies (CANCELAMENTO), as the API gives the void's receipt", async () => {
    const sale = (await pdv.crt('1121', 2500)).response!;
    await pdv.decide('CNF', '1122', sale);
    const x = await pdv.exchange(
      pdvFile([
        ['000-000', 'CNC'],
        ['001-000', '1123'],
        ['003-000', '2500'],
        ['010-000', sale['010-000']!],
        ['012-000', sale['012-000']!],
        ['022-000', sale['022-000']!],
        COPIES,
        ['900-000', SUPERVISOR],
      ]),
      { id: '1123', answer: true },
    );
    const r = x.response!;
    expect(r['009-000'], r['030-000']).toBe('0');
    // No API route gives a void's receipt: each copy is named, says CANCELAMENTO, the amount and
    // the sale it gives money back for, and fits the PDV's 32 columns; the full receipt is the customer's.
    const customer = linesOf(r, '712', '713')!;
    const merchant = linesOf(r, '714', '715')!;
    expect(r['737-000']).toBe('3');
    expect(linesOf(r, '028', '029')).toEqual(customer);
    for (const [copy, name] of [
      [customer, 'VIA CLIENTE'],
      [merchant, 'VIA ESTABELECIMENTO'],
    ] as const) {
      expect(copy.map((l) => l.trim())).toContain(name);
      expect(copy.join('\n')).toMatch(/CANCELAMENTO/);
      expect(copy.join('\n')).toContain(formatBRL(2500));
      expect(copy.join('\n')).toContain(sale['012-000']!);
      expect(copy.every((l) => l.length <= 32)).toBe(true);
    }
    expect(printedCopies(r)).toEqual({ customer, merchant });
  });
});
