// The soak (issue 23): N card sales through the daemon's API (embedded sandbox host, virtual
// pinpad and printer, real loopback HTTP and SQLite files), sampling RSS, heap, external memory
// and open file descriptors, to see memory and descriptors flat after warm-up.
//
//   npm run soak                       100,000 sales (by hand; the rate is printed at the end)
//   SOAK_SALES=300 npm run soak        a short one
//   SOAK_SECONDS=120 npm run soak      stop after that long, whatever SOAK_SALES says (Ctrl-C too: the summary still prints)
//   SOAK_EVERY=50                      a sample every 50 sales (default: SOAK_SALES / 20)
//   SOAK_WARMUP=1000                   the summary's warm-up, in sales (default: SOAK_SALES / 10)
//   SOAK_SNAPSHOT_AT=100,400           V8 heap snapshots after those sales (test/soak/heap-diff.ts compares two)
//   SOAK_OUT=file.jsonl                the samples also written there, one JSON line each
//   SOAK_SHRINK=1                      also SQLite's page caches given back at each sample (what they held)
//   MALLOC_ARENA_MAX=8 npm run soak    glibc's arenas as without the systemd unit (the script's default is 2, the unit's)
//   SOAK_CUSTOMER_MS=20                the virtual customer's pause before each card and PIN (default 0)
//   SOAK_CARDS=0,1,4                   the approving sandbox cards, by last digit, presented in turn (default 0,1,4)
//   SOAK_HOST_CLOCK=real               the host's clock left alone (at most 10 sales a second, see below)
//   TMPDIR=/dev/shm npm run soak       the state directory on tmpfs (no fsync wait; the same memory)
// Each sample: RSS and its anonymous part (/proc/self/smaps_rollup), the main malloc heap and the
// per-thread arenas (/proc/self/smaps), glibc's bytes in use and free (mallinfo2), statements
// compiled, V8 heap, external and array buffers, open descriptors, and the WAL files' sizes.
// At the end: the rate, the time a sale took (creation, to its final status, to the terminal
// idle; CPU per sale), and the summary for the closing note (test/soak/summary.ts).
// The cards take turns: a chip card's transaction counter (9F36) is two bytes, so one card lives
// 65,535 transactions (the first 100,000-sale run on one card found the virtual card wrapping it).
// What the first soaks found (issue 23): RSS grew with SQLite's page cache, 16 MiB per connection
// in better-sqlite3's build, filled as the files grew (now 2 MiB, src/store/open.ts), and with
// glibc's per-thread arenas (MALLOC_ARENA_MAX=2 in the unit); malloc bytes in use, once the page
// caches are given back (SOAK_SHRINK=1), stay flat.
// Speed: a terminal issues at most one MerchantOrderId per tenth of a second of host time
// (src/store/order-ids.ts: never ahead of the clock), which held the first soaks to 10 sales/s.
// By default (SOAK_HOST_CLOCK=ahead) the daemon and the embedded host run on the soak's clock,
// moved forward before a sale that would start in the tenth of a second the previous one ended
// in: each sale takes at least 0.1 s of host time, so 100,000 sales pass 2.8 h of host time
// whatever the real rate (SOAK_CLOCK_START=2026-11-27T02:59:00Z starts that clock elsewhere, e.g.
// just before the host's midnight and daily close). The virtual pinpad keeps its configured timing
// profile (`fast`); only the scripted customer's pause is taken out (SOAK_CUSTOMER_MS).
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { request } from 'undici';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { startDaemon } from '../../src/main.js';
import { cardSim } from '../../src/sim/pinpad/index.js';
import { arenas, fileMiB, mallinfo2, mib, rollup, threadCpuMs } from './probes.js';
import { formatSummary, summarize, type Sample } from './summary.js';

const SALES = Number(process.env.SOAK_SALES ?? 100_000);
const SECONDS = process.env.SOAK_SECONDS ? Number(process.env.SOAK_SECONDS) : Infinity;
const EVERY = Number(process.env.SOAK_EVERY ?? Math.max(1, Math.floor(SALES / 20)));
const WARMUP = Number(process.env.SOAK_WARMUP ?? Math.floor(SALES / 10));
const CUSTOMER_MS = Number(process.env.SOAK_CUSTOMER_MS ?? 0);
const HOST_CLOCK = process.env.SOAK_HOST_CLOCK ?? 'ahead';
if (HOST_CLOCK !== 'ahead' && HOST_CLOCK !== 'real') throw new Error('SOAK_HOST_CLOCK: ahead or real');
if (HOST_CLOCK === 'real' && process.env.SOAK_CLOCK_START)
  throw new Error('SOAK_CLOCK_START needs SOAK_HOST_CLOCK=ahead');
