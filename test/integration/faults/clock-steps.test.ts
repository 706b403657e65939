import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/clock.js';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { HostClock } from '../../../src/core/host-clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { DayBook } from '../../../src/operations/day/index.js';
import { Journal } from '../../../src/store/index.js';
import { MIGRATIONS, MerchantOrderIds, openDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { useTempStores } from '../../helpers/store.js';
import { copyFileSync } from 'node:fs';
import path from 'node:path';

// Issue 23, "a clock that jumps": NTP steps the terminal's clock forward and back by seconds,
// minutes or hours (across midnight too) between MerchantOrderId requests. No id may repeat or go
// backwards; a clock stepped behind what was issued is refused (CLOCK_BEHIND), never answered
// with a reused id, and selling resumes by itself once the clock is past the last id again.
const tempDir = useTempDirs();
const tempStore = useTempStores();

class SteppedClock implements Clock {
  constructor(public ms: number) {}
  now(): Date {
    return new Date(this.ms);
  }
}

const step = fc.oneof(
  fc.integer({ min: -500, max: 500 }), // jitter, ms
  fc.integer({ min: -120, max: 120 }).map((s) => s * 1000), // seconds
  fc.integer({ min: -90, max: 90 }).map((m) => m * 60_000), // minutes
  fc.integer({ min: -26, max: 26 }).map((h) => h * 3_600_000), // hours, across midnight
);

describe('MerchantOrderId under a clock NTP steps', () => {
  it('never repeats nor goes back; behind the last id it refuses (CLOCK_BEHIND) and recovers when the clock passes it (1000 runs)', async () => {
    const dir = tempDir();
    // Each run gets a fresh database: a copy of one migrated once (the ids' rule is under test, not the migrations).
    const template = path.join(dir, 'template.db');
    openDatabase({ file: template, migrations: MIGRATIONS }).close();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(step, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 12 }),
        async (plan) => {
          const file = path.join(dir, `ids-${run++}.db`);
          copyFileSync(template, file);
          const db = openDatabase({ file, migrations: MIGRATIONS });
          // Durability is not under test here (test/integration/faults/ kills and power cuts hold it): without
          // an fsync per id the 1,000 runs take seconds, not minutes on a shared disk.
          db.pragma('synchronous = OFF');
          try {
            const clock = new SteppedClock(Date.parse('2026-12-31T23:00:00-03:00'));
            const ids = new MerchantOrderIds(db, {
              ordinal: 1,
              clock,
              maxWaitMs: 10_000,
              wait: (ms) => {
                clock.ms += ms; // the clock runs while we wait
                return Promise.resolve();
              },
            });
            const issued: string[] = [];
            let furthest = clock.ms;
            for (const [jump, count] of plan) {
              clock.ms += jump;
              furthest = Math.max(furthest, clock.ms);
              for (let i = 0; i < count; i++) {
                try {
                  issued.push(await ids.next());
                } catch (e) {
                  if (!isOmniposError(e, 'CLOCK_BEHIND')) throw e;
                }
                clock.ms += 37;
                furthest = Math.max(furthest, clock.ms);
              }
            }
            for (let i = 1; i < issued.length; i++)
              expect(BigInt(issued[i]!) > BigInt(issued[i - 1]!), `${issued[i - 1]} then ${issued[i]}`).toBe(true);
            expect(new Set(issued).size).toBe(issued.length);
            // The clock moved well past everything issued: the next id comes, greater than all.
            clock.ms = furthest + 3_600_000;
            const after = await ids.next();
            if (issued.length) expect(BigInt(after) > BigInt(issued.at(-1)!)).toBe(true);
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("the business day under a clock NTP steps: the host's Date headers keep it", () => {
  it("a local step of an hour back or forward is undone by the next Date header: the host's day does not change", () => {
    const local = new SteppedClock(Date.parse('2026-11-25T23:30:00-03:00'));
    const host = new HostClock(local);
    const hostNow = (): Date => new Date(Math.floor(Date.parse('2026-11-25T23:30:00-03:00') / 1000) * 1000);
    expect(host.observe(hostNow())).toBe(false);
    for (const step of [-3_600_000, +3_600_000, -26 * 3_600_000, +26 * 3_600_000]) {
      local.ms = Date.parse('2026-11-25T23:30:00-03:00') + step;
      expect(host.observe(hostNow())).toBe(true);
      expect(Math.abs(host.now().getTime() - Date.parse('2026-11-25T23:30:00-03:00'))).toBeLessThanOrEqual(1000);
    }
  });

  it('the day close is neither doubled by a step back into the closed day nor confused by a step forward and back', async () => {
    const db = tempStore();
    try {
      const clock = new SteppedClock(Date.parse('2026-11-25T22:00:00-03:00'));
      const book = new DayBook({
        db,
        journal: new Journal(db),
        clock,
        log: createLogger({ level: 'silent' }),
        environment: 'sandbox',
      });
      const first = await book.close();
      expect(first.alreadyClosed).toBe(false);
      clock.ms -= 3_600_000; // NTP steps back an hour: still the 25th, already closed
      expect((await book.close()).alreadyClosed).toBe(true);
      clock.ms += 5 * 3_600_000; // forward past midnight: the 26th is its own day
      const next = await book.close();
      expect(next.alreadyClosed).toBe(false);
      expect(next.date).not.toBe(first.date);
      clock.ms -= 5 * 3_600_000; // and back: the 25th stays closed once
      expect((await book.close()).alreadyClosed).toBe(true);
      expect(db.prepare('SELECT count(*) AS n FROM day_closes').get()).toEqual({ n: 2 });
    } finally {
      db.close();
    }
  });
});
