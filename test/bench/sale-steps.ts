/**
 * The whole sale with devices and host answering at once, step by step (issue 37): the terminal's
 * own time per sale (wall time minus the time inside the devices and the host), each step's share
 * of it, the journal's commits (count and time: an fsync each, synchronous=FULL) beside the minimum
 * the journal's durability needs (one per step that must survive a power cut), the CPU, and a
 * raw write + fsync of 512 bytes in the same folder taken in turns with the sales (the floor any
 * durable commit pays on this disk; its figure says how busy the disk was).
 *
 *   node --import tsx test/bench/sale-steps.ts [--sales N] [--json]
 *
 * STATE_DIR=<folder> puts the database there (default: the system's temporary folder).
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { onWriteFailure, type Db } from '../../src/store/index.js';
import { instantTerminal, type PortName } from '../helpers/instant-terminal.js';

/** The steps of a sale, each named for what it holds; it ends where the next device or host call starts. */
const STEPS = [
  ['start', 'order id, journal opened (started)'],
  ['card', 'card read → authorizing'],
  ['host', 'host approved → finishing chip'],
  ['chip', 'chip approved → printing'],
  ['printer', 'receipt printed → confirming + outbox request; the forwarder picks it up'],
  ['delivery', 'confirmation delivered → confirmed'],
] as const;
type Step = (typeof STEPS)[number][0];
/** The step that begins when a port answers. */
const AFTER: Record<PortName, Step> = {
  card: 'card',
  host: 'host',
  chip: 'chip',
  printer: 'printer',
  delivery: 'delivery',
};

const { values } = parseArgs({ options: { sales: { type: 'string', default: '2000' }, json: { type: 'boolean' } } });
const sales = Number(values.sales);
const dir = mkdtempSync(path.join(process.env.STATE_DIR ?? tmpdir(), 'omnipos-sale-steps-'));

let step: Step = 'start';
let since = 0;
let portSince = 0;
const stepMs = new Map<Step, number>();
const commitMs = new Map<Step, number>();
const commits = new Map<Step, number>();
let portMs = 0;
const add = (m: Map<Step, number>, k: Step, v: number): void => void m.set(k, (m.get(k) ?? 0) + v);
const now = (): number => performance.now();

function enter(next: Step): void {
  const t = now();
  add(stepMs, step, t - since);
  step = next;
  since = t;
}

const terminal = await instantTerminal(dir, (port, moment) => {
  if (moment === 'call') {
    enter(step); // the step so far ends at the call
    portSince = now();
  } else {
    portMs += now() - portSince;
    since = now();
    step = AFTER[port];
  }
});
timeCommits(terminal.db);

/**
 * Counts every commit against the current step (each outermost transaction and each statement that
 * writes outside one: the store's own commit listener) and times each outermost transaction
 * (BEGIN IMMEDIATE … COMMIT, the fsync with it).
 */
function timeCommits(db: Db): void {
  // A transaction that wrote nothing (the order id's wait when ids are asked faster than ten a
  // second) syncs nothing: only a commit that changed rows counts.
  const changes = db.prepare('SELECT total_changes() AS n');
  let last = (changes.get() as { n: number }).n;
  onWriteFailure(
    db,
    () => undefined,
    () => {
      const n = (changes.get() as { n: number }).n;
      if (n !== last) add(commits, step, 1);
      last = n;
    },
  );
  const make = db.transaction.bind(db);
  db.transaction = ((fn: (...a: never[]) => unknown) => {
    const tx = make(fn);
    const timed =
      (run: (...a: never[]) => unknown) =>
      (...args: never[]): unknown => {
        if (db.inTransaction) return run(...args);
        const t = now();
        try {
          return run(...args);
        } finally {
          add(commitMs, step, now() - t);
        }
      };
    return Object.assign(timed(tx), {
      deferred: timed(tx.deferred),
      immediate: timed(tx.immediate),
      exclusive: timed(tx.exclusive),
    });
  }) as Db['transaction'];
}

