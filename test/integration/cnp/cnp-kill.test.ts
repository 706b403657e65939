import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWs15, type RunningWs15 } from '../../../src/sandbox/index.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { spawnDaemonChild } from '../../helpers/daemon-child.js';
import { ws15Env } from '../../helpers/cnp-backends.js';

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
  // The QR kill test's daemon child, making a card-not-present sale (KIND=cnp).
  return spawnDaemonChild('test/integration/qr/qr-daemon-child.ts', [mode], {
    host: h.running,
    stateDir,
    env: {
      OMNIPOS_ACQUIRER__TIMEOUT_MS: '2000',
      OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce',
      KIND: 'cnp',
      ...CARD,
      ...env,
    },
  });
}

async function until<T>(f: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Recovered = {
  journal: { merchantOrderId: string; kind: string; state: string; data: Record<string, unknown> }[];
  outbox: { pending: number };
};

const lastLine = (out: string): Recovered => JSON.parse(out.trim().split('\n').at(-1)!) as Recovered;

// Each case starts two daemons in processes of their own: a minute each on a loaded machine (measured
// 60 s under a load of 20 on 2 cores), so the limit is the start-ups', not the sale's.
const TWO_DAEMONS_MS = 180_000;

describe('card not present: the terminal killed with a sale in flight', () => {
  it(
    'killed after the host took the sale, before its answer was journaled: voided at the next start',
    async () => {
      const state = tempDir();
      // The host takes the sale and keeps its answer (as a connection lost after the request).
      await h.fault('ecommerceSaleCreate', { drop: true });
      // The sale waits for its answer far longer than the test waits to kill it.
      const sale = child('sale', state, { SALE_AMOUNT: '7710', OMNIPOS_ACQUIRER__TIMEOUT_MS: '60000' });
      const merchantOrderId = await until(() =>
        Promise.resolve(/"merchantOrderId":"(\d+)"/.exec(sale.out())?.[1]),
      ).catch((e: unknown) => {
        throw new Error(`${String(e)}: ${sale.err()}`);
      });
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
    },
    TWO_DAEMONS_MS,
  );

  it(
    'killed before the request left: the undo race waits, nothing charged, "not found" not final before the close',
    async () => {
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
    },
    TWO_DAEMONS_MS,
  );
});

describe('card not present: the terminal killed with a capture or a void in flight', () => {
  async function killedAfter(
    change: 'capture' | 'void',
    amount: string,
    part: string | undefined,
    taken: string,
  ): Promise<{ state: string; merchantOrderId: string; recovered: Recovered }> {
    const state = tempDir();
    const route = change === 'capture' ? 'ecommerceSaleCapture' : 'ecommerceSaleVoid';
    // The host takes the change and keeps its answer (as a connection lost after the request).
    await h.fault(route, { drop: true });
    const sale = child('sale', state, {
      SALE_AMOUNT: amount,
      CAPTURE: 'false',
      CHANGE: change,
      ...(part ? { CHANGE_AMOUNT: part } : {}),
      OMNIPOS_ACQUIRER__TIMEOUT_MS: '60000',
    });
    const merchantOrderId = await until(() => Promise.resolve(/"merchantOrderId":"(\d+)"/.exec(sale.out())?.[1]));
    await until(async () =>
      (await h.ledger()).entries.find((e) => e.kind === taken && e.merchantOrderId === merchantOrderId),
    );
    sale.child.kill('SIGKILL');
    expect((await sale.exit).signal).toBe('SIGKILL');
    const recovered = child('recover', state);
    expect((await recovered.exit).code, recovered.err()).toBe(0);
    return { state, merchantOrderId, recovered: lastLine(recovered.out()) };
  }

  it(
    'killed with a partial capture in flight (the host took it): captured with the part at the next start, once',
    async () => {
      const { state, merchantOrderId, recovered } = await killedAfter('capture', '7810', '5000', 'card-captured');
      expect(recovered.journal).toEqual([
        expect.objectContaining({
          merchantOrderId,
          state: 'captured',
          data: expect.objectContaining({ capturedAmount: 5000 }),
        }),
      ]);
      expect(recovered.outbox.pending).toBe(0);
      const kinds = (await h.ledger()).entries.filter((e) => e.merchantOrderId === merchantOrderId).map((e) => e.kind);
      expect(kinds).toEqual(['card-authorized', 'card-captured']);
      expect(scanForCardData(state, TYPED)).toEqual([]);
    },
    TWO_DAEMONS_MS,
  );

  it(
    'killed with a void in flight (the host took it): voided at the next start by the undo race',
    async () => {
      const { state, merchantOrderId, recovered } = await killedAfter('void', '7820', undefined, 'card-voided');
      expect(recovered.journal).toEqual([expect.objectContaining({ merchantOrderId, state: 'voided' })]);
      expect(recovered.outbox.pending).toBe(0);
      const kinds = (await h.ledger()).entries.filter((e) => e.merchantOrderId === merchantOrderId).map((e) => e.kind);
      expect(kinds).toEqual(['card-authorized', 'card-voided']);
      expect(scanForCardData(state, TYPED)).toEqual([]);
    },
    TWO_DAEMONS_MS,
  );
});

describe('card not present on the webservice 1.5: the terminal killed with a capture or a cancellation in flight', () => {
  let ws: RunningWs15;
  beforeAll(async () => {
    ws = await listenWs15();
  });
  afterAll(async () => {
    await ws.close();
  });

  /** The daemon on the webservice 1.5's host model, a test card of its manual (ws15:1506-1520). */
  function ws15Child(mode: 'sale' | 'recover', stateDir: string, env: Record<string, string> = {}) {
    return child(mode, stateDir, {
      ...ws15Env(stateDir, ws.url),
      CARD_NUMBER: '4012001038443335',
      CARD_EXPIRY: '05/2018',
      CARD_CVV: '123',
      CAPTURE: 'false',
      ...env,
    });
  }

  async function killedAt(killAt: 'capturing' | 'voiding', env: Record<string, string>) {
    const state = tempDir();
    const sale = ws15Child('sale', state, { KILL_AT: killAt, ...env });
    expect((await sale.exit).signal, sale.err()).toBe('SIGKILL');
    const recovered = ws15Child('recover', state);
    expect((await recovered.exit).code, recovered.err()).toBe(0);
    const { journal, outbox } = lastLine(recovered.out());
    const tid = journal[0]!.data.paymentId as string;
    return { state, journal, outbox, shown: ws.host.transactions.get(tid)! };
  }

  it(
    'killed with a partial capture journaled: captured with the part at the next start (the query shows 4, captured again)',
    async () => {
      const { state, journal, outbox, shown } = await killedAt('capturing', {
        SALE_AMOUNT: '8800',
        CHANGE: 'capture',
        CHANGE_AMOUNT: '6000',
      });
      expect(journal).toEqual([
        expect.objectContaining({ state: 'captured', data: expect.objectContaining({ capturedAmount: 6000 }) }),
      ]);
      expect(outbox.pending).toBe(0);
      expect(shown).toMatchObject({ status: 6, capture: { cents: 6000 } });
      expect(scanForCardData(state, ['4012001038443335'])).toEqual([]);
    },
    TWO_DAEMONS_MS,
  );

  it(
    'killed with a cancellation journaled: cancelled (9) at the next start by the undo race',
    async () => {
      const { journal, outbox, shown } = await killedAt('voiding', { SALE_AMOUNT: '8700', CHANGE: 'void' });
      expect(journal).toEqual([expect.objectContaining({ state: 'voided' })]);
      expect(outbox.pending).toBe(0);
      expect(shown.status).toBe(9);
    },
    TWO_DAEMONS_MS,
  );
});
