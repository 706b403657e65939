import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { CONVERT_WHEN_IDLE_BYTES, Maintenance } from '../../../src/main/maintenance.js';
import { AUTO_VACUUM, Journal, openTerminalDatabase, storeSpace } from '../../../src/store/index.js';
import Database from '../../../src/store/sqlite.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

// Issue 35, "Space given back": a database made before incremental auto-vacuum (auto_vacuum NONE)
// and holding more than 64 MiB is not converted at start (a full VACUUM there risks systemd's start
// timeout), so it kept every page retention freed for ever. The upkeep now converts it after start,
// outside sales, once retention has brought what it holds under CONVERT_WHEN_IDLE_BYTES.

const log = createLogger({ level: 'silent' });
const tempDir = useTempDirs();
const MiB = 1024 * 1024;

/** An old terminal's database: made with auto_vacuum NONE, then ~70 MiB of an old day's event stream. */
function oldTerminal(): string {
  const stateDir = tempDir('omnipos-old-db-');
  const raw = new Database(path.join(stateDir, 'omnipos.db'));
  raw.pragma('journal_mode = WAL'); // writes the first page: the mode stays NONE
  raw.close();
  const db = openTerminalDatabase(stateDir);
  expect(db.pragma('auto_vacuum', { simple: true })).toBe(AUTO_VACUUM.none);
  const insert = db.prepare('INSERT INTO api_events (business_day, at, body) VALUES (?, ?, ?)');
  const body = JSON.stringify({ type: 'alarm', message: 'x'.repeat(3500) });
  db.transaction(() => {
    for (let i = 0; i < 18_000; i++) insert.run('2026-01-05', '2026-01-05T15:00:00.000Z', body);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return stateDir;
}

function maintenanceOf(stateDir: string, busy: () => boolean) {
  const db = openTerminalDatabase(stateDir);
  const maintenance = new Maintenance({
    config: loadConfig({ env: { OMNIPOS_STATE_DIR: stateDir } }),
    db,
    journal: new Journal(db),
    clock: new FakeClock('2026-03-02T15:00:00.000Z'),
    log,
    busy,
  });
  return { db, maintenance, file: path.join(stateDir, 'omnipos.db') };
}

describe('a database of before, over 64 MiB', () => {
  it('is not converted at start; the upkeep converts it once retention has freed it, and the file gives the space back (before: kept for ever)', async () => {
    const stateDir = oldTerminal();
    let busy = false;
    const t = maintenanceOf(stateDir, () => busy);
    expect(statSync(t.file).size).toBeGreaterThan(64 * MiB);

    t.maintenance.prepare(); // at start: too large, left alone
    expect(storeSpace(t.db, t.file).autoVacuum).toBe('none');

    busy = true; // a payment holds the terminal: the upkeep does nothing
    await t.maintenance.pass();
    expect(storeSpace(t.db, t.file).autoVacuum).toBe('none');
    expect(storeSpace(t.db, t.file).freePages).toBe(0);

    busy = false; // retention prunes the old day's events, then the database is converted
    await t.maintenance.pass();
    const space = storeSpace(t.db, t.file);
    expect(space.autoVacuum).toBe('incremental');
    expect(space.pages * space.pageSize).toBeLessThan(CONVERT_WHEN_IDLE_BYTES);
    t.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(statSync(t.file).size).toBeLessThan(4 * MiB);
    expect(t.db.pragma('quick_check', { simple: true })).toBe('ok');
    expect(t.maintenance.view().autoVacuum).toBe('incremental');
    t.db.close();
  }, 120_000);

  it('still holding more than the bound after retention, it is left as it is (the free pages are reused, the file does not grow)', async () => {
    const stateDir = oldTerminal();
    const db = new Database(path.join(stateDir, 'omnipos.db'));
    db.prepare("UPDATE api_events SET business_day = '2026-03-02'").run(); // today's: kept
    db.close();
    const t = maintenanceOf(stateDir, () => false);
    await t.maintenance.pass();
    expect(storeSpace(t.db, t.file).autoVacuum).toBe('none');
    t.db.close();
  }, 120_000);
});
