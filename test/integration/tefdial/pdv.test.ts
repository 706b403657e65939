/**
 * The TEF Dial interface driven by an independent PDV (test/helpers/tef-pdv.ts, from the public
 * layouts) over real folders, against a real daemon (embedded sandbox host, virtual pinpad): the
 * same sales the local API shows, confirmed, undone, resent and voided; malformed files answered.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBRL } from '../../../src/core/index.js';
import type { TestDaemon } from '../../helpers/daemon.js';
import { startTefDaemon, TEF_SUPERVISOR, type TefDaemon } from '../../helpers/tef-daemon.js';
import { pdvFile, type TefPdv } from '../../helpers/tef-pdv.js';
import { layoutChecked } from '../../helpers/tefdial-layout.js';

let rig: TefDaemon;
let t: TestDaemon;
let base: string;
let pdv: TefPdv;
const SUPERVISOR = TEF_SUPERVISOR;

beforeAll(async () => {
  rig = await startTefDaemon('omnipos-tefdial');
  ({ t, base, pdv } = rig);
}, 60_000);

afterAll(async () => {
  process.stdout.write(
    `TEF Dial layout: ${layoutChecked.request} requests, ${layoutChecked.status} status files and ${layoutChecked.answer} answers checked against tables/tefdial/fields.json\n`,
  );
  await rig?.stop();
});

/** The payment the API shows for a TEF Dial sale, by the order id its answer carried (027-000). */
async function apiView(orderId: string): Promise<Record<string, unknown>> {
  const list = await t.call('GET', '/v1/payments');
  const found = (list.body.payments as Record<string, unknown>[]).find((p) => p.merchantOrderId === orderId);
  expect(found, `payment ${orderId} on the API`).toBeDefined();
  return found!;
}

/** An ADM request: header and identification, all a PDV sends (docs/tef-dial.md). */
const adm = (id: string): [string, string][] => [
  ['000-000', 'ADM'],
  ['001-000', id],
];

/** The receipt lines of an answer, 029-001 to 029-<028-000>. */
function receiptLinesOf(r: Record<string, string>): string[] {
  const n = Number(r['028-000']);
  return Array.from({ length: n }, (_, i) => r[`029-${String(i + 1).padStart(3, '0')}`] ?? '');
}

/** The request file kept under a second name holds no password: its 900-000 is spaces. */
function expectBlanked(file: string, secret: string): void {
  const kept = readFileSync(file, 'latin1');
  expect(kept).not.toContain(secret);
  expect(kept).toMatch(/\r\n900-000 = +\r\n999-999 = 0\r\n$/);
}

