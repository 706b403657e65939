// `npm run year`: a year of a busy counter on a moved clock (test/year/year-run.ts), by hand.
//   YEAR_DAYS=365 YEAR_SALES=300 YEAR_KILL_EVERY=7 YEAR_DATABASE_DAYS=90 YEAR_MONTH_DAYS=30 npm run year
// Prints one line per simulated month (database, WAL, archive and log sizes, RSS, bytes written),
// then the reconciliation against the sandbox's ledger; exits 1 on any problem.
// YEAR_DIR=<dir> keeps the run in a directory of its own (kept at the end): started again with the same
// YEAR_DIR, it resumes at the day after the last one closed. SIGTERM or SIGINT stops it between two sales
// (its daemon and pinpad stopped, the progress file as of the last day closed); a second signal kills at once.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { killChildren } from '../chaos/children.js';
import { runYear } from './year-run.js';

const dir = process.env.YEAR_DIR
  ? path.resolve(process.env.YEAR_DIR)
  : mkdtempSync(path.join(tmpdir(), 'omnipos-year-'));
mkdirSync(dir, { recursive: true });
const stop = new AbortController();
let signalled: number | undefined;
for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const)
  process.on(signal, () => {
    if (signalled !== undefined) {
      killChildren();
      process.exit(code);
    }
    signalled = code;
    console.log(JSON.stringify({ stopping: signal }));
    stop.abort();
  });
const started = Date.now();
const result = await runYear({
  dir,
  days: Number(process.env.YEAR_DAYS ?? 365),
  salesPerDay: Number(process.env.YEAR_SALES ?? 300),
  killEvery: Number(process.env.YEAR_KILL_EVERY ?? 7),
  databaseDays: Number(process.env.YEAR_DATABASE_DAYS ?? 90),
  monthDays: Number(process.env.YEAR_MONTH_DAYS ?? 30),
  onMonth: (m) => console.log(JSON.stringify({ ...m, seconds: Math.round((Date.now() - started) / 1000) })),
  onNote: (n) => console.log(JSON.stringify(n)),
  signal: stop.signal,
});
console.log(
  JSON.stringify({
    ...(result.stopped ? { stopped: true, resume: `YEAR_DIR=${dir} npm run year (same YEAR_* settings)` } : {}),
    firstDay: result.firstDay,
    sales: result.sales,
    kills: result.kills,
    restarts: result.restarts,
    replayed: result.replayed,
    archivedDays: result.archivedDays,
    problems: result.problems,
    figures: result.figures,
    seconds: Math.round((Date.now() - started) / 1000),
  }),
);
if (process.env.YEAR_DIR === undefined && process.env.YEAR_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
process.exit(signalled ?? (result.problems.length === 0 ? 0 : 1));
