import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from './sqlite.js';
import { OmniposError } from '../core/index.js';
import { Outbox, type OutboxTask } from './outbox.js';

/** What could be read of a damaged database's outbox. */
export interface Salvage {
  /** The file read (the kept copy: it is never opened for writing). */
  file: string;
  /** Undelivered tasks and dead letters, as far as SQLite could read them. */
  tasks: OutboxTask[];
  /** What could not be read (a row id and the error, or the whole table). */
  unreadable: string[];
}

/** Consecutive missing row ids after which a row-by-row scan stops (ids are dense: INTEGER PRIMARY KEY). */
const GAP = 1000;

/**
 * Reads the undelivered outbox of a damaged database, where SQLite can: the file and its WAL are
 * copied to a temporary folder and read there (the kept files stay as they were found); the table
 * is read whole, or, when that fails, row by row by id so one bad page loses only its rows.
 */
export function salvageOutbox(file: string): Salvage {
  if (!existsSync(file)) throw new OmniposError('STORE_OPEN_FAILED', `no database at ${file}`, { file });
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-salvage-'));
  const copy = path.join(dir, 'omnipos.db');
  const unreadable: string[] = [];
  try {
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    let db: Database.Database;
    try {
      db = new Database(copy, { fileMustExist: true });
    } catch (e) {
      throw new OmniposError(
        'STORE_DAMAGED',
        `${file} cannot be opened even to read: ${(e as Error).message}`,
        { file },
        { cause: e },
      );
    }
    try {
      const outbox = new Outbox(db);
      try {
        return { file, tasks: outbox.open(), unreadable };
      } catch (e) {
        unreadable.push(`the outbox as a whole: ${(e as Error).message}`);
      }
      const tasks: OutboxTask[] = [];
      let max: number | undefined;
      try {
        max = (db.prepare('SELECT max(id) AS m FROM outbox').get() as { m: number | null }).m ?? 0;
      } catch {
        max = undefined;
      }
      for (let id = 1, gap = 0; max !== undefined ? id <= max : gap < GAP; id++) {
        try {
          const task = outbox.get(id);
          if (task && task.doneAt === null) tasks.push(task);
          gap = task ? 0 : gap + 1;
        } catch (e) {
          // An unreadable id counts toward the gap too: a damaged root page must not scan forever.
          if (unreadable.length < 100) unreadable.push(`outbox row ${id}: ${(e as Error).message}`);
          else if (unreadable.length === 100) unreadable.push('… more unreadable rows not listed');
          gap += 1;
        }
      }
      return { file, tasks, unreadable };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