describe('the TEF Dial interface', () => {
  it('ATV: the manager is active (the status file alone)', async () => {
    const x = await pdv.send(
      [
        ['000-000', 'ATV'],
        ['001-000', '1'],
      ],
      false,
    );
    expect(x.status).toEqual({ '000-000': 'ATV', '001-000': '1', '999-999': '0' });
  });

  it('CRT then CNF: approved with its receipt lines, then confirmed as the API shows it', async () => {
    const sale = await pdv.crt('101', 1000);
    expect(sale.status).toMatchObject({ '000-000': 'CRT', '001-000': '101' });
    const r = sale.response!;
    expect(r).toMatchObject({
      '000-000': 'CRT',
      '001-000': '101',
      '002-000': '101',
      '003-000': '1000',
      '009-000': '0',
    });
    expect(r['012-000']).toMatch(/^\d+$/);
    expect(r['013-000']).toMatch(/^\w+$/);
    expect(Number(r['028-000'])).toBeGreaterThan(3);
    expect(r[`029-${r['028-000']!.padStart(3, '0')}`]).toBeDefined();
    expect(await apiView(r['027-000']!)).toMatchObject({ status: 'approved', confirmation: 'ecr', method: 'credit' });
    await pdv.decide('CNF', '102', r);
    await expect.poll(async () => (await apiView(r['027-000']!)).status).toBe('confirmed');
  });

  it('CRT then NCN: undone', async () => {
    const r = (await pdv.crt('201', 1100)).response!;
    expect(r['009-000']).toBe('0');
    await pdv.decide('NCN', '202', r);
    await expect.poll(async () => (await apiView(r['027-000']!)).status).toBe('undone');
  });

  it('a declined sale: 009-000 not 0 and the reason for the operator, as the API shows it declined', async () => {
    // The sandbox declines a sale whose cents are 11 (docs/sandbox.md).
    const r = (await pdv.crt('251', 1011)).response!;
    expect(r['009-000']).toBe('1');
    expect(r['030-000']).toMatch(/^TRANSACAO NEGADA/);
    expect(r['028-000']).toBeUndefined();
    expect(await apiView(r['027-000']!)).toMatchObject({ status: 'declined' });
  });

  it('the same identification again returns the same sale, never a second one', async () => {
    const first = (await pdv.crt('301', 1200)).response!;
    expect(first['009-000'], String(first['030-000'])).toBe('0');
    const again = (await pdv.crt('301', 1200)).response!;
    expect(again['027-000']).toBe(first['027-000']);
    expect(again['012-000']).toBe(first['012-000']);
    const all = (await t.call('GET', '/v1/payments')).body.payments as { merchantOrderId: string }[];
    expect(all.filter((p) => p.merchantOrderId === first['027-000'])).toHaveLength(1);
    await pdv.decide('CNF', '302', first);
    await expect.poll(async () => (await apiView(first['027-000']!)).status).toBe('confirmed');
  });

  it('a CRT sent while another payment holds the terminal waits for it to end, instead of being refused busy', async () => {
    // A wallet QR code started on the API holds the terminal's one payment lock until it ends.
    const qr = await t.call('POST', '/v1/payments', { amount: 2710, method: 'wallet-qr', qrModality: 'credit' });
    expect(qr.status, JSON.stringify(qr.body)).toBe(202);
    const crt = pdv.crt('351', 1250);
    await new Promise((r) => setTimeout(r, 600));
    expect((await t.call('POST', `/v1/payments/${String(qr.body.id)}/cancel`)).status).toBe(200);
    const r = (await crt).response!;
    expect(r['009-000'], String(r['030-000'])).toBe('0');
    await pdv.decide('CNF', '352', r);
    await expect.poll(async () => (await apiView(r['027-000']!)).status).toBe('confirmed');
  });

  it('a sale whose CNF/NCN never came is undone at the next request (the pending rule), never confirmed', async () => {
    const lost = (await pdv.crt('401', 1300)).response!;
    const next = (await pdv.crt('402', 1400)).response!;
    expect(next['009-000']).toBe('0');
    await expect.poll(async () => (await apiView(lost['027-000']!)).status).toBe('undone');
    // The late CNF of the lost sale changes nothing.
    await pdv.decide('CNF', '403', lost);
    expect((await apiView(lost['027-000']!)).status).toBe('undone');
    await pdv.decide('CNF', '404', next);
    await expect.poll(async () => (await apiView(next['027-000']!)).status).toBe('confirmed');
  });

  it('debit and installments from the fields the PDV sends (731-000, 018-000, 732-000)', async () => {
    const debit = (await pdv.crt('501', 1500, [['731-000', '2']])).response!;
    // The virtual pinpad's default card has no debit product (as test/integration/daemon/api.test.ts
    // shows on the API): a debit sale, refused; no CNF follows (PayGo's "Comandos existentes": CNF
    // and NCN only after 009-000 0).
    expect(debit['009-000']).toBe('3');
    expect(await apiView(debit['027-000']!)).toMatchObject({ method: 'debit', refusal: 'no-product-of-type' });
    const parc = (
      await pdv.crt('503', 30000, [
        ['731-000', '1'],
        ['018-000', '3'],
        // PayGo's table: 2 installments financed by the issuer (docs/tef-dial.md).
        ['732-000', '2'],
      ])
    ).response!;
    expect(parc['018-000']).toBe('3');
    expect(parc['729-000']).toBe('2');
    expect(await apiView(parc['027-000']!)).toMatchObject({ method: 'credit', installments: 3, interest: 'ByIssuer' });
    await pdv.decide('CNF', '504', parc);
  });

  it('CNC: a void with the supervisor password (900-000), refused without it; resent, the same void; the password blanked on the disk', async () => {
    const sale = (await pdv.crt('701', 2000)).response!;
    await pdv.decide('CNF', '702', sale);
    await expect.poll(async () => (await apiView(sale['027-000']!)).status).toBe('confirmed');
    const cnc = (id: string, extra: [string, string][], link?: string) =>
      pdv.exchange(
        pdvFile([
          ['000-000', 'CNC'],
          ['001-000', id],
          ['003-000', '2000'],
          ['010-000', sale['010-000']!],
          ['012-000', sale['012-000']!],
          ['022-000', sale['022-000']!],
          ...extra,
        ]),
        { id, answer: true, ...(link ? { link } : {}) },
      );
    const refused = (await cnc('703', [])).response!;
    expect(refused['009-000']).not.toBe('0');
    expect(refused['030-000']).toMatch(/SUPERVISOR/);
    const link = path.join(base, 'kept-cnc');
    const voided = (await cnc('704', [['900-000', SUPERVISOR]], link)).response!;
    // What the disk still holds of the request (the same file under a second name): no password.
    expectBlanked(link, SUPERVISOR);
    expect(voided).toMatchObject({ '000-000': 'CNC', '001-000': '704', '009-000': '0', '025-000': sale['012-000'] });
    expect(await apiView(sale['027-000']!)).toMatchObject({ voided: { amount: 2000, full: true } });
    const again = (await cnc('704', [['900-000', SUPERVISOR]])).response!;
    expect(again['027-000']).toBe(voided['027-000']);
    const voids = (await t.call('GET', `/v1/payments/${String((await apiView(sale['027-000']!)).id)}/voids`)).body
      .voids as unknown[];
    expect(voids).toHaveLength(1);
  });

  it("ADM: the day's report for the PDV to print, no CNF asked; a sale left pending undone first", async () => {
    const lost = (await pdv.crt('801', 1600)).response!;
    const before = ((await t.call('GET', '/v1/payments')).body.payments as unknown[]).length;
    const r = (await pdv.send(adm('802'), true)).response!;
    expect(r).toMatchObject({ '000-000': 'ADM', '001-000': '802', '009-000': '0', '729-000': '1' });
    expect(r['030-000']).toBe('RELATORIO DO DIA; 1 VENDA PENDENTE DESFEITA');
    const lines = receiptLinesOf(r);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.every((l) => l.length <= 32)).toBe(true);
    const report = (await t.call('GET', '/v1/day/report')).body as { closedAt: unknown; totals: { net: number } };
    expect(report.closedAt).toBeNull();
    // The report's net total, as the API gives it, is on the paper the PDV prints.
    expect(lines.some((l) => l.includes(formatBRL(report.totals.net)))).toBe(true);
    await expect.poll(async () => (await apiView(lost['027-000']!)).status).toBe('undone');
    expect(((await t.call('GET', '/v1/payments')).body.payments as unknown[]).length).toBe(before);
  });

  it("ADM with the supervisor's password (900-000): the day's close; a wrong one refused; the password blanked on the disk", async () => {
    const wrongLink = path.join(base, 'kept-wrong');
    const wrong = await pdv.exchange(pdvFile([...adm('811'), ['900-000', 'nao-e-essa']]), {
      id: '811',
      answer: true,
      link: wrongLink,
    });
    expect(wrong.response!['009-000']).not.toBe('0');
    expect(wrong.response!['030-000']).toMatch(/^FECHAMENTO RECUSADO: THE SUPERVISOR PASSWORD IS NOT VALID/);
    expect(((await t.call('GET', '/v1/day/report')).body as { closedAt: unknown }).closedAt).toBeNull();
    const link = path.join(base, 'kept-right');
    const closed = (
      await pdv.exchange(pdvFile([...adm('812'), ['900-000', SUPERVISOR]]), { id: '812', answer: true, link })
    ).response!;
    expect(closed).toMatchObject({ '000-000': 'ADM', '009-000': '0', '729-000': '1', '030-000': 'DIA FECHADO' });
    expect(receiptLinesOf(closed).length).toBeGreaterThan(5);
    expect(((await t.call('GET', '/v1/day/report')).body as { closedAt: unknown }).closedAt).toEqual(
      expect.any(String),
    );
    // What the disk still holds of the two requests (the same file under a second name): no password.
    expectBlanked(wrongLink, 'nao-e-essa');
    expectBlanked(link, SUPERVISOR);
    const again = (await pdv.send([...adm('813'), ['900-000', SUPERVISOR]], true)).response!;
    expect(again['030-000']).toBe('DIA JA FECHADO');
  });

  describe('malformed files: a status file, then a refusal naming the fault; nothing journaled', () => {
    const count = async (): Promise<number> =>
      ((await t.call('GET', '/v1/payments')).body.payments as unknown[]).length;

    it.each([
      ['no 999-999', Buffer.from('000-000 = CRT\r\n001-000 = 601\r\n003-000 = 100\r\n', 'latin1'), '601', /999-999/],
      [
        'a field twice',
        pdvFile([
          ['000-000', 'CRT'],
          ['001-000', '602'],
          ['003-000', '100'],
          ['003-000', '200'],
        ]),
        '602',
        /003-000 TWICE/,
      ],
      [
        'an unknown operation',
        pdvFile([
          ['000-000', 'XYZ'],
          ['001-000', '603'],
        ]),
        '603',
        /COMANDO DESCONHECIDO/,
      ],
      [
        'UTF-16 (a Windows editor\'s "Unicode")',
        Buffer.from('\ufeff000-000 = CRT\r\n001-000 = 604\r\n999-999 = 0\r\n', 'utf16le'),
        undefined,
        /ISO-8859-1/,
      ],
      [
        'an amount that is no number',
        pdvFile([
          ['000-000', 'CRT'],
          ['001-000', '605'],
          ['003-000', '10,00'],
        ]),
        '605',
        /003-000/,
      ],
    ])('%s', async (_what, bytes, id, message) => {
      const before = await count();
      const x = await pdv.exchange(bytes, { ...(id ? { id } : {}), answer: true, malformed: true });
      expect(x.response!['009-000']).not.toBe('0');
      expect(x.response!['030-000']).toMatch(message);
      expect(await count()).toBe(before);
    });
  });
});
