import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { MerchantOrderIds, nextNsu, openTerminalDatabase, writeCounter, type Db } from '../../../src/store/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { useTempStores } from '../../helpers/store.js';

const tempDir = useTempDirs();
const tempStore = useTempStores();

function ids(db: Db, clock: FakeClock, ordinal = 1): MerchantOrderIds {
  return new MerchantOrderIds(db, { ordinal, clock, wait: clock.wait });
}

/**
 * The property's folders on tmpfs where there is one: it checks the counter's logic over thousands
 * of issues, each a durable commit, and the flash's fsync adds time, not a check (the durability of
 * the counter is the kill tests'). Removed after the test.
 */
const memoryDirs: string[] = [];
afterAll(() => {
  for (const d of memoryDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function memoryDir(): string {
  if (!existsSync('/dev/shm')) return tempDir();
  const d = mkdtempSync(path.join('/dev/shm', 'omnipos-order-ids-'));
  memoryDirs.push(d);
  return d;
}

function deleteDatabase(dir: string): void {
  for (const f of ['omnipos.db', 'omnipos.db-wal', 'omnipos.db-shm']) rmSync(path.join(dir, f), { force: true });
}

describe('MerchantOrderId', () => {
  it('is 15 digits: host date YYDDD, the terminal’s fleet-wide number (4 digits), then tenths of a second since host midnight', async () => {
    // 2026-11-22 13:00:00.250 UTC is 10:00:00.250 in America/Sao_Paulo (UTC-3), day 326 of 2026.
    const clock = new FakeClock('2026-11-22T13:00:00.250Z');
    const db = tempStore();
    const id = await ids(db, clock, 42).next();
    expect(id).toMatch(/^\d{15}$/);
    expect(id.slice(0, 5)).toBe('26326');
    expect(id.slice(5, 9)).toBe('0042');
    // a fresh counter starts one tenth of a second past the clock: 36000.2 s → 360002 + 1
    expect(id.slice(9)).toBe('360003');
    db.close();
  });

  it('uses the host date, not UTC: 01:00 UTC is still the previous day in São Paulo', async () => {
    const clock = new FakeClock('2026-01-01T01:00:00.000Z');
    const db = tempStore();
    expect((await ids(db, clock).next()).slice(0, 5)).toBe('25365');
    db.close();
  });

  it('never repeats, and never runs ahead of the clock, when asked faster than ten a second', async () => {
    const clock = new FakeClock('2026-11-22T13:00:00.000Z');
    const db = tempStore();
    const gen = ids(db, clock);
    const seen: string[] = [];
    for (let i = 0; i < 200; i++) {
      seen.push(await gen.next());
      clock.advance(7);
    }
    expect(new Set(seen).size).toBe(200);
    expect([...seen].sort()).toEqual(seen);
    const last = Number(seen.at(-1)!.slice(9));
    expect(last).toBeLessThanOrEqual(Math.floor((clock.now().getTime() - Date.parse('2026-11-22T03:00:00Z')) / 100));
    db.close();
  });

  it('stays unique across closing and reopening the database', async () => {
    const dir = tempDir();
    const clock = new FakeClock('2026-11-22T13:00:00.000Z');
    const seen = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const db = openTerminalDatabase(dir);
      const gen = ids(db, clock);
      for (let i = 0; i < 20; i++) seen.add(await gen.next());
      db.close();
    }
    expect(seen.size).toBe(100);
  });

  it('stays unique when the database is deleted the same day, even within the same tenth of a second', async () => {
    const dir = tempDir();
    const clock = new FakeClock('2026-11-22T13:00:00.000Z');
    const seen = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const db = openTerminalDatabase(dir);
      const gen = ids(db, clock);
      for (let i = 0; i < 20; i++) seen.add(await gen.next());
      db.close();
      deleteDatabase(dir);
    }
    expect(seen.size).toBe(100);
  });

  it('differs between two terminal ordinals of one merchant on the same clock', async () => {
    const clock = new FakeClock('2026-11-22T13:00:00.000Z');
    const a = tempStore();
    const b = tempStore();
    const ga = ids(a, clock, 1);
    const gb = ids(b, clock, 2);
    const fromA = new Set<string>();
    const fromB = new Set<string>();
    for (let i = 0; i < 50; i++) {
      fromA.add(await ga.next());
      fromB.add(await gb.next());
    }
    expect([...fromA].filter((x) => fromB.has(x))).toEqual([]);
    a.close();
    b.close();
  });

  it('two terminals of different merchants under one acquirer client never collide: the terminal part is 1..9999, fleet-wide (the old 3-digit ordinal was per merchant, so every first terminal issued the same ids)', async () => {
    const clock = new FakeClock('2026-11-22T13:00:00.000Z');
    const merchantA = tempStore();
    const merchantB = tempStore();
    // Both are their merchant's first terminal (ordinal 1); the fleet numbers them 1001 and 2001.
    const a = await ids(merchantA, clock, 1001).next();
    const b = await ids(merchantB, clock, 2001).next();
    expect(a).not.toBe(b);
    expect([a.slice(5, 9), b.slice(5, 9)]).toEqual(['1001', '2001']);
    expect(() => ids(merchantA, clock, 10_000)).toThrow(/1\.\.9999/);
    merchantA.close();
    merchantB.close();
  });

  it('a counter left in the older layout (3-digit ordinal, 7-digit sequence) is not continued as if it were the new one', async () => {
    const clock = new FakeClock('2026-11-22T13:00:00.000Z');
    const db = tempStore();
    await ids(db, clock, 1).next();
    db.prepare("UPDATE counters SET value = '263260010360005' WHERE name = 'merchant_order_id'").run();
    const id = await ids(db, clock, 1).next();
    expect(id.slice(0, 9)).toBe('263260001');
    expect(Number(id.slice(9))).toBeGreaterThanOrEqual(360000);
    db.close();
  });

  it('refuses to issue when the clock is far behind the last id, instead of repeating one', async () => {
    const clock = new FakeClock('2026-11-22T13:00:00.000Z');
    const db = tempStore();
    writeCounter(db, 'merchant_order_id', '263260001500000');
    await expect(ids(db, clock).next()).rejects.toMatchObject({ code: 'CLOCK_BEHIND' });
    db.close();
  });

  it('stays unique under any mix of issuing, time passing, reopening and losing the database (property)', async () => {
    const seed = Date.now();
    console.log(`order id property seed ${seed}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('issue' as const), n: fc.integer({ min: 1, max: 5 }) }),
            fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3_600_000 }) }),
            fc.record({ op: fc.constant('reopen' as const) }),
            fc.record({ op: fc.constant('lose' as const) }),
          ),
          { maxLength: 15 },
        ),
        async (ops) => {
          const dir = memoryDir();
          const clock = new FakeClock('2026-11-22T23:00:00.000Z');
          let db = openTerminalDatabase(dir);
          const seen = new Set<string>();
          let count = 0;
          try {
            for (const o of ops) {
              if (o.op === 'issue') {
                const gen = ids(db, clock);
                for (let i = 0; i < o.n; i++) {
                  const id = await gen.next();
                  if (!/^\d{15}$/.test(id)) return false;
                  seen.add(id);
                  count++;
                }
              } else if (o.op === 'advance') clock.advance(o.ms);
              else {
                db.close();
                if (o.op === 'lose') deleteDatabase(dir);
                db = openTerminalDatabase(dir);
              }
            }
          } finally {
            db.close();
          }
          return seen.size === count;
        },
      ),
      { numRuns: 200, seed },
    );
  }, 180_000);
});

describe('terminal NSU', () => {
  it('counts 000001, 000002… and wraps after 999999', () => {
    const db = tempStore();
    expect(nextNsu(db)).toBe('000001');
    expect(nextNsu(db)).toBe('000002');
    writeCounter(db, 'terminal_nsu', '999998');
    expect(nextNsu(db)).toBe('999999');
    expect(nextNsu(db)).toBe('000001');
    db.close();
  });
});
