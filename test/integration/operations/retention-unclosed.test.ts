import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { Maintenance } from '../../../src/main/maintenance.js';
import { DayBook, readArchivedDay } from '../../../src/operations/index.js';
import { Journal, listDayFiles, openTerminalDatabase } from '../../../src/store/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

// Issue 35, "Retention": a business day nobody closed on the terminal (switched off at night, the
// supervisor away) stayed in the database for ever, since only closed days were archived. Past its
// database period the upkeep closes it (no paper) and it is archived like any other; a payment that
// may still move money keeps its day whole all the same.

const log = createLogger({ level: 'silent' });
const tempDir = useTempDirs();
const DAY = 86_400_000;

function terminal() {
  const stateDir = tempDir('omnipos-retention-unclosed-');
  const db = openTerminalDatabase(stateDir);
  const journal = new Journal(db);
  const clock = new FakeClock('2026-03-02T15:00:00.000Z');
  const archiveDir = path.join(stateDir, 'archive');
  const printed: string[] = [];
  const book = new DayBook({
    db,
    journal,
    clock,
    log,
    environment: 'sandbox',
    archiveDir,
    print: () => {
      printed.push('day');
      return Promise.resolve('printed');
    },
  });
  const maintenance = new Maintenance({
    config: loadConfig({ env: { OMNIPOS_STATE_DIR: stateDir } }),
    db,
    journal,
    clock,
    log,
    busy: () => false,
    closeDay: (date) => book.close(date, { print: false }),
  });
  let n = 0;
  const sale = (state: string, amount = 1000): void => {
    n++;
    const at = clock.now();
    const e = journal.open({
      kind: 'sale',
      merchantOrderId: `26061001${String(n).padStart(7, '0')}`,
      state: 'started',
      amount,
      data: { request: { method: 'credit', amount, installments: 1 }, card: { brandId: 1, productId: 10 } },
      input: 'start',
      at,
    });
    if (state !== 'started') journal.transition(e.id, { from: 'started', to: state, input: 'host', at });
  };
  return { db, clock, book, maintenance, archiveDir, printed, sale };
}

describe('retention: a day never closed', () => {
  it('is closed by the upkeep past its database period, without paper, and archived (before: kept for ever)', async () => {
    const t = terminal();
    t.sale('confirmed', 1500);
    t.sale('confirmed', 2500);
    t.clock.advance(DAY); // the next day is closed by hand, the first never
    t.sale('confirmed', 700);
    await t.book.close('2026-03-03');

    t.clock.advance(88 * DAY); // 03-02 is 89 days old: not yet
    await t.maintenance.pass();
    expect(listDayFiles(t.archiveDir)).toEqual([]);
    expect(t.book.closed('2026-03-02')).toBeUndefined();

    t.clock.advance(DAY); // 90 days: closed by the upkeep and archived in the same pass
    await t.maintenance.pass();
    expect(readArchivedDay(t.archiveDir, '2026-03-02')?.close.report.totals.net).toBe(4000);
    t.clock.advance(DAY);
    await t.maintenance.pass();
    expect(listDayFiles(t.archiveDir).map((f) => f.date)).toEqual(['2026-03-02', '2026-03-03']);
    expect(readArchivedDay(t.archiveDir, '2026-03-02')?.payments.map((p) => p.entry.amount)).toEqual([1500, 2500]);
    expect(t.db.prepare('SELECT count(*) AS n FROM journal').get()).toEqual({ n: 0 });
    expect(t.printed).toEqual(['day']); // the hand close printed; retention's did not
    await t.maintenance.stop();
  });

  it('a day never closed with a sale still pending is closed but stays whole in the database', async () => {
    const t = terminal();
    t.sale('confirmed', 1500);
    t.sale('authorizing', 900);
    t.clock.advance(91 * DAY);
    await t.maintenance.pass();
    await t.maintenance.pass();
    expect(t.book.closed('2026-03-02')).toBeDefined();
    expect(listDayFiles(t.archiveDir)).toEqual([]);
    expect(t.db.prepare('SELECT count(*) AS n FROM journal').get()).toEqual({ n: 2 });
    await t.maintenance.stop();
  });
});
