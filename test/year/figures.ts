// The year run's figures (issue 35): a month's sizes and the daemon's RSS and bytes written, and the
// final reconciliation of every sale, the archived ones put back, against the sandbox's ledger.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { readArchivedDay } from '../../src/operations/index.js';
import type { LedgerReport } from '../../src/sandbox/index.js';
import Database from '../../src/store/sqlite.js';
import { listDayFiles } from '../../src/store/index.js';
import { reconcile } from '../chaos/reconcile.js';

export interface MonthFigures {
  month: number;
  day: number;
  sales: number;
  dbMiB: number;
  walMiB: number;
  archiveMiB: number;
  logMiB: number;
  rssMiB: number;
  writtenMiB: number;
  journalRows: number;
  archivedDays: number;
}

const mib = (n: number): number => Math.round((n / 1024 / 1024) * 100) / 100;
const size = (f: string): number => (existsSync(f) ? statSync(f).size : 0);

/** The process's RSS and bytes written so far (/proc), 0 when gone. */
export function procFigures(pid: number | undefined): { rss: number; written: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return {
      rss: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024,
      written: Number(/write_bytes: (\d+)/.exec(io)?.[1] ?? 0),
    };
  } catch {
    return { rss: 0, written: 0 };
  }
}

/** The month's line: sizes of the terminal's state directory `stateDir`, the daemon `pid`'s figures. */
export function monthFigures(
  stateDir: string,
  pid: number | undefined,
  at: { month: number; day: number; sales: number; writtenBefore: number },
): MonthFigures {
  const db = path.join(stateDir, 'omnipos.db');
  const proc = procFigures(pid);
  const rows = new Database(db, { readonly: true });
  const n = (rows.prepare('SELECT count(*) AS n FROM journal').get() as { n: number }).n;
  rows.close();
  const logs = path.join(stateDir, 'logs');
  const archive = listDayFiles(path.join(stateDir, 'archive'));
  return {
    month: at.month,
    day: at.day,
    sales: at.sales,
    dbMiB: mib(size(db)),
    walMiB: mib(size(`${db}-wal`)),
    archiveMiB: mib(archive.reduce((a, f) => a + f.bytes, 0)),
    logMiB: mib(
      ['omnipos.log', 'omnipos.log.1', 'omnipos.log.2', 'omnipos.log.3'].reduce(
        (a, f) => a + size(path.join(logs, f)),
        0,
      ),
    ),
    rssMiB: mib(proc.rss),
    writtenMiB: mib(at.writtenBefore + proc.written),
    journalRows: n,
    archivedDays: archive.length,
  };
}

/**
 * The journal as it was, archived days put back (a copy of the database in `<dir>/merged` with every
 * archived row), reconciled against the host's ledger (test/chaos/reconcile.ts).
 */
export function reconcileYear(
  dir: string,
  stateDir: string,
  ledger: LedgerReport,
): { problems: string[]; figures: Record<string, unknown>; archivedDays: number } {
  const db = path.join(stateDir, 'omnipos.db');
  const merged = path.join(dir, 'merged');
  // A run ended twice (resumed after its end) leaves no older copy, nor its WAL, behind.
  rmSync(merged, { recursive: true, force: true });
  mkdirSync(merged, { recursive: true });
  copyFileSync(db, path.join(merged, 'omnipos.db'));
  if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, path.join(merged, 'omnipos.db-wal'));
  const m = new Database(path.join(merged, 'omnipos.db'));
  const put = m.prepare(
    'INSERT INTO journal (id, kind, merchant_order_id, state, amount, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const archiveDir = path.join(stateDir, 'archive');
  const archived = listDayFiles(archiveDir);
  for (const f of archived)
    for (const p of readArchivedDay(archiveDir, f.date)?.payments ?? [])
      put.run(
        p.entry.id,
        p.entry.kind,
        p.entry.merchantOrderId,
        p.entry.state,
        p.entry.amount,
        JSON.stringify(p.entry.data),
        p.entry.createdAt,
        p.entry.updatedAt,
      );
  m.close();
  const report = reconcile({ terminals: [{ name: 'year', stateDir: merged, alarms: [] }], ledger });
  return { ...report, archivedDays: archived.length };
}