const gc = (globalThis as { gc?: () => void }).gc;
const SNAPSHOT_AT = new Set((process.env.SOAK_SNAPSHOT_AT ?? '').split(',').filter(Boolean).map(Number));

const stateDir = mkdtempSync(path.join(tmpdir(), 'omnipos-soak-'));
const config = loadConfig({ env: { OMNIPOS_STATE_DIR: stateDir } });
/** Who waits for which payment to end (its status neither pending nor approved). */
const ended = new Map<number, () => void>();

/**
 * The soak's clock: real time plus `skewMs`, which the soak moves forward so that each sale starts
 * in a later tenth of a second than the one before it ended (a terminal issues one MerchantOrderId
 * per tenth of a second, src/store/order-ids.ts). The daemon and the embedded host both run on it
 * (the host's clock set through its own control, within 0.5 s; the daemon follows the host's Date
 * headers past 2 s, src/core/host-clock.ts, so the two never part). SOAK_CLOCK_START moves it to
 * a chosen instant first (a run across the host's midnight and daily close).
 */
let skewMs = process.env.SOAK_CLOCK_START ? Date.parse(process.env.SOAK_CLOCK_START) - Date.now() : 0;
if (!Number.isFinite(skewMs)) throw new Error('SOAK_CLOCK_START: an ISO date and time');
const soakClock = { now: (): Date => new Date(Date.now() + skewMs) };
const daemon = await startDaemon({
  config,
  log: createLogger({ level: 'silent' }),
  env: {},
  sandboxPort: 0,
  apiPort: 0,
  ...(HOST_CLOCK === 'ahead' ? { clock: soakClock } : {}),
  // What GET /v1/events streams, heard in-process: the soak learns a payment ended without polling.
  onEvent: (e) => {
    if (e.type === 'state' && 'status' in e && !['pending', 'approved'].includes(String(e.status))) ended.get(e.id)?.();
  },
});
const token = readFileSync(daemon.apiTokenFile, 'utf8').trim();
// The scripted customer presents the card and types the PIN without a pause (the deck's default is
// 20 ms each, three per chip sale); the pinpad's own processing times are its timing profile's.
if (daemon.virtualPinpad) cardSim(daemon.virtualPinpad.engine.state).deck.delayMs = CUSTOMER_MS;
const CARDS = (process.env.SOAK_CARDS ?? '0,1,4').split(',').map(Number);
if (CARDS.some((d) => !Number.isInteger(d) || d < 0 || d > 9)) throw new Error('SOAK_CARDS: last digits, e.g. 0,1,4');
/** The next card of the turn presented on the virtual pinpad. */
function presentCard(n: number): void {
  if (!daemon.virtualPinpad) return;
  const sel = cardSim(daemon.virtualPinpad.engine.state).deck.choose({ lastDigit: CARDS[n % CARDS.length]! });
  if (!sel.ok) throw new Error(`SOAK_CARDS: ${sel.error}`);
}

/**
 * SQLite's page caches given back (PRAGMA shrink_memory on both connections): the malloc bytes in
 * use after it, so what the page caches held is the difference from inUseMiB. Only with SOAK_SHRINK=1.
 */
function shrunk(): { inUseAfterShrinkMiB?: number } {
  if (process.env.SOAK_SHRINK !== '1') return {};
  daemon.db.pragma('shrink_memory');
  daemon.sandbox?.sandbox.ctx.db.pragma('shrink_memory');
  return { inUseAfterShrinkMiB: mallinfo2().inUseMiB };
}

/** How many statements each database compiles (db.prepare), counted from here on. */
const prepares = { terminal: 0, sandbox: 0 };
for (const [which, db] of [
  ['terminal', daemon.db],
  ['sandbox', daemon.sandbox?.sandbox.ctx.db],
] as const) {
  if (!db) continue;
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string) => {
    prepares[which]++;
    return prepare(sql);
  };
}

