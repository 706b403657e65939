/**
 * npm run bench:check — runs the benches that have a goal (test/bench/goals.json), compares each
 * ratio with its goal and prints what slipped and by how much. Timings never fail a test: this is
 * not part of npm test; it is run before a stop that touches a measured path.
 *
 *   npm run bench:check [-- --rounds N] [--sales N] [--record] [--docs]
 *
 * --rounds: the vitest benches run N times in turn (default 3); a ratio is the median of the
 *   rounds' ratios of median times per call, ours and the peer measured in the same round.
 * --sales: the sales of the sale rows (default 2000; test/bench/sale-steps.ts), run once with the
 *   database on tmpfs (the CPU) and once on the disk (wall, commits and the disk's fsync).
 * --record: the rows that met their goal get today's date and figure in goals.json.
 * --docs: the table is written into docs/operations.md between its bench:check markers.
 * Exit status 1 when a row slipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeDocsTable } from './check-docs.js';

interface RatioGoal {
  id: string;
  what: string;
  file: string;
  group: string;
  ours: string;
  peer: string;
  atLeast: number;
  lastMet: { date: string; figure: number };
}
/**
 * A goal of the whole sale (test/bench/sale-steps.ts, devices and host answering at once), each
 * against its peer: `cpu`, the terminal's CPU per sale with the database on tmpfs (the disk out),
 * at most `atMost` ms; `commits`, the durable commits per sale over the minimum the journal's
 * durability needs (one per step that must survive a power cut), at most `atMost` (1: none above
 * it); `wall-over-disk`, the mean wall time on the disk less the minimum's commits at the disk's
 * own fsync time (a raw write + fsync in the same folder, in turns with the sales), at most `atMost` ms.
 */
interface SaleGoal {
  id: string;
  what: string;
  measure: 'cpu' | 'commits' | 'wall-over-disk';
  atMost: number;
  lastMet: { date: string; figure: number };
}
type Goal = RatioGoal | SaleGoal;

/** One row of the table: the figure measured and how it stands against the goal. */
export interface CheckRow {
  what: string;
  figure: string;
  goal: string;
  met: boolean;
  /** How far from the goal, as text ("" when met). */
  slip: string;
  lastMet: string;
}

interface VitestJson {
  files: { filepath: string; groups: { fullName: string; benchmarks: { name: string; median: number }[] }[] }[];
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const GOALS = path.join(import.meta.dirname, 'goals.json');

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    sales: { type: 'string', default: '2000' },
    record: { type: 'boolean' },
    docs: { type: 'boolean' },
  },
});

const goals = (JSON.parse(readFileSync(GOALS, 'utf8')) as { rows: Goal[] }).rows;
const isRatio = (g: Goal): g is RatioGoal => 'atLeast' in g;
const load = loadavg()[0]!;

/**
 * Each round runs every bench file once; the ratio per round is the peer's median time per call over
 * ours. The median, not the mean: on a shared machine a preempted call takes milliseconds where a
 * call takes microseconds, and a few of them move the mean of thousands (±40 % rme at load 17)
 * while the median stays.
 */
function measureRatios(rounds: number): Map<string, number[]> {
  const ratioGoals = goals.filter(isRatio);
  const files = [...new Set(ratioGoals.map((g) => g.file))];
  const ratios = new Map<string, number[]>();
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'omnipos-bench-check-')), 'bench.json');
  for (let r = 0; r < rounds; r++) {
    execFileSync('npx', ['vitest', 'bench', '--run', ...files, '--outputJson', out], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const json = JSON.parse(readFileSync(out, 'utf8')) as VitestJson;
    for (const g of ratioGoals) {
      const ours = medianOf(json, g, g.ours);
      const peer = medianOf(json, g, g.peer);
      ratios.set(g.id, [...(ratios.get(g.id) ?? []), peer / ours]);
    }
  }
  return ratios;
}

function medianOf(json: VitestJson, g: RatioGoal, name: string): number {
  for (const f of json.files) {
    if (path.resolve(ROOT, f.filepath) !== path.resolve(ROOT, g.file) && !f.filepath.endsWith(g.file)) continue;
    for (const group of f.groups) {
      if (!group.fullName.endsWith(g.group)) continue;
      const b = group.benchmarks.find((x) => x.name === name);
      if (b) return b.median;
    }
  }
  throw new Error(
    `bench:check: "${name}" not found in ${g.file} > ${g.group} (goals.json out of step with the bench?)`,
  );
}

interface SaleFigures {
  wallMeanMs: number;
  wallP99Ms: number;
  terminalOwnMs: number;
  cpuMs: number;
  commitsPerSale: number;
  minimumCommitsPerSale: number;
  commitMs: number;
  rawFsyncMeanMs: number;
}

/** The sale's figures with its database in `stateDir` (undefined: the system's temporary folder, on the disk). */
function measureSale(sales: number, stateDir?: string): SaleFigures {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'test/bench/sale-steps.ts', '--json', '--sales', String(sales)],
    {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...(stateDir ? { STATE_DIR: stateDir } : {}) },
    },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as SaleFigures;
}

/** The sale measured twice: on tmpfs (the CPU, the disk out) and on the disk (wall, commits, fsync). */
interface SaleRuns {
  tmpfs: SaleFigures;
  disk: SaleFigures;
}
const TMPFS = '/dev/shm';

