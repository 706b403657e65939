import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** The database handle (open.ts's `Db`, named again here so that open.ts may import this file without a cycle). */
type Db = Database.Database;

/**
 * The database gives back the space it freed (docs/operations.md, "Space given back"): the file is
 * made with `auto_vacuum = INCREMENTAL`, so the pages retention frees go to the file system a few at
 * a time (`PRAGMA incremental_vacuum(N)`, one short write transaction) instead of staying in the
 * file for ever; a full VACUUM, which rewrites the whole file and stops every write meanwhile, is
 * never run while the daemon sells. The WAL is checkpointed without waiting (PASSIVE: it never blocks
 * on a reader) and `journal_size_limit` truncates it back to a bound when the next writer restarts it.
 */

/** SQLite's auto_vacuum modes, as `PRAGMA auto_vacuum` reads. */
export const AUTO_VACUUM = { none: 0, full: 1, incremental: 2 } as const;

/** The WAL file is truncated to this after a checkpoint lets the writer start it again, bytes. */
export const WAL_LIMIT_BYTES = 4 * 1024 * 1024;

/** The pages given back per step: 256 pages of 4 KiB, 1 MiB, a few milliseconds of writing. */
export const VACUUM_STEP_PAGES = 256;

const simple = (db: Db, sql: string): number => db.pragma(sql, { simple: true }) as number;

/**
 * On a file not written yet, incremental auto-vacuum: it can only be chosen before the file's first
 * page is written (the WAL switch writes it) or by a full VACUUM. Returns the mode in force.
 */
export function chooseIncremental(db: Db): number {
  if (simple(db, 'page_count') === 0) db.pragma(`auto_vacuum = ${AUTO_VACUUM.incremental}`);
  return simple(db, 'auto_vacuum');
}

/** The WAL truncated back to {@link WAL_LIMIT_BYTES} when a writer starts it again after a checkpoint. */
export function limitWal(db: Db): void {
  db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
}

/**
 * A database made before incremental auto-vacuum, converted by one full VACUUM when what it holds is
 * small enough to rewrite at start-up (before the daemon is ready, nothing sells) and the disk has
 * room for the copy. Returns whether it was converted; a larger one keeps its mode (health says so).
 */
export function convertToIncremental(
  db: Db,
  o: { maxLiveBytes: number; freeBytes: number },
): { converted: boolean; liveBytes: number } {
  const liveBytes = (simple(db, 'page_count') - simple(db, 'freelist_count')) * simple(db, 'page_size');
  if (simple(db, 'auto_vacuum') === AUTO_VACUUM.incremental) return { converted: false, liveBytes };
  if (liveBytes > o.maxLiveBytes || o.freeBytes < 2 * liveBytes) return { converted: false, liveBytes };
  db.pragma(`auto_vacuum = ${AUTO_VACUUM.incremental}`);
  db.exec('VACUUM');
  return { converted: simple(db, 'auto_vacuum') === AUTO_VACUUM.incremental, liveBytes };
}

/** The database's pages and files, for health, /metrics and the fleet. */
export interface StoreSpace {
  autoVacuum: 'none' | 'full' | 'incremental';
  pageSize: number;
  pages: number;
  freePages: number;
  /** Bytes of `omnipos.db`, its `-wal` and `-shm` on disk. */
  dbBytes: number;
  walBytes: number;
}

function size(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export function storeSpace(db: Db, file: string): StoreSpace {
  const mode = simple(db, 'auto_vacuum');
  return {
    autoVacuum: mode === AUTO_VACUUM.incremental ? 'incremental' : mode === AUTO_VACUUM.full ? 'full' : 'none',
    pageSize: simple(db, 'page_size'),
    pages: simple(db, 'page_count'),
    freePages: simple(db, 'freelist_count'),
    dbBytes: size(file),
    walBytes: size(`${file}-wal`),
  };
}

/**
 * One small step of giving space back, for outside sales: up to `maxPages` free pages returned to
 * the file system (incremental mode only), then a PASSIVE checkpoint (copies the WAL into the file
 * as far as no reader needs it; never waits). Returns the pages given back and whether free pages remain.
 */
export function giveBackSpace(db: Db, maxPages = VACUUM_STEP_PAGES): { freed: number; more: boolean } {
  if (db.inTransaction) return { freed: 0, more: true };
  let freed = 0;
  if (simple(db, 'auto_vacuum') === AUTO_VACUUM.incremental) {
    const before = simple(db, 'freelist_count');
    if (before > 0) {
      db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(maxPages))})`);
      freed = before - simple(db, 'freelist_count');
    }
  }
  db.pragma('wal_checkpoint(PASSIVE)');
  return { freed, more: simple(db, 'auto_vacuum') === AUTO_VACUUM.incremental && simple(db, 'freelist_count') > 0 };
}
