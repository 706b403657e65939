import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from './sqlite.js';
import { OmniposError } from '../core/index.js';

/** The lock a daemon holds on its state directory for as long as it runs. */
export interface StateLock {
  readonly file: string;
  release(): void;
}

const LOCK_FILE = 'daemon.lock';
const PID_FILE = 'daemon.pid';

/**
 * Takes the state directory for this daemon, or refuses at once when another process holds it.
 *
 * The lock is SQLite's own exclusive lock on `daemon.lock` (a POSIX record lock the kernel drops
 * when the holder dies, so a crash or SIGKILL never leaves a stale lock and no PID is guessed).
 * `daemon.pid` beside it only names the holder in the refusal. Readers of the database
 * (`omnipos queue list`, `omnipos diag`) do not take this lock.
 */
export function lockStateDir(stateDir: string, pid = process.pid): StateLock {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const file = path.join(stateDir, LOCK_FILE);
  const pidFile = path.join(stateDir, PID_FILE);
  let db: Database.Database;
  try {
    db = new Database(file, { timeout: 0 });
  } catch (e) {
    throw new OmniposError(
      'STORE_OPEN_FAILED',
      `cannot open the lock file ${file}: ${(e as Error).message}`,
      { file },
      { cause: e },
    );
  }
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    // A write transaction in exclusive locking mode keeps the file's exclusive lock until close.
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS holder (pid INTEGER); COMMIT');
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY') {
      let holder = '';
      try {
        holder = readFileSync(pidFile, 'utf8').trim();
      } catch {
        // no pid written (yet): the refusal still stands
      }
      throw new OmniposError(
        'STATE_DIR_LOCKED',
        `another omnipos daemon${holder ? ` (pid ${holder})` : ''} holds the state directory ${stateDir} (${file}); stop it first`,
        { stateDir, file, ...(holder ? { pid: Number(holder) } : {}) },
      );
    }
    throw new OmniposError('STORE_OPEN_FAILED', `cannot lock ${file}: ${(e as Error).message}`, { file }, { cause: e });
  }
  writeFileSync(pidFile, `${pid}\n`, { mode: 0o600 });
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      rmSync(pidFile, { force: true });
      db.close();
    },
  };
}
