import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from './sqlite.js';
import { OmniposError } from '../core/index.js';
import type { Logger } from '../core/index.js';
import type { Migration } from './migration.js';
import { chooseIncremental, limitWal } from './space.js';
import { watchWrites } from './write-health.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** The database file; its folder is created with mode 0700. `:memory:` is refused (WAL needs a file). */
  file: string;
  migrations: readonly Migration[];
  /** How long a write waits for another connection's lock, in milliseconds. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * SQLite's page cache for this connection, KiB. Default 2048. better-sqlite3 builds SQLite with
   * 16 MiB per connection (SQLITE_DEFAULT_CACHE_SIZE=-16000), which a connection fills as its file
   * grows and keeps: most of the RSS a daemon gained over months.
   */
  cacheKiB?: number;
  log?: Logger;
}

/** The page cache each connection may hold, KiB (see OpenOptions.cacheKiB). */
export const DEFAULT_CACHE_KIB = 2048;

function pragma(db: Db, sql: string): unknown {
  return db.pragma(sql, { simple: true });
}

function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new OmniposError('INTERNAL', `migration ${m.name} has version ${m.version}, expected ${i + 1}`);
    }
  });
}

/** Applies every pending migration in one transaction: all of them, or none. */
function migrate(db: Db, file: string, migrations: readonly Migration[], log?: Logger): void {
  const current = pragma(db, 'user_version') as number;
  const latest = migrations.length;
  if (current > latest) {
    throw new OmniposError(
      'STORE_NEWER_SCHEMA',
      `${file} has schema version ${current}, newer than this omnipos knows (${latest}); upgrade omnipos instead of opening it`,
      { file, version: current, known: latest },
    );
  }
  const pending = migrations.slice(current);
  if (pending.length === 0) return;
  let step: Migration | undefined;
  try {
    db.transaction(() => {
      for (step of pending) {
        db.exec(step.up);
        db.pragma(`user_version = ${step.version}`);
      }
    }).immediate();
  } catch (e) {
    throw new OmniposError(
      'STORE_MIGRATION_FAILED',
      `${file}: migration ${step?.version ?? '?'} (${step?.name ?? '?'}) failed, nothing was changed: ${(e as Error).message}`,
      { file, version: step?.version },
      { cause: e },
    );
  }
  log?.info({ file, from: current, to: latest }, 'database migrated');
}

/**
 * Opens (creating if needed) a SQLite database with the settings a payment journal needs, checks
 * that each took effect, and brings its schema up to date:
 * - WAL with `synchronous=FULL` (better-sqlite3 builds SQLite so that WAL defaults to NORMAL,
 *   which can lose a committed row on power loss);
 * - foreign keys on; a busy timeout; a page cache of 2 MiB, not better-sqlite3's 16 MiB;
 * - a new file in incremental auto-vacuum, and the WAL truncated back to 4 MiB (space.ts);
 * - every statement and transaction reports a disk-full or I/O error (the daemon's write health);
 * - a database written by a newer omnipos is refused, not touched.
 */
export function openDatabase(options: OpenOptions): Db {
  const { file, migrations } = options;
  if (file === ':memory:' || file === '') throw new OmniposError('INVALID_ARGUMENT', 'the database needs a file path');
  checkMigrations(migrations);
  const dir = path.dirname(file);
  let db: Db;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    db = new Database(file);
    // Every write's disk-full or I/O error is heard by the daemon's write health (write-health.ts).
    watchWrites(db);
  } catch (e) {
    throw new OmniposError('STORE_OPEN_FAILED', `cannot open ${file}: ${(e as Error).message}`, { file }, { cause: e });
  }
  try {
    chmodSync(file, 0o600);
    chooseIncremental(db);
    const mode = pragma(db, 'journal_mode = WAL');
    if (mode !== 'wal') throw refused(file, 'journal_mode', 'wal', mode);
    pragma(db, 'synchronous = FULL');
    const sync = pragma(db, 'synchronous');
    if (sync !== 2) throw refused(file, 'synchronous', 2, sync);
    pragma(db, 'foreign_keys = ON');
    const fk = pragma(db, 'foreign_keys');
    if (fk !== 1) throw refused(file, 'foreign_keys', 1, fk);
    pragma(db, `busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    const cacheKiB = options.cacheKiB ?? DEFAULT_CACHE_KIB;
    pragma(db, `cache_size = ${-cacheKiB}`);
    const cache = pragma(db, 'cache_size');
    if (cache !== -cacheKiB) throw refused(file, 'cache_size', -cacheKiB, cache);
    limitWal(db);
    migrate(db, file, migrations, options.log);
    return db;
  } catch (e) {
    db.close();
    throw lockedBy(e, file, options.busyTimeoutMs ?? 5000) ?? e;
  }
}

/** SQLITE_BUSY past the busy timeout, however deep: another process holds the file (a second daemon, a tool). */
function lockedBy(e: unknown, file: string, waitedMs: number): OmniposError | undefined {
  for (let c: unknown = e; c; c = (c as { cause?: unknown }).cause) {
    const code = (c as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      return new OmniposError(
        'STORE_OPEN_FAILED',
        `${file} is locked by another process (waited ${waitedMs} ms); stop it (another omnipos, a sqlite3 shell) and start again`,
        { file },
        { cause: e },
      );
    }
  }
  return undefined;
}

function refused(file: string, name: string, wanted: unknown, got: unknown): OmniposError {
  return new OmniposError(
    'STORE_PRAGMA_REFUSED',
    `${file}: PRAGMA ${name} is ${String(got)}, expected ${String(wanted)}`,
    {
      file,
      pragma: name,
    },
  );
}
