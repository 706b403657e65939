import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptShow } from '../../../src/cli/receipt.js';
import { CARD_NOT_PRESENT_MARK, REPRINT_MARK } from '../../../src/receipt/index.js';
import { CNP_BACKENDS, cliContext, typeCard, type CnpBackend, type TypedKeys } from '../../helpers/cnp-backends.js';
import { documentedApi, type TestDaemon } from '../../helpers/documented-api.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * The receipt of a sale without the card present, end to end on the embedded default with each
 * backend, through the route that serves every receipt (`GET /v1/payments/{id}/receipt`, and its
 * reprint on the virtual printer behind the real ESC/POS driver): the masked number, the brand, the
 * authorization code and "VENDA DIGITADA"; a pre-authorization titled as one, a partial capture's
 * amount once captured. Nothing of the card beyond the masked number: not its number, not its
 * expiry, not its security code, on the text, the HTML, the paper or the CLI's output.
 */
const tempDir = useTempDirs();
const SALES = '/v1/card-not-present/sales';

/** What the receipt must never show of `c`: the number, the expiry as typed or as a card shows it, the code. */
const cardDataOf = (c: TypedKeys): RegExp[] => [
  new RegExp(c.number),
  new RegExp(`${c.month}\\s*/\\s*(${c.year}|${c.year.slice(2)})`),
  new RegExp(`\\b${c.code}\\b`),
];

