// The soak (issue 23): N card sales through the daemon's API (embedded sandbox host, virtual
// pinpad and printer, real loopback HTTP and SQLite files), sampling RSS, heap, external memory
// and open file descriptors, to see memory and descriptors flat after warm-up.
//
//   npm run soak                       100,000 sales (by hand: hours)
//   SOAK_SALES=300 npm run soak        a short one
//   SOAK_SECONDS=120 npm run soak      stop after that long, whatever SOAK_SALES says
//   SOAK_EVERY=50                      a sample every 50 sales (default: SOAK_SALES / 20)
//   SOAK_SNAPSHOT_AT=100,400           V8 heap snapshots after those sales (compare them in DevTools)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
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
const daemon = await startDaemon({ config, log: createLogger({ level: 'silent' }), env: {}, sandboxPort: 0, apiPort: 0 });
const token = readFileSync(daemon.apiTokenFile, 'utf8').trim();

async function call(method: 'GET' | 'POST', p: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await request(`${daemon.apiUrl}${p}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
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

function sample(n: number, t0: number): Record<string, number> {
  gc?.();
  const m = process.memoryUsage();
  return { sales: n, seconds: Math.round((Date.now() - t0) / 1000), rssMiB: mib(m.rss), heapMiB: mib(m.heapUsed), externalMiB: mib(m.external), arrayBuffersMiB: mib(m.arrayBuffers), fds: readdirSync('/proc/self/fd').length };
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
      console.log(JSON.stringify({ sales: n, heapSnapshot: writeHeapSnapshot(path.join(tmpdir(), `omnipos-soak-${process.pid}-${n}.heapsnapshot`)) }));
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
    rssMiB: { start: samples[0]!.rssMiB, afterWarmUp: warm.rssMiB, end: last.rssMiB, max: Math.max(...samples.map((s) => s.rssMiB ?? 0)) },
    heapMiB: { afterWarmUp: warm.heapMiB, end: last.heapMiB },
    fds: { start: samples[0]!.fds, afterWarmUp: warm.fds, end: last.fds },
  }),
);
