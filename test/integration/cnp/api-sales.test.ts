import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cnpSale, cnpShow } from '../../../src/cli/cnp.js';
import { captureLogger } from '../../helpers/capture-log.js';
import { CNP_BACKENDS, settledSale } from '../../helpers/cnp-backends.js';
import { documentedApi, type TestDaemon } from '../../helpers/documented-api.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * A phone order end to end on the embedded default: the local API (`POST /v1/card-not-present/sales`),
 * a real daemon, the embedded sandbox's host of each backend, the virtual pinpad taking the typed card
 * (GCD). Every answer is checked against the OpenAPI document; afterwards no typed number, expiry or
 * security code is in the state directory (database, WAL, events), the logs or the answers.
 */
const tempDir = useTempDirs();
const json = (v: unknown): string => JSON.stringify(v);
const SALES = '/v1/card-not-present/sales';
const SALE = '/v1/card-not-present/sales/{id}';

/** Queues the customer's keys on the virtual pinpad, one entry per GCD prompt (number, month, year, code). */
function typeCard(t: TestDaemon, card: TypedKeys | string[]): void {
  const keys = Array.isArray(card) ? card : [card.number, card.month, card.year, card.code];
  for (const k of keys) t.pinpad.type(k);
}

/** What must never be at rest or in an answer: the number, the expiry as typed and sent, the code as a JSON value. */
const secretsOf = (c: { number: string; month: string; year: string; code: string }): string[] => [
  c.number,
  `${c.month}/${c.year}`,
  `"${c.code}"`,
];

function endToEnd(name: string, env: () => Record<string, string>, cards: Cards, extra?: (api: Api) => void) {
  describe(name, () => {
    const api = documentedApi();
    const logs = captureLogger('debug');
    const answers: string[] = [];
    let t: TestDaemon;
    beforeAll(async () => {
      t = await api.start({ env: env(), log: logs.log });
    }, 120_000);
    afterAll(() => api.stop());

    const post = async (body: unknown, key?: string) => {
      const r = await api.hit(SALES, SALES, {
        method: 'POST',
        body: json(body),
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      });
      answers.push(json(r.body));
      return r;
    };
    const settled = (id: unknown) =>
      settledSale(id, async () => {
        const r = await api.hit(SALE, `${SALES}/${String(id)}`);
        answers.push(json(r.body));
        return r.body;
      });

    it('a phone order approved: typed on the pinpad, captured, the same key answers the same sale', async () => {
      typeCard(t, cards.approved);
      const created = await post({ amount: cards.approvedAmount, holder: 'ANA SILVA', ...cards.body }, `${name}-1`);
      expect(created.status).toBe(202);
      const sale = await settled(created.body.id);
      expect(sale).toMatchObject({ state: 'captured', capture: true, backend: name, amount: cards.approvedAmount });
      expect(sale.paymentId).toEqual(expect.any(String));
      // The JSON API echoes the masked number (ecom:817); the webservice 1.5's answer carries none.
      if (name === 'ecommerce') expect(sale.card).toMatchObject({ maskedPan: '411111******1111' });
      const again = await post({ amount: cards.approvedAmount, holder: 'ANA SILVA', ...cards.body }, `${name}-1`);
      expect(again).toMatchObject({ status: 200, body: { id: created.body.id } });
      // The same key for another request.
      expect((await post({ amount: 5, holder: 'ANA SILVA', ...cards.body }, `${name}-1`)).status).toBe(422);
    });

    it('a phone order declined: nothing charged', async () => {
      typeCard(t, cards.declined);
      const created = await post({ amount: cards.declinedAmount, holder: 'ANA SILVA', ...cards.body });
      expect(created.status).toBe(202);
      expect(await settled(created.body.id)).toMatchObject({ state: 'declined' });
    });

    it('a pre-authorization (capture false): held at the host', async () => {
      typeCard(t, cards.approved);
      const created = await post({ amount: cards.approvedAmount, capture: false, holder: 'ANA SILVA', ...cards.body });
      expect(await settled(created.body.id)).toMatchObject({ state: 'authorized', capture: false });
    });

    extra?.({ api, post, typeCard: (c) => typeCard(t, c) });

    it('no typed number, expiry or security code in the state directory, the logs or the answers', async () => {
      await t.stopDaemon().catch(() => undefined);
      const secrets = [cards.approved, cards.declined].flatMap(secretsOf);
      // The terminal's files; `sandbox/` is the embedded acquirer's own database (the host keeps the expiry, as a real one does).
      expect(scanForCardData(t.stateDir, secrets, ['sandbox'])).toEqual([]);
      for (const s of secrets) {
        expect(logs.output()).not.toContain(s);
        expect(answers.join('\n')).not.toContain(s);
      }
    });
  });
}

interface TypedKeys {
  number: string;
  month: string;
  year: string;
  code: string;
}
interface Cards {
  approved: TypedKeys;
  declined: TypedKeys;
  approvedAmount: number;
  declinedAmount: number;
  body: Record<string, unknown>;
}
interface Api {
  api: ReturnType<typeof documentedApi>;
  post: (body: unknown, key?: string) => Promise<{ status: number; body: Record<string, unknown> }>;
  typeCard: (c: TypedKeys | string[]) => void;
}