function receipts(b: CnpBackend) {
  describe(`the receipt of a card-not-present sale on ${b.name}`, () => {
    const api = documentedApi();
    let t: TestDaemon;
    beforeAll(async () => {
      t = await api.start({ env: b.env(tempDir()) });
    }, 120_000);
    afterAll(() => api.stop());

    /** A sale typed on the virtual pinpad, until the host's answer moved it. */
    async function sale(capture: boolean): Promise<number> {
      typeCard(t, b.approved);
      const body = { amount: b.approvedAmount, holder: 'ANA SILVA', capture, ...b.body };
      const created = await api.hit(SALES, SALES, { method: 'POST', body: JSON.stringify(body) });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const id = created.body.id as number;
      for (let i = 0; i < 800 && t.journal.get(id)?.state === 'sending'; i++)
        await new Promise((r) => setTimeout(r, 25));
      return id;
    }

    /** The receipt as the route serves it; its content type one the document declares for the 200. */
    async function receipt(id: number, query = ''): Promise<string> {
      const res = await request(`${t.apiUrl}/v1/payments/${id}/receipt${query}`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      const text = await res.body.text();
      expect(res.statusCode, text).toBe(200);
      const declared = api.paths()['/v1/payments/{id}/receipt']!.get!.responses['200']!.content!;
      expect(Object.keys(declared)).toContain(String(res.headers['content-type']).split(';')[0]);
      return text;
    }

    function expectNoCardData(text: string): void {
      for (const re of cardDataOf(b.approved)) expect(text).not.toMatch(re);
    }

    it('a phone order: both copies show the masked number, brand, authorization code and VENDA DIGITADA, nothing else of the card', async () => {
      const id = await sale(true);
      const row = t.journal.get(id)!;
      expect(row.state).toBe('captured');
      const auth = (row.data as { authorizationCode?: string }).authorizationCode;
      for (const copy of ['customer', 'merchant']) {
        const text = await receipt(id, `?copy=${copy}&columns=42`);
        expect(text).toContain(copy === 'customer' ? 'VIA CLIENTE' : 'VIA ESTABELECIMENTO');
        expect(text).toContain(CARD_NOT_PRESENT_MARK);
        expect(text).toContain('CARTÃO NÃO PRESENTE');
        expect(text).toMatch(new RegExp(b.masked.source.slice(1, -1)));
        expect(text).toContain('VISA');
        if (auth) expect(text).toContain(auth);
        expect(text).toContain(row.merchantOrderId);
        expectNoCardData(text);
      }
      expectNoCardData(await receipt(id, '?format=html'));
      expectNoCardData(await receipt(id, '?format=qr'));
    });

    it('printed on the ESC/POS printer: the paper the virtual printer decoded says the same', async () => {
      const id = await sale(true);
      const printer = t.printer;
      const before = printer.receipts.length;
      const printed = await api.hit('/v1/payments/{id}/receipt/print', `/v1/payments/${id}/receipt/print`, {
        method: 'POST',
        body: JSON.stringify({ copy: 'merchant' }),
      });
      expect(printed.status, JSON.stringify(printed.body)).toBe(200);
      expect(printed.body).toMatchObject({ id, copy: 'merchant', result: 'printed' });
      expect(printer.receipts.length).toBe(before + 1);
      const paper = printer.lastReceipt!.text;
      expect(paper).toContain('VIA ESTABELECIMENTO');
      expect(paper).toContain(CARD_NOT_PRESENT_MARK);
      expect(paper).toMatch(/411111\*+1111|401200\*+3335/);
      expectNoCardData(paper);
    });

    it('the first paper of each copy is plain (nothing was printed when the sale was made), the next says SEGUNDA VIA', async () => {
      const id = await sale(true);
      const printer = t.printer;
      const print = async (copy: 'customer' | 'merchant'): Promise<string> => {
        const r = await api.hit('/v1/payments/{id}/receipt/print', `/v1/payments/${id}/receipt/print`, {
          method: 'POST',
          body: JSON.stringify({ copy }),
        });
        expect(r.body).toMatchObject({ id, copy, result: 'printed' });
        return printer.lastReceipt!.text;
      };
      const first = await print('customer');
      expect(first).toContain('VIA CLIENTE');
      expect(first).toContain(CARD_NOT_PRESENT_MARK);
      expect(first).not.toContain(REPRINT_MARK);
      expect(await print('customer')).toContain(REPRINT_MARK);
      expect(await print('merchant')).not.toContain(REPRINT_MARK);
      expect(await print('merchant')).toContain(REPRINT_MARK);
    });

    it('a pre-authorization is titled as one, then captured in part shows the part captured', async () => {
      const id = await sale(false);
      expect(t.journal.get(id)!.state).toBe('authorized');
      const held = await receipt(id, '?columns=48');
      expect(held).toContain('PRÉ-AUTORIZAÇÃO DE CRÉDITO');
      const part = b.approvedAmount / 2;
      const captured = await api.hit(`${SALES}/{id}/capture`, `${SALES}/${id}/capture`, {
        method: 'POST',
        body: JSON.stringify({ amount: part }),
      });
      expect(captured.status, JSON.stringify(captured.body)).toBe(200);
      const text = await receipt(id, '?columns=48');
      expect(text).toContain('CRÉDITO À VISTA');
      expect(text).toMatch(
        new RegExp(`VALOR\\s+R\\$\\s?${Math.floor(part / 100)},${String(part % 100).padStart(2, '0')}`),
      );
      expectNoCardData(text);
    });

    it('a declined sale has no receipt (409 RECEIPT_NOT_AVAILABLE), and `omnipos receipt show` prints the phone order', async () => {
      typeCard(t, b.declined.card);
      const body = { amount: b.declined.amount, holder: 'ANA SILVA', ...b.body };
      const created = await api.hit(SALES, SALES, { method: 'POST', body: JSON.stringify(body) });
      const declined = created.body.id as number;
      for (let i = 0; i < 800 && t.journal.get(declined)?.state === 'sending'; i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(t.journal.get(declined)!.state).toBe('declined');
      const none = await api.hit('/v1/payments/{id}/receipt', `/v1/payments/${declined}/receipt`);
      expect(none.status).toBe(409);
      expect(none.body).toMatchObject({ error: { code: 'RECEIPT_NOT_AVAILABLE' } });
      const id = await sale(true);
      const out: string[] = [];
      const err: string[] = [];
      expect(await receiptShow.run([String(id)], cliContext(t, out, err)), err.join('')).toBe(0);
      expect(out.join('')).toContain(CARD_NOT_PRESENT_MARK);
      expectNoCardData(out.join(''));
    });
  });
}

for (const b of CNP_BACKENDS) receipts(b);
