import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import type { DayLine, DayReport } from '../../../src/operations/day/index.js';
import { paymentReceipt, receiptText } from '../../../src/receipt/index.js';
import { ws15Env } from '../../helpers/cnp-backends.js';
import { documentedApi, type TestDaemon } from '../../helpers/documented-api.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * What a card-not-present row keeps, on each backend, end to end on the embedded default: the masked
 * number (first 6, last 4, made where the pinpad's typed card is read: the webservice 1.5's answers
 * carry none) and the brand, journaled with the row and shown by `GET /v1/card-not-present/sales/{id}`,
 * `GET /v1/payments/{id}`, the day report's line and the receipt.
 */
const tempDir = useTempDirs();
const SALES = '/v1/card-not-present/sales';

interface Backend {
  name: 'ecommerce' | 'webservice15';
  env: () => Record<string, string>;
  keys: string[];
  masked: string;
  brand: string;
  amount: number;
  body: Record<string, unknown>;
}

const BACKENDS: Backend[] = [
  {
    // The brand from the sandbox's BIN lookup (ecom:490); the last digit 1 authorizes (ecom:388-408).
    name: 'ecommerce',
    env: () => ({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' }),
    keys: ['4111111111111111', '07', '2031', '918'],
    masked: '411111******1111',
    brand: 'Visa',
    amount: 1990,
    body: {},
  },
  {
    // The manual's test store (ws15:1528) and test card (ws15:1512); no BIN lookup: the cash register names the brand.
    name: 'webservice15',
    env: () => ws15Env(tempDir()),
    keys: ['4012001038443335', '05', '2031', '123'],
    masked: '401200******3335',
    brand: 'Visa',
    amount: 1000,
    body: { brand: 'Visa' },
  },
];

for (const b of BACKENDS) {
  describe(`a card-not-present row on ${b.name}`, () => {
    const api = documentedApi();
    let t: TestDaemon;
    beforeAll(async () => {
      t = await api.start({ env: b.env() });
    }, 120_000);
    afterAll(() => api.stop());

    /** A phone order typed on the virtual pinpad, until the host's answer moved it. */
    async function phoneOrder(): Promise<number> {
      for (const k of b.keys) t.pinpad.type(k);
      const created = await api.hit(SALES, SALES, {
        method: 'POST',
        body: JSON.stringify({ amount: b.amount, holder: 'ANA SILVA', ...b.body }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const id = created.body.id as number;
      for (let i = 0; i < 800 && t.journal.get(id)?.state === 'sending'; i++)
        await new Promise((r) => setTimeout(r, 25));
      return id;
    }

    it('keeps the masked number and the brand, and shows them in both views, the day report and the receipt', async () => {
      const id = await phoneOrder();
      const card = { maskedPan: b.masked, brand: b.brand };
      expect(t.journal.get(id)).toMatchObject({
        state: 'captured',
        data: { maskedNumber: b.masked, brand: b.brand },
      });
      expect((await api.hit(`${SALES}/{id}`, `${SALES}/${id}`)).body).toMatchObject({ card });
      expect((await api.hit('/v1/payments/{id}', `/v1/payments/${id}`)).body).toMatchObject({ card });
      const report = await api.hit('/v1/day/report', '/v1/day/report');
      const lines = report.body.lines as { id: number; brand: string; charged: number }[];
      expect(lines.find((l) => l.id === id)).toMatchObject({ brand: b.brand, charged: b.amount });
      const subject = t.daemon.cnpEngine!.receiptOf(id).subject;
      const text = receiptText(paymentReceipt(subject, { environment: 'sandbox', columns: 42 }), 42);
      expect(text).toContain(b.masked);
      expect(text).toContain(b.brand.toUpperCase());
    });

    it('the day report, `omnipos day report` and the day close count them with the card-present sales, by backend', async () => {
      const cnpId = await phoneOrder();
      // A card-present sale beside it (cents 10: the sandbox approves, docs/sandbox.md).
      const card = await api.hit('/v1/payments', '/v1/payments', {
        method: 'POST',
        body: JSON.stringify({ amount: 1010, method: 'credit' }),
      });
      expect(card.status, JSON.stringify(card.body)).toBe(202);
      await api.until(card.body.id as number, (p) => p.status === 'confirmed');
      await api.idle();
      const report = (await api.hit('/v1/day/report', '/v1/day/report')).body as unknown as DayReport;
      const cnp = report.lines.filter((l) => l.kind === 'cnp');
      expect(cnp.map((l) => l.backend)).toEqual(cnp.map(() => b.name));
      expect(cnp.find((l) => l.id === cnpId)).toMatchObject({ outcome: 'confirmed', charged: b.amount });
      const charged = (ls: DayLine[]) => ls.reduce((a, l) => a + l.charged, 0);
      expect(report.totals.byBackend).toEqual({
        [b.name]: { sales: 2, salesAmount: 2 * b.amount, voids: 0, voidsAmount: 0, net: 2 * b.amount },
      });
      expect(report.totals.byMethod.credit).toMatchObject({ sales: 3, salesAmount: 2 * b.amount + 1010 });
      expect(report.totals.net).toBe(charged(report.lines));
      expect(report.totals.net).toBe(charged(cnp) + 1010);
      let out = '';
      const env = { OMNIPOS_STATE_DIR: t.config.stateDir };
      expect(await runCli(['day', 'report', '--json'], { out: (x) => (out += x), err: () => undefined, env })).toBe(0);
      expect((JSON.parse(out) as DayReport).totals).toEqual(report.totals);
      const supervisor = readFileSync(path.join(t.config.stateDir, 'supervisor-token'), 'utf8').trim();
      const closed = await api.hit('/v1/day/close', '/v1/day/close', {
        method: 'POST',
        headers: { 'x-supervisor-token': supervisor },
      });
      expect(closed.status, JSON.stringify(closed.body)).toBe(201);
      const printed = (closed.body as unknown as { report: DayReport }).report;
      expect(printed.totals.byBackend).toEqual(report.totals.byBackend);
      expect(printed.totals.net).toBe(report.totals.net);
    });
  });
}
