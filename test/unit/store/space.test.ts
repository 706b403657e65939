import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from '../../../src/store/sqlite.js';
import {
  AUTO_VACUUM,
  convertToIncremental,
  giveBackSpace,
  openTerminalDatabase,
  storeSpace,
  VACUUM_STEP_PAGES,
  WAL_LIMIT_BYTES,
  type Db,
} from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

// Issue 35, "Space given back": before, the database kept every page it ever freed (auto_vacuum
// NONE) and its WAL stayed at its largest size; a terminal's file only grew.

const tempDir = useTempDirs();

function fill(db: Db, rows: number, bytes = 2000): void {
  db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const put = db.prepare('INSERT INTO filler (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) put.run('x'.repeat(bytes));
  })();
}

describe('the database gives back the space it freed', () => {
  it('a new terminal database is in incremental auto-vacuum, its WAL limited', () => {
    const dir = tempDir();
    const db = openTerminalDatabase(dir);
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(AUTO_VACUUM.incremental);
    expect(db.pragma('journal_size_limit', { simple: true })).toBe(WAL_LIMIT_BYTES);
    db.close();
  });

  it('freed pages go back to the file system in small steps, the file shrinking to what it holds', () => {
    const dir = tempDir();
    const file = path.join(dir, 'omnipos.db');
    const db = openTerminalDatabase(dir);
    fill(db, 5000);
    giveBackSpace(db);
    const full = storeSpace(db, file);
    db.exec('DELETE FROM filler WHERE id > 500');
    const freed = storeSpace(db, file).freePages;
    expect(freed).toBeGreaterThan(2000);
    let steps = 0;
    for (;;) {
      const step = giveBackSpace(db);
      expect(step.freed).toBeLessThanOrEqual(VACUUM_STEP_PAGES);
      steps++;
      if (!step.more) break;
    }
    expect(steps).toBeGreaterThanOrEqual(Math.floor(freed / VACUUM_STEP_PAGES));
    const after = storeSpace(db, file);
    expect(after.freePages).toBe(0);
    expect(after.dbBytes).toBeLessThan(full.dbBytes / 5);
    db.close();
  });

  it('the WAL is truncated back to its limit after a checkpoint (before: it stayed at its largest)', () => {
    const dir = tempDir();
    const file = path.join(dir, 'omnipos.db');
    const db = openTerminalDatabase(dir);
    fill(db, 6000); // ~12 MiB in one transaction: the WAL grows past it
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(2 * WAL_LIMIT_BYTES);
    giveBackSpace(db); // PASSIVE checkpoint: the whole WAL copied in
    db.prepare('INSERT INTO filler (body) VALUES (?)').run('one more'); // the writer starts the WAL again
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(WAL_LIMIT_BYTES);
    db.close();
  });

  it('a database made before (auto_vacuum NONE) is converted by one VACUUM when small, and left alone when large', () => {
    const dir = tempDir();
    const file = path.join(dir, 'old.db');
    const raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    fill(raw, 300);
    expect(raw.pragma('auto_vacuum', { simple: true })).toBe(AUTO_VACUUM.none);
    expect(convertToIncremental(raw, { maxLiveBytes: 1024, freeBytes: 1e12 }).converted).toBe(false);
    expect(convertToIncremental(raw, { maxLiveBytes: 64 * 1024 * 1024, freeBytes: 1e12 }).converted).toBe(true);
    expect(raw.pragma('auto_vacuum', { simple: true })).toBe(AUTO_VACUUM.incremental);
    raw.close();
  });
});
