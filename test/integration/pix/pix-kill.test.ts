import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePix } from '../../../src/qr/index.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { spawnDaemonChild } from '../../helpers/daemon-child.js';

const tempDir = useTempDirs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** The daemon child of the QR kill test (test/integration/qr/qr-daemon-child.ts), making a Pix sale. */
function child(mode: 'sale' | 'recover', stateDir: string, env: Record<string, string> = {}) {
  return spawnDaemonChild('test/integration/qr/qr-daemon-child.ts', [mode], {
    host: h.running,
    stateDir,
    env: { OMNIPOS_ACQUIRER__TIMEOUT_MS: '2000', OMNIPOS_QR__POLL_MS: '100', KIND: 'pix', ...env },
  });
}

async function until<T>(f: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Pix: the terminal killed after it saw the payment, before the receipt was out', () => {
  it('refunds the payment at the next start (pending until the provider approves, then refunded)', async () => {
    const state = tempDir();
    const sale = child('sale', state, { KILL_AT: 'approved', SALE_AMOUNT: '4610' });
    const qrCode = await until(() => Promise.resolve(/"qrCode":"([^"]+)"/.exec(sale.out())?.[1]));
    expect(parsePix(qrCode).transactionAmount).toBe('46.10');
    const merchantOrderId = await until(() => Promise.resolve(/"merchantOrderId":"(\d+)"/.exec(sale.out())?.[1]));
    const row = await until(async () =>
      (await h.ledger()).ecommerce.find((e) => e.merchantOrderId === merchantOrderId),
    );
    expect((await h.control('POST', `/sandbox/pix/${row.paymentId}/pay`)).status).toBe(200);
    const killed = await sale.exit;
    expect(killed.signal, sale.err()).toBe('SIGKILL');
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === row.paymentId)).toMatchObject({
      status: 2,
      charged: 4610,
    });

    const recovered = child('recover', state);
    // The refund is asked at start; the provider approves it a minute later (host clock).
    await until(async () =>
      (await h.ledger()).entries.some((e) => e.kind === 'pix-refund-requested' && e.paymentId === row.paymentId)
        ? true
        : undefined,
    );
    await h.control('POST', '/sandbox/clock', { advanceMs: 61_000 });
    const done = await recovered.exit;
    expect(done.code, recovered.err()).toBe(0);
    const { journal, outbox } = JSON.parse(recovered.out().trim().split('\n').at(-1)!) as {
      journal: { merchantOrderId: string; state: string }[];
      outbox: { pending: number };
    };
    expect(journal).toEqual([expect.objectContaining({ merchantOrderId, state: 'refunded' })]);
    expect(outbox.pending).toBe(0);
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === row.paymentId)).toMatchObject({
      status: 11,
      charged: 0,
    });
    expect(scanForCardData(state)).toEqual([]);
  });
});