const fd = openSync(path.join(dir, 'raw.bin'), 'a');
const record = Buffer.alloc(512, 1);
function rawFsync(): number {
  const t = now();
  writeSync(fd, record);
  fsyncSync(fd);
  return now() - t;
}

const reset = (): void => {
  for (const m of [stepMs, commitMs, commits]) m.clear();
  portMs = 0;
};
for (let i = 0; i < Math.min(200, sales); i++) await oneSale();
reset();

const count = (sql: string): number => (terminal.db.prepare(sql).get() as { n: number }).n;
const MINIMUM_SQL = {
  // Each transition is one commit (the row's opening carries its first), each order id one (its
  // counter, committed before the id leaves). An outbox task rides transitions: recorded with the
  // one that announces it, settled with the one its outcome causes (one transaction, the forwarder's).
  transitions: 'SELECT count(*) AS n FROM journal_transitions',
  orderIds: 'SELECT count(*) AS n FROM journal',
};
const durableSteps = (): number => Object.values(MINIMUM_SQL).reduce((s, sql) => s + count(sql), 0);
const stepsBefore = durableSteps();
const walls: number[] = [];
const fsyncs: number[] = [];
const cpu0 = process.cpuUsage();
for (let i = 0; i < sales; i++) {
  walls.push(await oneSale());
  fsyncs.push(rawFsync());
}
const cpu = process.cpuUsage(cpu0);
const minimumCommits = (durableSteps() - stepsBefore) / sales;
closeSync(fd);

async function oneSale(): Promise<number> {
  const t = now();
  step = 'start';
  since = t;
  await terminal.sale();
  enter('start');
  return now() - t;
}

const mean = (a: readonly number[]): number => a.reduce((s, x) => s + x, 0) / a.length;
const pct = (a: readonly number[], p: number): number => [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]!;
const wall = mean(walls);
const devices = portMs / sales;
const own = wall - devices;
const totalCommits = [...commits.values()].reduce((s, x) => s + x, 0) / sales;
const totalCommitMs = [...commitMs.values()].reduce((s, x) => s + x, 0) / sales;
const result = {
  sales,
  wallMeanMs: wall,
  wallP99Ms: pct(walls, 0.99),
  devicesAndHostMs: devices,
  terminalOwnMs: own,
  cpuMs: (cpu.user + cpu.system) / 1000 / sales,
  commitsPerSale: totalCommits,
  minimumCommitsPerSale: minimumCommits,
  commitMs: totalCommitMs,
  rawFsyncMeanMs: mean(fsyncs),
  steps: STEPS.map(([name, what]) => ({
    name,
    what,
    ms: (stepMs.get(name) ?? 0) / sales,
    commits: (commits.get(name) ?? 0) / sales,
    commitMs: (commitMs.get(name) ?? 0) / sales,
  })),
};

if (values.json) console.log(JSON.stringify(result));
else {
  const f = (x: number): string => x.toFixed(3).padStart(7);
  console.log(`${sales} sales, devices and host answering at once; state in ${path.dirname(dir)}`);
  console.log(`wall per sale           mean ${f(wall)} ms   p99 ${f(result.wallP99Ms)} ms`);
  console.log(`devices and host        ${f(devices)} ms`);
  console.log(`terminal's own time     ${f(own)} ms   (CPU ${f(result.cpuMs)} ms)`);
  console.log(
    `journal commits         ${totalCommits.toFixed(1)} per sale, ${f(totalCommitMs)} ms` +
      ` (the minimum: ${minimumCommits.toFixed(1)}, one per step that must survive a power cut)`,
  );
  console.log(
    `raw write+fsync 512 B   ${f(result.rawFsyncMeanMs)} ms mean (the disk's floor, in turns with the sales)`,
  );
  console.log('step                       ms    share  commits  commit ms');
  for (const s of result.steps) {
    const share = ((100 * s.ms) / own).toFixed(1).padStart(5);
    console.log(
      `  ${s.name.padEnd(10)} ${f(s.ms)}  ${share} %  ${s.commits.toFixed(1).padStart(5)}  ${f(s.commitMs)}   ${s.what}`,
    );
  }
}