// The JSON e-commerce API: the last digit chooses (ecom:388-408): 1 authorized, 2 denied (05). The brand
// comes from the sandbox's BIN lookup.
endToEnd(
  'ecommerce',
  () => ({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' }),
  {
    approved: { number: '4111111111111111', month: '07', year: '2031', code: '918' },
    declined: { number: '4111111111111152', month: '08', year: '2032', code: '527' },
    approvedAmount: 1990,
    declinedAmount: 1990,
    body: {},
  },
  ({ api, post, typeCard: type }) => {
    it('refusals, each declared: bad fields, the typing cancelled, a wrong check digit, no such sale', async () => {
      const bad = await post({ amount: 100 });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'INVALID_FIELD', field: 'holder' } } });
      expect((await post({ amount: 100, holder: 'ANA', number: '4111111111111111' })).body).toMatchObject({
        error: { field: 'number' },
      });
      // The customer presses CANCEL on the pinpad: nothing journaled, nothing sent.
      type(['\x18']);
      expect((await post({ amount: 100, holder: 'ANA' })).body).toMatchObject({
        error: { code: 'CNP_TYPING_CANCELLED' },
      });
      type(['4111111111111112']);
      expect(await post({ amount: 100, holder: 'ANA' })).toMatchObject({
        status: 422,
        body: { error: { code: 'CNP_CARD_REFUSED' } },
      });
      expect(
        (await api.hit(SALES, SALES, { method: 'POST', body: json({ amount: 1 }), type: 'text/plain' })).status,
      ).toBe(415);
      expect(
        (await api.hit(SALES, SALES, { method: 'POST', body: json({ amount: 1, holder: 'x'.repeat(70_000) }) })).status,
      ).toBe(413);
      expect((await api.hit(SALES, SALES, { method: 'POST', body: json({ amount: 1 }), token: null })).status).toBe(
        401,
      );
      expect((await api.hit(SALE, `${SALES}/999999`)).status).toBe(404);
      expect((await api.hit(SALE, `${SALES}/1`, { token: 'nope' })).status).toBe(401);
      for (const [route, url, method] of [
        [SALES, SALES, 'POST'],
        [SALE, `${SALES}/1`, 'GET'],
      ] as const)
        expect((await api.hit(route, url, { method, headers: { host: 'evil.example' } })).status).toBe(421);
    });

    it("the technician's commands: omnipos cnp sale, then cnp show", async () => {
      const out: string[] = [];
      const err: string[] = [];
      const ctx = {
        out: (s: string) => void out.push(s),
        err: (s: string) => void err.push(s),
        env: {
          OMNIPOS_CONFIG: '',
          OMNIPOS_STATE_DIR: api.daemon().stateDir,
          OMNIPOS_API__PORT: new URL(api.daemon().apiUrl).port,
        },
      };
      type({ number: '4111111111111111', month: '07', year: '2031', code: '918' });
      expect(await cnpSale.run(['--amount', '1990', '--holder', 'ANA SILVA', '--preauth'], ctx), err.join('')).toBe(0);
      const sale = JSON.parse(out.join('')) as { id: number; state: string };
      expect(sale.state).toBe('authorized');
      out.length = 0;
      expect(await cnpShow.run([String(sale.id)], ctx)).toBe(0);
      expect(JSON.parse(out.join(''))).toMatchObject({ id: sale.id, state: 'authorized', capture: false });
      await expect(cnpShow.run(['999999'], ctx)).rejects.toMatchObject({ code: 'ENGINE_NOT_FOUND' });
    });

    it('left nothing the document declares for these routes unproduced (503s: the disk and device tests)', () => {
      // BUSY shares 409 with the typing cancelled; the 503s need the disk, the pinpad or the host held back. The capture and void routes are card-not-present-capture.test.ts's.
      const declared = Object.entries(api.paths())
        .filter(([p]) => /^\/v1\/card-not-present\/sales(\/\{id\})?$/.test(p))
        .flatMap(([p, ops]) =>
          Object.entries(ops).flatMap(([m, op]) =>
            Object.keys(op.responses).map((s) => `${m.toUpperCase()} ${p} ${s}`),
          ),
        );
      expect(declared.length).toBeGreaterThanOrEqual(12);
      expect(declared.filter((d) => !api.seen.has(d) && !d.endsWith(' 503')).sort()).toEqual([]);
    });
  },
);

// The webservice 1.5 on its own listener in the embedded sandbox: the manual's test store and key
// (ws15:1528), a test card (ws15:1512, Visa, no authentication), the amount rule (ws15:1530: an amount
// not ending in 00 is declined). It has no BIN lookup: the cash register names the brand.
endToEnd(
  'webservice15',
  () => CNP_BACKENDS.find((b) => b.name === 'webservice15')!.env(tempDir()),
  {
    approved: { number: '4012001038443335', month: '05', year: '2031', code: '123' },
    declined: { number: '4012001038443335', month: '05', year: '2031', code: '123' },
    approvedAmount: 1000,
    declinedAmount: 1001,
    body: { brand: 'Visa' },
  },
  ({ post, typeCard: type }) => {
    it('without the brand: 400 naming it (no BIN lookup on this service), nothing sent', async () => {
      type({ number: '4012001038443335', month: '05', year: '2031', code: '123' });
      expect(await post({ amount: 1000, holder: 'ANA' })).toMatchObject({
        status: 400,
        body: { error: { code: 'INVALID_FIELD', field: 'brand' } },
      });
    });
  },
);