const median = (a: readonly number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const today = new Date().toISOString().slice(0, 10);

function ratioRow(g: RatioGoal, ratios: readonly number[]): CheckRow {
  const r = median(ratios);
  const met = r >= g.atLeast;
  if (met && values.record) g.lastMet = { date: today, figure: Number(r.toFixed(2)) };
  return {
    what: `${g.what} vs ${g.peer.replace(/^peer: /, '')}`,
    figure: `${r.toFixed(2)}× (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')})`,
    goal: `≥ ${g.atLeast}×`,
    met,
    slip: met ? '' : `${(100 * (1 - r / g.atLeast)).toFixed(0)} % short (${r.toFixed(2)}× for ${g.atLeast}×)`,
    lastMet: `${g.lastMet.date}, ${g.lastMet.figure}×`,
  };
}

/** What a sale goal measures, in its unit, and how it is written. */
function saleFigure(g: SaleGoal, s: SaleRuns): { value: number; text: string; unit: string } {
  if (g.measure === 'cpu')
    return {
      value: s.tmpfs.cpuMs,
      text: `${s.tmpfs.cpuMs.toFixed(2)} ms (wall ${s.tmpfs.wallMeanMs.toFixed(2)})`,
      unit: 'ms',
    };
  if (g.measure === 'commits') {
    const over = s.disk.commitsPerSale / s.disk.minimumCommitsPerSale;
    const text = `${over.toFixed(2)} (${s.disk.commitsPerSale.toFixed(1)} commits for ${s.disk.minimumCommitsPerSale.toFixed(1)})`;
    return { value: over, text, unit: '×' };
  }
  const floor = s.disk.minimumCommitsPerSale * s.disk.rawFsyncMeanMs;
  const value = s.disk.wallMeanMs - floor;
  const text =
    `${value.toFixed(2)} ms (wall ${s.disk.wallMeanMs.toFixed(2)}, p99 ${s.disk.wallP99Ms.toFixed(1)}; ` +
    `${s.disk.minimumCommitsPerSale.toFixed(1)} × fsync ${s.disk.rawFsyncMeanMs.toFixed(3)})`;
  return { value, text, unit: 'ms' };
}

function saleRow(g: SaleGoal, s: SaleRuns): CheckRow {
  const { value, text, unit } = saleFigure(g, s);
  const met = value <= g.atMost;
  if (met && values.record) g.lastMet = { date: today, figure: Number(value.toFixed(2)) };
  const u = unit === 'ms' ? ' ms' : '×';
  return {
    what: g.what,
    figure: text,
    goal: `≤ ${g.atMost}${u}`,
    met,
    slip: met ? '' : `${(value - g.atMost).toFixed(2)}${u} over (+${(100 * (value / g.atMost - 1)).toFixed(0)} %)`,
    lastMet: `${g.lastMet.date}, ${g.lastMet.figure}${u}`,
  };
}

/** The table, as Markdown (the same text goes to the terminal and into docs/operations.md). */
export function table(rows: readonly CheckRow[]): string {
  const lines = ['| what | measured | goal | status | last met |', '|---|---|---|---|---|'];
  for (const r of rows)
    lines.push(`| ${r.what} | ${r.figure} | ${r.goal} | ${r.met ? 'met' : `**slipped**: ${r.slip}`} | ${r.lastMet} |`);
  return lines.join('\n');
}

const ratios = measureRatios(Number(values.rounds));
const sale: SaleRuns | undefined = goals.some((g) => !isRatio(g))
  ? {
      tmpfs: measureSale(Number(values.sales), existsSync(TMPFS) ? TMPFS : undefined),
      disk: measureSale(Number(values.sales)),
    }
  : undefined;
const rows = goals.map((g) => (isRatio(g) ? ratioRow(g, ratios.get(g.id)!) : saleRow(g, sale!)));
const loadAfter = loadavg()[0]!;
const conditions =
  `${today}, Node ${process.version}, load average ${load.toFixed(1)} → ${loadAfter.toFixed(1)}` +
  ` (1 min; ${values.rounds} rounds)` +
  (sale
    ? `. The sale on the disk: terminal's own time ${sale.disk.terminalOwnMs.toFixed(2)} ms` +
      ` (CPU ${sale.disk.cpuMs.toFixed(2)} ms), ${sale.disk.commitsPerSale.toFixed(1)} journal commits taking` +
      ` ${sale.disk.commitMs.toFixed(2)} ms; a raw write + fsync of 512 B took` +
      ` ${sale.disk.rawFsyncMeanMs.toFixed(3)} ms on the same disk`
    : '');
const text = table(rows);
console.log(`${text}\n\n${conditions}.`);

const slipped = rows.filter((r) => !r.met);
if (slipped.length > 0) {
  console.log(`\nSlipped (${slipped.length}):`);
  for (const r of slipped) console.log(`- ${r.what}: ${r.slip}`);
}
if (values.record) writeFileSync(GOALS, `${JSON.stringify({ ...readGoalsHeader(), rows: goals }, null, 2)}\n`);
if (values.docs) writeDocsTable(path.join(ROOT, 'docs/operations.md'), text, conditions);
process.exitCode = slipped.length > 0 ? 1 : 0;

function readGoalsHeader(): { $comment: string } {
  return { $comment: (JSON.parse(readFileSync(GOALS, 'utf8')) as { $comment: string }).$comment };
}
