import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from '../../../src/store/sqlite.js';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, openDatabase, openTerminalDatabase, type Migration } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();

function tables(file: string): string[] {
  const raw = new Database(file, { readonly: true });
  try {
    return (
      raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((r) => r.name);
  } finally {
    raw.close();
  }
}

function userVersion(file: string): number {
  const raw = new Database(file, { readonly: true });
  try {
    return raw.pragma('user_version', { simple: true }) as number;
  } finally {
    raw.close();
  }
}

describe('openDatabase', () => {
  it('sets WAL, synchronous=FULL and foreign keys, and reads them back', () => {
    const dir = tempDir();
    const db = openTerminalDatabase(path.join(dir, 'state'));
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.close();
    const file = path.join(dir, 'state', 'omnipos.db');
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(statSync(path.join(dir, 'state')).mode & 0o077).toBe(0);
    expect(tables(file)).toEqual([
      'alarm_webhooks',
      'api_event_gaps',
      'api_event_run',
      'api_events',
      'counters',
      'day_archives',
      'day_closes',
      'id_floors',
      'init_bins',
      'init_current',
      'init_documents',
      'init_versions',
      'journal',
      'journal_transitions',
      'outbox',
      'payment_owners',
      'saved_cards',
      'sqlite_sequence',
      'telemetry_outbox',
    ]);
    expect(userVersion(file)).toBe(MIGRATIONS.length);
  });

  it("bounds SQLite's page cache to 2 MiB per connection (better-sqlite3's build keeps 16 MiB: the RSS a daemon gained over months, issue 23)", () => {
    const dir = tempDir();
    const db = openTerminalDatabase(path.join(dir, 'state'));
    expect(db.pragma('cache_size', { simple: true })).toBe(-2048);
    db.close();
    const other = openDatabase({ file: path.join(dir, 'state', 'omnipos.db'), migrations: MIGRATIONS, cacheKiB: 512 });
    expect(other.pragma('cache_size', { simple: true })).toBe(-512);
    other.close();
  });

  it('refuses a database written by a newer omnipos and leaves it untouched', () => {
    const file = path.join(tempDir(), 'newer.db');
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.exec('CREATE TABLE future (x)');
    raw.close();
    expect(() => openDatabase({ file, migrations: MIGRATIONS })).toThrow(
      expect.objectContaining({ code: 'STORE_NEWER_SCHEMA', message: expect.stringContaining('schema version 99') }),
    );
    expect(userVersion(file)).toBe(99);
    expect(tables(file)).toEqual(['future']);
  });

  it('rolls back every pending step when one migration fails', () => {
    const file = path.join(tempDir(), 'broken.db');
    const good: Migration = { version: 1, name: 'good', up: 'CREATE TABLE a (x INTEGER);' };
    openDatabase({ file, migrations: [good] }).close();
    const steps: Migration[] = [
      good,
      { version: 2, name: 'also good', up: 'CREATE TABLE b (x INTEGER); INSERT INTO a VALUES (1);' },
      { version: 3, name: 'bad', up: 'CREATE TABLE c (x INTEGER); INSERT INTO nowhere VALUES (1);' },
    ];
    expect(() => openDatabase({ file, migrations: steps })).toThrow(
      expect.objectContaining({
        code: 'STORE_MIGRATION_FAILED',
        message: expect.stringContaining('migration 3 (bad)'),
      }),
    );
    expect(tables(file)).toEqual(['a']);
    expect(userVersion(file)).toBe(1);
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT count(*) AS n FROM a').get()).toEqual({ n: 0 });
    raw.close();
  });

  it('refuses migrations numbered with gaps, and a path-less database', () => {
    const file = path.join(tempDir(), 'x.db');
    expect(() => openDatabase({ file, migrations: [{ version: 2, name: 'x', up: '' }] })).toThrow(/expected 1/);
    expect(existsSync(file)).toBe(false);
    expect(() => openDatabase({ file: ':memory:', migrations: [] })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('opens the same database again without migrating twice', () => {
    const dir = tempDir();
    openTerminalDatabase(dir).close();
    const db = openTerminalDatabase(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });
});
