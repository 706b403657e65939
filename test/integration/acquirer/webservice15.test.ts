import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log/index.js';
import { OmniposError } from '../../../src/core/index.js';
import {
  Webservice15CardNotPresent,
  Webservice15CnpDelivery,
  Ws15Transport,
} from '../../../src/acquirer/webservice15/index.js';
import type { CnpSaleRequest } from '../../../src/engine/index.js';
import { listenWs15, TEST_STORE, type RunningWs15 } from '../../../src/sandbox/index.js';

/**
 * Our webservice 1.5 client against the sandbox's host model of it, over real HTTP on its own
 * listener: the manual's test store, test cards and amount rule (ws15:1506-1530), every message of
 * the port (sale, pre-authorization, capture, cancellation, queries, tokens).
 */

let ws: RunningWs15;
let transport: Ws15Transport;
let backend: Webservice15CardNotPresent;
let sent = 0;
const log = createLogger({ level: 'silent' });

beforeAll(async () => {
  ws = await listenWs15();
  transport = new Ws15Transport({ url: ws.url, timeoutMs: 10_000, log });
  backend = new Webservice15CardNotPresent(
    (m, what) => {
      sent++;
      return transport.post(m, what);
    },
    { affiliation: TEST_STORE.affiliation, key: TEST_STORE.key },
  );
});
afterAll(async () => {
  await transport.close();
  await ws.close();
});

let order = 0;
const sale = (over: Partial<CnpSaleRequest> = {}): CnpSaleRequest => ({
  merchantOrderId: `ws15${++order}`,
  amountCents: 1500,
  installments: 1,
  capture: true,
  method: 'credit',
  card: {
    number: '4012001038443335',
    holder: 'FULANO DA SILVA',
    expiry: '05/2018',
    securityCode: '123',
    brand: 'Visa',
  },
  ...over,
});

describe('webservice 1.5: sales', () => {
  it('a captured sale is approved with a 20-character TID, and both queries find it captured', async () => {
    const r = sale();
    const s = await backend.sale(r);
    expect(s).toMatchObject({ answer: 'approved', state: 'approved' });
    expect(s.paymentId).toMatch(/^1006993069[0-9A-F]{6}1001$/);
    expect(s.authorizationCode).toMatch(/^[0-9]{6}$/);
    expect(await backend.query(s.paymentId as string)).toMatchObject({
      kind: 'found',
      state: 'approved',
      captured: true,
    });
    expect(await backend.queryByOrderId(r.merchantOrderId)).toMatchObject({ kind: 'found', paymentId: s.paymentId });
  });

  it('a pre-authorization is pending, captured in part, and a second capture is refused (erro 30)', async () => {
    const s = await backend.sale(sale({ capture: false, amountCents: 20000 }));
    expect(s).toMatchObject({ answer: 'approved', state: 'pending' });
    const c = await backend.capture(s.paymentId as string, 12000);
    expect(c).toMatchObject({ kind: 'done', state: 'approved', capturedCents: 12000 });
    expect(await backend.capture(s.paymentId as string)).toMatchObject({ kind: 'refused', code: 30 });
  });

  it('an amount not ending in 00 is declined (ws15:1530), as is a card outside the test table', async () => {
    expect(await backend.sale(sale({ amountCents: 1501 }))).toMatchObject({ answer: 'declined', state: 'declined' });
    const other = sale();
    other.card = { ...other.card, number: '4111111111111111' };
    expect(await backend.sale(other)).toMatchObject({ answer: 'declined' });
  });

  it('refuses debit by name before anything is sent', async () => {
    const before = sent;
    await expect(backend.sale(sale({ method: 'debit' }))).rejects.toMatchObject({
      code: 'CNP_DEBIT_NEEDS_AUTHENTICATION',
    });
    expect(sent).toBe(before);
  });

  it('a wrong key is refused (erro 2): nothing created', async () => {
    const wrong = new Webservice15CardNotPresent((m, w) => transport.post(m, w), {
      affiliation: TEST_STORE.affiliation,
      key: 'not-the-key',
    });
    expect(await wrong.sale(sale())).toMatchObject({ answer: 'refused' });
  });

  it('has no BIN lookup: refused by name', async () => {
    await expect(backend.cardProduct('401200')).rejects.toBeInstanceOf(OmniposError);
    await expect(backend.cardProduct('401200')).rejects.toMatchObject({ code: 'CNP_NOT_OFFERED' });
  });
});

