import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardSim } from '../../src/sim/pinpad/card/index.js';
import {
  EXPIRY_SEALED,
  ExpiryKey,
  openTerminalDatabase,
  readCounter,
  sealJournalExpiries,
} from '../../src/store/index.js';
import { captureLogger } from '../helpers/capture-log.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { supervisedDaemon } from '../helpers/wallet-pay.js';
import { bearer, send } from './attacker.js';

/**
 * The journal keeps no card expiry date (issue 31, "Smaller"; PCI DSS 3.3: keep only what is
 * needed). A void matches its sale's card by a keyed hash of the expiry under the terminal's own
 * key (`<stateDir>/expiry-key`), so the SQLite file, its WAL and the logs hold no expiry after a
 * sale and its void; rows written by earlier versions are rewritten at start.
 */
const { log, output } = captureLogger('debug');
let t: Awaited<ReturnType<typeof supervisedDaemon>> | undefined;

beforeAll(async () => {
  t = await supervisedDaemon(log);
}, 60_000);
afterAll(() => t?.stop());

/** Files under `dir` whose bytes hold `needle`, the program's compile cache aside. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (path.relative(dir, p) === path.join('cache', 'node-compile')) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (readFileSync(p).includes(needle)) found.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return found;
}

async function until<T>(get: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  let v: T | undefined;
  for (let i = 0; i < 600; i++) {
    v = await get();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never settled: ${JSON.stringify(v)}`);
}

describe('the card expiry date after authorization', () => {
  it('a chip sale, a stripe sale and a void of each leave no expiry in the state directory nor the logs; the voids still match', async () => {
    const { token, supervisor, stateDir } = t!;
    const daemon = t!;
    const api = daemon.apiUrl;
    const get = (p: string) => send(api, 'GET', p, { headers: bearer(token) });
    const cards = [
      { lastDigit: 0, via: 'chip' },
      { name: 'sandbox stripe card, PIN 4321', via: 'stripe' },
    ] as const;
    for (const c of cards) {
      const via = c.via;
      const chosen = cardSim(daemon.pinpad.state).deck.choose({ ...c, pin: 'right' });
      expect(chosen.ok).toBe(true);
      const sale = await send(api, 'POST', '/v1/payments', {
        headers: bearer(token),
        body: JSON.stringify({ amount: 1500, method: 'credit' }),
      });
      expect(sale.status).toBe(202);
      const id = sale.json.id as number;
      await until(
        () => get(`/v1/payments/${id}`),
        (r) => r.json.state === 'confirmed',
      );
      await new Promise((r) => setTimeout(r, 200)); // the card leaves the pinpad
      const v = await send(api, 'POST', `/v1/payments/${id}/void`, {
        headers: bearer(token, { 'x-supervisor-token': supervisor }),
        body: '{}',
      });
      expect(v.status).toBe(202);
      const done = await until(
        () => get(`/v1/voids/${v.json.id as number}`),
        (r) => r.json.status !== 'pending',
      );
      // Matched by the keyed hash: the same card is the sale's.
      expect([via, done.json.status]).toEqual([via, 'approved']);
      await until(
        () => get(`/v1/voids/${v.json.id as number}`),
        (r) => r.json.state === 'confirmed',
      );
      await new Promise((r) => setTimeout(r, 200));
    }
    // The journal's rows hold the keyed hash where the expiry was.
    const db = openTerminalDatabase(stateDir);
    try {
      const rows = db.prepare('SELECT kind, data FROM journal').all() as { kind: string; data: string }[];
      expect(rows.map((r) => r.kind).sort()).toEqual(['sale', 'sale', 'void', 'void']);
      for (const r of rows) {
        const d = JSON.parse(r.data) as { card?: Record<string, unknown>; sale?: { card?: Record<string, unknown> } };
        expect(d.card?.expiry).toBeUndefined();
        expect(d.card?.expiryMac).toMatch(/^[\w-]{43}$/);
        if (r.kind === 'void') expect(d.sale?.card?.expiryMac).toBe(d.card?.expiryMac);
      }
    } finally {
      db.close();
    }
    // Byte by byte: the database, its WAL, every file of the state directory; and the logs (debug).
    expect(filesHolding(stateDir, '"expiry"')).toEqual([]);
    expect(output()).not.toContain('"expiry"');
    expect(statSync(path.join(stateDir, 'expiry-key')).mode & 0o777).toBe(0o600);
  }, 120_000);
});

describe('rows written before this version', () => {
  const tempDir = useTempDirs();

  it('are rewritten at start with the keyed hash in place of the expiry, and the old bytes are gone from the file', () => {
    const dir = tempDir('omnipos-expiry-migrate-');
    const db = openTerminalDatabase(dir);
    const card = { maskedPan: '476173******0060', inputMode: 'Emv', expiry: '3012', panSequenceNumber: '01' };
    const at = '2026-11-20T12:00:00.000Z';
    const insert = db.prepare(
      `INSERT INTO journal (kind, merchant_order_id, state, amount, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run('sale', '263240070000001', 'confirmed', 1000, JSON.stringify({ card }), at, at);
    insert.run('void', '263240070000002', 'confirmed', 1000, JSON.stringify({ card, sale: { id: 1, card } }), at, at);
    insert.run('pix', '263240070000003', 'confirmed', 1000, JSON.stringify({ paymentId: 'p' }), at, at);
    const key = new ExpiryKey(Buffer.alloc(32, 3));
    expect(sealJournalExpiries(db, key)).toBe(2);
    expect(sealJournalExpiries(db, key)).toBe(0);
    const rows = db.prepare('SELECT data FROM journal ORDER BY id').all() as { data: string }[];
    const [sale, voided] = rows.map((r) => JSON.parse(r.data) as Record<string, Record<string, unknown>>);
    expect(sale?.card).toEqual({ ...card, expiry: undefined, expiryMac: key.mac('3012') });
    expect(voided?.card?.expiryMac).toBe(key.mac('3012'));
    expect((voided?.sale?.card as Record<string, unknown>).expiryMac).toBe(key.mac('3012'));
    db.close();
    expect(filesHolding(dir, '"expiry"')).toEqual([]);
  });

  it("are read once per database: a start after the seal does not scan the journal again (before: every start read every row's JSON)", () => {
    const dir = tempDir('omnipos-expiry-once-');
    const db = openTerminalDatabase(dir);
    const key = new ExpiryKey(Buffer.alloc(32, 4));
    // A terminal's first start, on an empty journal: nothing to rewrite, the journal marked sealed.
    expect(sealJournalExpiries(db, key)).toBe(0);
    expect(readCounter(db, EXPIRY_SEALED)).toMatch(/^\d{4}-\d\d-\d\dT/);
    // A row the scan would rewrite, were it to run again (this version's engines never write one).
    const at = '2026-11-20T12:00:00.000Z';
    db.prepare(
      `INSERT INTO journal (kind, merchant_order_id, state, amount, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run('sale', '263240070000009', 'confirmed', 1000, JSON.stringify({ card: { expiry: '3012' } }), at, at);
    expect(sealJournalExpiries(db, key)).toBe(0);
    const row = db.prepare('SELECT data FROM journal').get() as { data: string };
    expect(JSON.parse(row.data)).toEqual({ card: { expiry: '3012' } });
    db.close();
  });
});