async function call(method: 'GET' | 'POST', p: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await request(`${daemon.apiUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const hostClock = HOST_CLOCK === 'ahead' ? daemon.sandbox?.sandbox.ctx.clock : undefined;
let hostSets = 0;
/** The virtual time the last sale ended at (ms). */
let lastEnd = -Infinity;
function moveClock(): void {
  if (!hostClock) return;
  const now = soakClock.now().getTime();
  const next = (Math.floor(lastEnd / 100) + 1) * 100;
  if (now < next) skewMs += next - now;
  if (Math.abs(hostClock.now().getTime() - soakClock.now().getTime()) > 500) {
    hostClock.set(soakClock.now());
    hostSets++;
  }
}

/** Where a sale's time goes, summed over the sales (ms), and the API calls the soak made besides the POST. */
const spent = { create: 0, toFinal: 0, toIdle: 0, gets: 0, sales: 0 };

/**
 * One card sale as a cash register makes it: POST, wait for the event that says it ended, read it
 * once (GET), then wait until the terminal is free for the next one (GET /v1/health's busy).
 */
async function sale(): Promise<string> {
  const t0 = performance.now();
  let done!: () => void;
  const end = new Promise<void>((r) => (done = r));
  const created = await call('POST', '/v1/payments', { amount: 2510, method: 'credit', confirmation: 'auto' });
  const t1 = performance.now();
  const id = created.id as number | undefined;
  if (id === undefined) throw new Error(`refused: ${JSON.stringify(created)}`);
  ended.set(id, done);
  let status = created.status as string;
  for (;;) {
    if (!['pending', 'approved'].includes(status)) break;
    // the event, or a look every second (an event missed between the POST's answer and the set above)
    await Promise.race([end, new Promise((r) => setTimeout(r, 1000))]);
    spent.gets++;
    status = (await call('GET', `/v1/payments/${id}`)).status as string;
  }
  ended.delete(id);
  const t2 = performance.now();
  for (;;) {
    spent.gets++;
    if (!(await call('GET', '/v1/health')).busy) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  spent.create += t1 - t0;
  spent.toFinal += t2 - t1;
  spent.toIdle += performance.now() - t2;
  spent.sales++;
  return status;
}

function sample(n: number, t0: number): Sample {
  gc?.();
  const m = process.memoryUsage();
  const out = {
    sales: n,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    rssMiB: mib(m.rss),
    anonMiB: rollup('Anonymous'),
    ...arenas(),
    ...mallinfo2(),
    ...shrunk(),
    preparesTerminal: prepares.terminal,
    preparesSandbox: prepares.sandbox,
    heapMiB: mib(m.heapUsed),
    heapTotalMiB: mib(m.heapTotal),
    externalMiB: mib(m.external),
    arrayBuffersMiB: mib(m.arrayBuffers),
    fds: readdirSync('/proc/self/fd').length,
    dbMiB: fileMiB(path.join(stateDir, 'omnipos.db')),
    sandboxDbMiB: fileMiB(path.join(stateDir, 'sandbox', 'acquirer.db')),
    walMiB: fileMiB(path.join(stateDir, 'omnipos.db-wal')),
    sandboxWalMiB: fileMiB(path.join(stateDir, 'sandbox', 'acquirer.db-wal')),
  };
  if (process.env.SOAK_OUT) appendFileSync(process.env.SOAK_OUT, `${JSON.stringify(out)}\n`);
  return out;
}

// Ctrl-C (or SIGTERM) ends the run after the sale in progress, with the summary; a second one kills it.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    stopping = true;
    console.log(JSON.stringify({ stopping: signal, sales: n }));
  });
const t0 = Date.now();
const cpu0 = threadCpuMs();
const samples = [sample(0, t0)];
const statuses: Record<string, number> = {};
console.log(JSON.stringify(samples[0]));
let n = 0;
try {
  while (n < SALES && (Date.now() - t0) / 1000 < SECONDS && !stopping) {
    moveClock();
    presentCard(n);
    const s = await sale();
    lastEnd = soakClock.now().getTime();
    statuses[s] = (statuses[s] ?? 0) + 1;
    n++;
    if (SNAPSHOT_AT.has(n)) {
      gc?.();
      console.log(
        JSON.stringify({
          sales: n,
          heapSnapshot: writeHeapSnapshot(path.join(tmpdir(), `omnipos-soak-${process.pid}-${n}.heapsnapshot`)),
        }),
      );
    }
    if (n % EVERY === 0) {
      samples.push(sample(n, t0));
      console.log(JSON.stringify(samples.at(-1)));
    }
  }
} finally {
  if (samples.at(-1)!.sales !== n) samples.push(sample(n, t0));
  await daemon.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
const cpu1 = threadCpuMs();
const last = samples.at(-1)!;
const per = (ms: number): number => Math.round((ms / Math.max(1, spent.sales)) * 10) / 10;
const summary = summarize(samples, WARMUP);
console.log(
  JSON.stringify({
    sales: n,
    seconds: last.seconds,
    salesPerSecond: Math.round((n / Math.max(0.1, last.seconds ?? 1)) * 10) / 10,
    statuses,
    msPerSale: {
      wall: per((last.seconds ?? 0) * 1000),
      cpu: per(cpu1.allMs - cpu0.allMs),
      cpuMainThread: per(cpu1.mainMs - cpu0.mainMs),
      create: per(spent.create),
      toFinal: per(spent.toFinal),
      toIdle: per(spent.toIdle),
    },
    apiCallsPerSale: Math.round(((spent.gets + spent.sales) / Math.max(1, spent.sales)) * 10) / 10,
    clock: { hostClockSets: hostSets, aheadOfRealS: Math.round(skewMs / 1000), endedAt: soakClock.now().toISOString() },
    summary,
  }),
);
console.log(formatSummary(summary));