describe('webservice 1.5: cancellations and queries', () => {
  it('a whole cancellation makes it 9, and a second is refused (erro 41)', async () => {
    const s = await backend.sale(sale());
    expect(await backend.void(s.paymentId as string)).toMatchObject({
      kind: 'done',
      state: 'undone',
      voidedCents: 1500,
    });
    expect(await backend.query(s.paymentId as string)).toMatchObject({ kind: 'found', state: 'undone' });
    expect(await backend.void(s.paymentId as string)).toMatchObject({ kind: 'refused', code: 41 });
  });

  it('a partial cancellation leaves it captured (ws15:1460); more than is left is refused (erro 43)', async () => {
    const s = await backend.sale(sale({ amountCents: 3000 }));
    expect(await backend.void(s.paymentId as string, 1000)).toMatchObject({ kind: 'done', state: 'approved' });
    expect(await backend.void(s.paymentId as string, 2500)).toMatchObject({ kind: 'refused', code: 43 });
  });

  it('an unknown TID or order number is not found (erro 3)', async () => {
    expect(await backend.query('10069930690000001001')).toEqual({ kind: 'not-found' });
    expect(await backend.queryByOrderId('nosuchorder')).toEqual({ kind: 'not-found' });
  });

  it('a closed port is not sent', async () => {
    const dead = new Ws15Transport({ url: 'http://127.0.0.1:1/servicos/ecommwsec.do', timeoutMs: 2000, log });
    const b = new Webservice15CardNotPresent((m, w) => dead.post(m, w), TEST_STORE);
    expect(await b.sale(sale())).toMatchObject({ answer: 'not-sent' });
    await dead.close();
  });
});

describe('webservice 1.5: tokens', () => {
  it('saves a card as a token (the same card gives the same token) and sells by it, direct and recurrent', async () => {
    const card = sale().card;
    const t1 = await backend.saveCard(card);
    const t2 = await backend.saveCard(card);
    expect(t1).toMatchObject({ kind: 'saved', maskedNumber: '401200******3335', brand: 'Visa' });
    if (t1.kind !== 'saved' || t2.kind !== 'saved') throw new Error('no token');
    expect(t2.token).toBe(t1.token);
    const base = {
      amountCents: 5000,
      installments: 1,
      capture: true,
      method: 'credit' as const,
      saved: { token: t1.token, brand: 'Visa' },
    };
    expect(await backend.saleByToken({ ...base, merchantOrderId: `tk${++order}` })).toMatchObject({
      answer: 'approved',
    });
    expect(await backend.saleByToken({ ...base, merchantOrderId: `tk${++order}` }, { recurrent: true })).toMatchObject({
      answer: 'approved',
    });
  });

  it('an unknown token is refused (erro 52)', async () => {
    const s = await backend.saleByToken({
      merchantOrderId: `tk${++order}`,
      amountCents: 5000,
      installments: 1,
      capture: true,
      method: 'credit',
      saved: { token: 'bm90LWEtdG9rZW4=', brand: 'Visa' },
    });
    expect(s).toMatchObject({ answer: 'refused' });
    expect(s.detail).toContain('erro 052');
  });

  it('a sale asking gerar-token answers the token beside the transaction, the same as requisicao-token gives', async () => {
    const s = await backend.sale({ ...sale(), saveCard: true });
    expect(s.answer).toBe('approved');
    const saved = await backend.saveCard(sale().card);
    expect(saved).toMatchObject({ kind: 'saved' });
    expect(s.cardToken).toBe(saved.kind === 'saved' ? saved.token : 'none');
  });

  it('schedules no recurrence, and a recurrent sale by token takes no installments', async () => {
    await expect(backend.recurrence('x')).rejects.toMatchObject({ code: 'CNP_NOT_OFFERED' });
    await expect(backend.sale({ ...sale(), recurrence: { interval: 'monthly' } })).rejects.toMatchObject({
      code: 'CNP_NOT_OFFERED',
    });
    await expect(
      backend.saleByToken(
        {
          merchantOrderId: `tk${++order}`,
          amountCents: 5000,
          installments: 2,
          capture: true,
          method: 'credit',
          saved: { token: 'bm90LWEtdG9rZW4=', brand: 'Visa' },
        },
        { recurrent: true },
      ),
    ).rejects.toMatchObject({ code: 'CNP_NOT_OFFERED' });
  });
});

describe('webservice 1.5: the delivery port of the undo race', () => {
  it('confirm captures a pre-authorization; a captured one needs nothing', async () => {
    const delivery = new Webservice15CnpDelivery(backend);
    const pre = await backend.sale(sale({ capture: false }));
    expect(await delivery.confirm(pre.paymentId as string)).toMatchObject({ action: 'done' });
    expect(await backend.query(pre.paymentId as string)).toMatchObject({ state: 'approved', captured: true });
    expect(await delivery.confirm(pre.paymentId as string)).toEqual({ action: 'done', reason: 'captured at the host' });
  });

  it('a sale whose answer was lost is found by its order number and cancelled; nothing found is retried', async () => {
    const delivery = new Webservice15CnpDelivery(backend);
    const r = sale();
    await backend.sale(r);
    expect(await delivery.undoByOrderId(r.merchantOrderId)).toMatchObject({ action: 'done' });
    expect(await delivery.queryByOrderId(r.merchantOrderId)).toMatchObject({ kind: 'found', state: 'undone' });
    expect(await delivery.undoByOrderId(r.merchantOrderId)).toMatchObject({ action: 'done' });
    expect(await delivery.undoByOrderId('neversent1')).toMatchObject({ action: 'retry' });
  });
});
