import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Webservice15CardNotPresent, Ws15Transport } from '../../../src/acquirer/webservice15/index.js';
import { listenWs15, TEST_STORE } from '../../../src/sandbox/index.js';
import { openSandboxDatabase } from '../../../src/sandbox/db.js';
import { log } from '../../helpers/sandbox.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * The webservice 1.5 host model keeps its transactions in the sandbox's SQLite file (sandbox
 * migration 6), as the e-commerce host keeps its sales: a host stopped and started again on the same
 * file (the embedded sandbox of a terminal killed and restarted) still answers the query by `tid` and
 * by order number (ws15:1302-1361) of what was sent before, and captures it (ws15:1363-1434); and
 * its saved tokens (sandbox migration 7), as the real host keeps them: a sale by a token saved before
 * the restart is authorized, and the same card still gives the same token (ws15:987).
 */
const tempDir = useTempDirs();

async function hostOn(file: string) {
  const db = openSandboxDatabase(file, log);
  const ws = await listenWs15({ db });
  const transport = new Ws15Transport({ url: ws.url, timeoutMs: 10_000, log });
  const backend = new Webservice15CardNotPresent((m, what) => transport.post(m, what), {
    affiliation: TEST_STORE.affiliation,
    key: TEST_STORE.key,
  });
  return {
    backend,
    stop: async () => {
      await transport.close();
      await ws.close();
      db.close();
    },
  };
}

describe('the webservice 1.5 host across a restart', () => {
  it('queries, captures and cancels in part what was sent before the restart', async () => {
    const file = path.join(tempDir(), 'acquirer.db');
    const first = await hostOn(file);
    const sale = await first.backend.sale({
      merchantOrderId: '2611290001',
      amountCents: 1000,
      installments: 1,
      capture: false,
      method: 'credit',
      // The manual's test card (ws15:1512); an amount ending in 00 authorizes (ws15:1530).
      card: { number: '4012001038443335', holder: 'ANA SILVA', expiry: '05/2031', securityCode: '123', brand: 'Visa' },
    });
    expect(sale).toMatchObject({ answer: 'approved', state: 'pending' });
    const tid = sale.paymentId!;
    await first.stop();

    const second = await hostOn(file);
    expect(await second.backend.query(tid)).toMatchObject({ kind: 'found', state: 'pending' });
    expect(await second.backend.queryByOrderId('2611290001')).toMatchObject({ kind: 'found', paymentId: tid });
    expect(await second.backend.capture(tid, 800)).toMatchObject({ kind: 'done' });
    await second.stop();

    const third = await hostOn(file);
    expect(await third.backend.query(tid)).toMatchObject({ kind: 'found', state: 'approved', captured: true });
    expect(await third.backend.void(tid, 300)).toMatchObject({ kind: 'done' });
    await third.stop();

    const fourth = await hostOn(file);
    expect(await fourth.backend.query(tid)).toMatchObject({ kind: 'found', voidedCents: 300 });
    await fourth.stop();
  });

  it('sells by a token saved before the restart; the same card gives the same token after it; the file holds no card number', async () => {
    const file = path.join(tempDir(), 'acquirer.db');
    const card = {
      number: '4012001038443335',
      holder: 'ANA SILVA',
      expiry: '05/2031',
      securityCode: '123',
      brand: 'Visa',
    };
    const first = await hostOn(file);
    const saved = await first.backend.saveCard(card);
    expect(saved).toMatchObject({ kind: 'saved', maskedNumber: '401200******3335' });
    const token = saved.kind === 'saved' ? saved.token : '';
    await first.stop();

    const second = await hostOn(file);
    const sale = await second.backend.saleByToken({
      merchantOrderId: '2611290002',
      amountCents: 2000,
      installments: 1,
      capture: true,
      method: 'credit',
      saved: { token, brand: 'Visa' },
    });
    expect(sale).toMatchObject({ answer: 'approved', state: 'approved' });
    expect(await second.backend.saveCard(card)).toMatchObject({ kind: 'saved', token });
    await second.stop();
    // What the host keeps of the card is its keyed digest, never the number.
    expect(readFileSync(file).includes(Buffer.from(card.number))).toBe(false);
  });
});
