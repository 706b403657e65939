// `npm run year`: a year of a busy counter on a moved clock (test/year/year-run.ts), by hand.
//   YEAR_DAYS=365 YEAR_SALES=300 YEAR_KILL_EVERY=7 YEAR_DATABASE_DAYS=90 YEAR_MONTH_DAYS=30 npm run year
// Prints one line per simulated month (database, WAL, archive and log sizes, RSS, bytes written),
// then the reconciliation against the sandbox's ledger; exits 1 on any problem.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runYear } from './year-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-year-'));
const started = Date.now();
const result = await runYear({
  dir,
  days: Number(process.env.YEAR_DAYS ?? 365),
  salesPerDay: Number(process.env.YEAR_SALES ?? 300),
  killEvery: Number(process.env.YEAR_KILL_EVERY ?? 7),
  databaseDays: Number(process.env.YEAR_DATABASE_DAYS ?? 90),
  monthDays: Number(process.env.YEAR_MONTH_DAYS ?? 30),
  onMonth: (m) => console.log(JSON.stringify(m)),
});
console.log(
  JSON.stringify({
    sales: result.sales,
    kills: result.kills,
    archivedDays: result.archivedDays,
    problems: result.problems,
    figures: result.figures,
    seconds: Math.round((Date.now() - started) / 1000),
  }),
);
if (process.env.YEAR_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
process.exit(result.problems.length === 0 ? 0 : 1);
