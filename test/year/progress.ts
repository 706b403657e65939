// The year run's progress (issue 35), so a run stopped (SIGTERM, SIGINT, SIGKILL, a power cut) resumes
// at its next day: one JSON file in the run's directory, written whole after each day is closed and
// retention has caught up (a temporary file, fsynced, renamed over the old one), and the identity of the
// daemon and pinpad it started, so a resume after a SIGKILL of the harness stops the ones left behind.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { businessDayBounds } from '../../src/operations/index.js';
import Database from '../../src/store/sqlite.js';
import type { MonthFigures } from './year-run.js';

export const PROGRESS_FILE = 'progress.json';
const CHILDREN_FILE = 'children.json';

export interface YearProgress {
  /** The index of the next day to run (0-based), and the business date it runs on. */
  nextDay: number;
  nextDate: string;
  /** The first business date of the run (the options' `first`), kept so a resume cannot move it. */
  first: string;
  sales: number;
  kills: number;
  /** Resumes: each one a restart of the daemon and the pinpad, the host reopened on its file. */
  restarts: number;
  /** Bytes the daemons wrote so far (/proc/PID/io), up to this file's writing. */
  written: number;
  months: MonthFigures[];
  /** What `movingPruned` found, each month. */
  pruned: string[];
  /** The dates of the days a stop left half done, closed at the resume (their index run again on the next date). */
  replayed: string[];
}

/** `date` (YYYY-MM-DD) moved by `days`. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Writes `text` to `file` whole or not at all: a temporary file, fsynced, renamed, the directory fsynced. */
function writeWhole(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  const dir = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

export function writeProgress(dir: string, p: YearProgress): void {
  writeWhole(path.join(dir, PROGRESS_FILE), `${JSON.stringify(p, null, 1)}\n`);
}

/** The progress of an earlier run in `dir`, or undefined (a new run). */
export function readProgress(dir: string): YearProgress | undefined {
  const file = path.join(dir, PROGRESS_FILE);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as YearProgress;
}

/** A process, named by its id and its start time (/proc/PID/stat field 22), so a reused id is never taken for it. */
interface ProcessIdentity {
  pid: number;
  start: string;
}

function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's name (which may hold spaces) in parentheses: state is field 3, starttime 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Records the daemon and pinpad this harness runs (written whole at each start). */
export function recordChildren(dir: string, pids: readonly (number | undefined)[]): void {
  const known: ProcessIdentity[] = [];
  for (const pid of pids) {
    const start = pid === undefined ? undefined : startTime(pid);
    if (pid !== undefined && start !== undefined) known.push({ pid, start });
  }
  writeWhole(path.join(dir, CHILDREN_FILE), JSON.stringify(known));
}

/**
 * SIGKILLs the daemon and pinpad an earlier harness left running (it was SIGKILLed itself), each only if
 * the process with that id is still the one it started; how many.
 */
export function killLeftBehind(dir: string): number {
  const file = path.join(dir, CHILDREN_FILE);
  if (!existsSync(file)) return 0;
  let n = 0;
  for (const c of JSON.parse(readFileSync(file, 'utf8')) as ProcessIdentity[]) {
    if (startTime(c.pid) !== c.start) continue;
    try {
      process.kill(c.pid, 'SIGKILL');
      n++;
    } catch {
      /* gone meanwhile */
    }
  }
  return n;
}

/** The terminal's journal rows created on business day `date`, and how many of them are payments (not voids). */
export function journaledOn(dbFile: string, date: string): { rows: number; payments: number } {
  if (!existsSync(dbFile)) return { rows: 0, payments: 0 };
  const { from, to } = businessDayBounds(date);
  const db = new Database(dbFile, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT count(*) AS rows, coalesce(sum(kind <> 'void'), 0) AS payments FROM journal
           WHERE created_at >= ? AND created_at < ?`,
      )
      .get(from.toISOString(), to.toISOString()) as { rows: number; payments: number };
  } finally {
    db.close();
  }
}

/** SQLite's own check of a database file ("ok" when whole). */
export function quickCheck(dbFile: string): string {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check;
  } finally {
    db.close();
  }
}
