import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Webservice15CardNotPresent, Ws15Transport } from '../../../src/acquirer/webservice15/index.js';
import { saveAtHost } from '../../../src/engine/cnp/save-card.js';
import { listenWs15, TEST_STORE } from '../../../src/sandbox/index.js';
import { openSandboxDatabase } from '../../../src/sandbox/db.js';
import { log } from '../../helpers/sandbox.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * The webservice 1.5 host model meets the sandbox's transport faults (src/sandbox/webservice15/faults.ts)
 * as the JSON API's host does: set by message on the sandbox's fault table, taken by the next message of
 * that root. Through the real backend and transport: a lost answer is unknown (never a decision), the
 * host having done the work or not as the fault says; a card save whose answer is lost is asked again
 * with the same card and answers the token the lost answer carried (ws15:987).
 */
const tempDir = useTempDirs();
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

async function hostOn() {
  const db = openSandboxDatabase(path.join(tempDir(), 'acquirer.db'), log);
  const ws = await listenWs15({ db });
  const transport = new Ws15Transport({ url: ws.url, timeoutMs: 800, log });
  const backend = new Webservice15CardNotPresent((m, what) => transport.post(m, what), {
    affiliation: TEST_STORE.affiliation,
    key: TEST_STORE.key,
  });
  stops.push(async () => {
    await transport.close();
    await ws.close();
    db.close();
  });
  return { ws, backend, faults: ws.faults! };
}

// The manual's test card (ws15:1512); an amount ending in 00 authorizes (ws15:1530).
const card = { number: '4012001038443335', holder: 'ANA SILVA', expiry: '05/2031', securityCode: '123', brand: 'Visa' };
const sale = (merchantOrderId: string) => ({
  merchantOrderId,
  amountCents: 1000,
  installments: 1,
  capture: true,
  method: 'credit' as const,
  card,
});

describe('the webservice 1.5 host under transport faults', () => {
  it('the answer dropped (the work done): unknown; the query by order number finds it', async () => {
    const { backend, faults } = await hostOn();
    faults.set('ws15Transaction', { drop: true });
    expect(await backend.sale(sale('2611300001'))).toMatchObject({ answer: 'unknown' });
    expect(await backend.queryByOrderId('2611300001')).toMatchObject({ kind: 'found', state: 'approved' });
  });

  it('a 503 and a reset before the work: unknown, and the host holds nothing', async () => {
    const { backend, faults } = await hostOn();
    faults.set('ws15Transaction', { status: 503 });
    expect(await backend.sale(sale('2611300002'))).toMatchObject({ answer: 'unknown' });
    faults.set('ws15Transaction', { reset: 'before' });
    expect(await backend.sale(sale('2611300003'))).toMatchObject({ answer: 'unknown' });
    for (const order of ['2611300002', '2611300003'])
      expect(await backend.queryByOrderId(order)).toMatchObject({ kind: 'not-found' });
  });

  it('a reset after the work, and a latency past the client timeout: unknown, the host holds the sale', async () => {
    const { backend, faults } = await hostOn();
    faults.set('ws15Transaction', { reset: 'after' });
    expect(await backend.sale(sale('2611300004'))).toMatchObject({ answer: 'unknown' });
    faults.set('ws15Capture', { latencyMs: 1500 });
    const preauth = await backend.sale({ ...sale('2611300005'), capture: false });
    expect(preauth).toMatchObject({ answer: 'approved', state: 'pending' });
    expect(await backend.capture(preauth.paymentId!)).toMatchObject({ kind: 'unknown' });
    expect(await backend.queryByOrderId('2611300004')).toMatchObject({ kind: 'found', state: 'approved' });
    // The late capture is taken when its latency ends, whatever the client's timeout: asked until shown.
    let q = await backend.query(preauth.paymentId!);
    for (let i = 0; i < 100 && !(q.kind === 'found' && q.captured === true); i++) {
      await new Promise((r) => setTimeout(r, 100));
      q = await backend.query(preauth.paymentId!);
    }
    expect(q).toMatchObject({ kind: 'found', captured: true });
  });

  it('a card save whose answer is lost: asked again with the same card, the same token (ws15:987)', async () => {
    const { ws, backend, faults } = await hostOn();
    faults.set('ws15Token', { drop: true });
    const saved = await saveAtHost(backend, card);
    expect(saved).toMatchObject({ kind: 'saved', maskedNumber: '401200******3335' });
    const token = saved.kind === 'saved' ? saved.token : '';
    // The host holds that token, and no other for this card: asked again, it answers the same.
    expect(ws.host.tokens.get(token)).toMatchObject({ affiliation: TEST_STORE.affiliation });
    expect(await backend.saveCard(card)).toMatchObject({ kind: 'saved', token });
  });

  it("refuses an API error number on the webservice's messages, and an unknown message name", async () => {
    const { faults } = await hostOn();
    expect(() => faults.set('ws15Transaction', { error: 309 })).toThrow();
    expect(() => faults.set('ws15Nothing', { drop: true })).toThrow();
  });
});
