// The soak (issue 23): N card sales through the daemon's API (embedded sandbox host, virtual
// pinpad and printer, real loopback HTTP and SQLite files), sampling RSS, heap, external memory
// and open file descriptors, to see memory and descriptors flat after warm-up.
//
//   npm run soak                       100,000 sales (by hand: hours)
//   SOAK_SALES=300 npm run soak        a short one
//   SOAK_SECONDS=120 npm run soak      stop after that long, whatever SOAK_SALES says
//   SOAK_EVERY=50                      a sample every 50 sales (default: SOAK_SALES / 20)
//   SOAK_SNAPSHOT_AT=100,400           V8 heap snapshots after those sales (compare them in DevTools)
//   SOAK_OUT=file.jsonl                the samples also written there, one JSON line each
//   SOAK_SHRINK=1                      also SQLite's page caches given back at each sample (what they held)
//   MALLOC_ARENA_MAX=8 npm run soak    glibc's arenas as without the systemd unit (the script's default is 2, the unit's)
// Each sample: RSS and its anonymous part (/proc/self/smaps_rollup), the main malloc heap and the
// per-thread arenas (/proc/self/smaps), glibc's bytes in use and free (mallinfo2), statements
// compiled, V8 heap, external and array buffers, open descriptors, and the WAL files' sizes.
// What the first soaks found (issue 23): RSS grew with SQLite's page cache, 16 MiB per connection
// in better-sqlite3's build, filled as the files grew (now 2 MiB, src/store/open.ts), and with
// glibc's per-thread arenas (MALLOC_ARENA_MAX=2 in the unit); malloc bytes in use, once the page
// caches are given back (SOAK_SHRINK=1), stay flat.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import koffi from 'koffi';
import { request } from 'undici';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { startDaemon } from '../../src/main.js';

const SALES = Number(process.env.SOAK_SALES ?? 100_000);
const SECONDS = process.env.SOAK_SECONDS ? Number(process.env.SOAK_SECONDS) : Infinity;
const EVERY = Number(process.env.SOAK_EVERY ?? Math.max(1, Math.floor(SALES / 20)));
const mib = (n: number): number => Math.round((n / 1048576) * 10) / 10;
const gc = (globalThis as { gc?: () => void }).gc;
const SNAPSHOT_AT = new Set((process.env.SOAK_SNAPSHOT_AT ?? '').split(',').filter(Boolean).map(Number));

const stateDir = mkdtempSync(path.join(tmpdir(), 'omnipos-soak-'));
const config = loadConfig({ env: { OMNIPOS_STATE_DIR: stateDir } });
const daemon = await startDaemon({
  config,
  log: createLogger({ level: 'silent' }),
  env: {},
  sandboxPort: 0,
  apiPort: 0,
});
const token = readFileSync(daemon.apiTokenFile, 'utf8').trim();

/** glibc's malloc counters (all arenas): bytes in use and bytes free inside the arenas (fragmentation); NaN off glibc. */
const mallinfo2 = ((): (() => { inUseMiB: number; freeInArenasMiB: number }) => {
  try {
    const libc = koffi.load('libc.so.6');
    const info = koffi.struct('mallinfo2_t', {
      arena: 'size_t',
      ordblks: 'size_t',
      smblks: 'size_t',
      hblks: 'size_t',
      hblkhd: 'size_t',
      usmblks: 'size_t',
      fsmblks: 'size_t',
      uordblks: 'size_t',
      fordblks: 'size_t',
      keepcost: 'size_t',
    });
    const f = libc.func('mallinfo2', info, []) as () => {
      uordblks: number | bigint;
      fordblks: number | bigint;
      hblkhd: number | bigint;
    };
    return () => {
      const m = f();
      return { inUseMiB: mib(Number(m.uordblks) + Number(m.hblkhd)), freeInArenasMiB: mib(Number(m.fordblks)) };
    };
  } catch {
    return () => ({ inUseMiB: NaN, freeInArenasMiB: NaN });
  }
})();

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

