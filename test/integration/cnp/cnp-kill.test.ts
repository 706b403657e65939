import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { spawnDaemonChild } from '../../helpers/daemon-child.js';

/**
 * A card-not-present sale is journaled (`sending`) before its request leaves; the terminal killed
 * before its answer was journaled settles it at the next start through the card sale's undo race
 * (outbox `cnp.undo`: the query by MerchantOrderId, the void of what it finds), never by a guess.
 * The typed card (number, expiry, security code) is nowhere in the state directory afterwards.
 */
const tempDir = useTempDirs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

// A Luhn-valid number whose last digit (1) the host authorizes (ecom:388-408).
const CARD = { CARD_NUMBER: '4111111111111111', CARD_EXPIRY: '07/2031', CARD_CVV: '918' };
/** What the scan looks for: the number, the expiry, and the security code as a JSON value (three digits alone occur by chance). */
const TYPED = [CARD.CARD_NUMBER, CARD.CARD_EXPIRY, `"${CARD.CARD_CVV}"`];

function child(mode: 'sale' | 'recover', stateDir: string, env: Record<string, string> = {}) {
  return spawnDaemonChild('test/integration/cnp/cnp-daemon-child.ts', [mode], {
    host: h.running,
    stateDir,
    env: { OMNIPOS_ACQUIRER__TIMEOUT_MS: '2000', OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce', ...CARD, ...env },
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

type Recovered = { journal: { merchantOrderId: string; kind: string; state: string }[]; outbox: { pending: number } };

const lastLine = (out: string): Recovered => JSON.parse(out.trim().split('\n').at(-1)!) as Recovered;

describe('card not present: the terminal killed with a sale in flight', () => {
  it('killed after the host took the sale, before its answer was journaled: voided at the next start', async () => {
    const state = tempDir();
    // The host takes the sale and keeps its answer (as a connection lost after the request).
    await h.fault('ecommerceSaleCreate', { drop: true });
    // The sale waits for its answer far longer than the test waits to kill it.
    const sale = child('sale', state, { SALE_AMOUNT: '7710', OMNIPOS_ACQUIRER__TIMEOUT_MS: '60000' });
    const merchantOrderId = await until(() => Promise.resolve(/"merchantOrderId":"(\d+)"/.exec(sale.out())?.[1])).catch(
      (e: unknown) => {
        throw new Error(`${String(e)}: ${sale.err()}`);
      },
    );
    const captured = await until(async () =>
      (await h.ledger()).entries.find((e) => e.kind === 'card-captured' && e.merchantOrderId === merchantOrderId),
    );
    expect(captured.amount).toBe(7710);
    sale.child.kill('SIGKILL');
    expect((await sale.exit).signal).toBe('SIGKILL');

    const recovered = child('recover', state);
    const done = await recovered.exit;
    expect(done.code, recovered.err()).toBe(0);
    const { journal, outbox } = lastLine(recovered.out());
    expect(journal).toEqual([expect.objectContaining({ merchantOrderId, kind: 'cnp', state: 'undone' })]);
    expect(outbox.pending).toBe(0);
    // The host shows the sale voided (Status 10 the same day), by the PaymentId the query found.
    expect((await h.ledger()).entries.filter((e) => e.paymentId === captured.paymentId).map((e) => e.kind)).toEqual([
      'card-captured',
      'card-voided',
    ]);
    expect(scanForCardData(state, TYPED)).toEqual([]);
  });

  it('killed before the request left: the undo race waits, nothing charged, "not found" not final before the close', async () => {
    const state = tempDir();
    const sale = child('sale', state, { KILL_AT: 'sending', SALE_AMOUNT: '7720' });
    expect((await sale.exit).signal, sale.err()).toBe('SIGKILL');

    const recovered = child('recover', state, { PASSES: '20' });
    expect((await recovered.exit).code, recovered.err()).toBe(0);
    const { journal, outbox } = lastLine(recovered.out());
    expect(journal).toEqual([expect.objectContaining({ kind: 'cnp', state: 'undoing' })]);
    expect(outbox.pending).toBe(1);
    const ledger = await h.ledger();
    expect(ledger.entries.filter((e) => e.merchantOrderId === journal[0]!.merchantOrderId)).toEqual([]);
    expect(scanForCardData(state, TYPED)).toEqual([]);
  });
});