async function sale(): Promise<string> {
  const created = await call('POST', '/v1/payments', { amount: 2510, method: 'credit', confirmation: 'auto' });
  const id = created.id as number | undefined;
  if (id === undefined) throw new Error(`refused: ${JSON.stringify(created)}`);
  for (;;) {
    const p = await call('GET', `/v1/payments/${id}`);
    const status = p.status as string;
    if (!['pending', 'approved'].includes(status)) {
      for (;;) {
        if (!(await call('GET', '/v1/health')).busy) return status;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A field of /proc/self/smaps_rollup, in MiB (Linux only; NaN elsewhere). */
function rollup(field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/smaps_rollup', 'utf8'));
    return m ? mib(Number(m[1]) * 1024) : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Where the anonymous memory is, from /proc/self/smaps: the main malloc arena (`[heap]`, the
 * brk heap: SQLite's page caches, the main thread's buffers) and glibc's per-thread arenas (anonymous
 * mappings starting on a 64 MiB boundary: libuv's pool, V8's helper threads), in MiB of RSS.
 */
function arenas(): { brkHeapMiB: number; threadArenasMiB: number; threadArenas: number } {
  let brk = 0;
  let threads = 0;
  let count = 0;
  try {
    let current: { start: bigint; name: string } | undefined;
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const head = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
      if (head) {
        current = { start: BigInt(`0x${head[1]}`), name: head[2] ?? '' };
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (!rss || !current) continue;
      const kb = Number(rss[1]);
      if (current.name === '[heap]') brk += kb;
      else if (current.name === '' && current.start % (64n << 20n) === 0n && kb > 0) {
        threads += kb;
        count++;
      }
    }
  } catch {
    return { brkHeapMiB: NaN, threadArenasMiB: NaN, threadArenas: NaN };
  }
  return { brkHeapMiB: mib(brk * 1024), threadArenasMiB: mib(threads * 1024), threadArenas: count };
}

/** A file's size in MiB, 0 when it is not there. */
function fileMiB(file: string): number {
  try {
    return mib(statSync(file).size);
  } catch {
    return 0;
  }
}

function sample(n: number, t0: number): Record<string, number> {
  gc?.();
  const m = process.memoryUsage();
  const out = {
    sales: n,
    seconds: Math.round((Date.now() - t0) / 1000),
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
    walMiB: fileMiB(path.join(stateDir, 'omnipos.db-wal')),
    sandboxWalMiB: fileMiB(path.join(stateDir, 'sandbox', 'acquirer.db-wal')),
  };
  if (process.env.SOAK_OUT) appendFileSync(process.env.SOAK_OUT, `${JSON.stringify(out)}\n`);
  return out;
}

const t0 = Date.now();
const samples = [sample(0, t0)];
const statuses: Record<string, number> = {};
console.log(JSON.stringify(samples[0]));
let n = 0;
try {
  while (n < SALES && (Date.now() - t0) / 1000 < SECONDS) {
    const s = await sale();
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
  samples.push(sample(n, t0));
  await daemon.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
const warm = samples[Math.min(samples.length - 1, Math.max(1, Math.floor(samples.length / 4)))]!;
const last = samples.at(-1)!;
console.log(
  JSON.stringify({
    sales: n,
    seconds: last.seconds,
    salesPerSecond: Math.round((n / Math.max(1, last.seconds ?? 1)) * 10) / 10,
    statuses,
    rssMiB: {
      start: samples[0]!.rssMiB,
      afterWarmUp: warm.rssMiB,
      end: last.rssMiB,
      max: Math.max(...samples.map((s) => s.rssMiB ?? 0)),
    },
    heapMiB: { afterWarmUp: warm.heapMiB, end: last.heapMiB },
    fds: { start: samples[0]!.fds, afterWarmUp: warm.fds, end: last.fds },
  }),
);
