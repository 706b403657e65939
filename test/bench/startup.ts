/**
 * Start-up against a bare `node -e 0`, from the compiled program (`npm run build` first):
 * `omnipos --help`, `omnipos api token`, and the daemon (`omnipos run`, embedded sandbox, virtual
 * devices) until `GET /v1/health` answers, on a first start and on restarts of the same state.
 * Medians of N runs (N=10, the daemon 5); prints each ratio. `npm run bench:startup`; on another
 * runtime: `npm run build && /path/to/node --import tsx test/bench/startup.ts` (each child runs on
 * the bench's own node). The daemon's state directory exists before it starts, as under systemd,
 * so its first start fills the compile cache there (Node >= 22.1, src/cli/bin.ts) and the
 * restarts use it; `omnipos api token` likewise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = 'dist/src/cli/bin.js';
const N = Number(process.env.N ?? 10);
if (!existsSync(BIN)) throw new Error(`${BIN} is missing: npm run build`);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function timed(args: string[], env: Record<string, string> = {}): number {
  const runs: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    runs.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${String(r.status)} ${r.stderr.toString()}`);
  }
  return median(runs);
}

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function daemonReady(state: string): Promise<number> {
  const api = await freePort();
  const t0 = performance.now();
  // The embedded sandbox's controls on port 0: each of its bases takes a free port too and the
  // acquirer's addresses follow them by key (src/main/acquirer-urls.ts), so the first start
  // downloads the initialization tables as on a terminal and the restarts find them in force.
  const env = {
    ...process.env,
    OMNIPOS_STATE_DIR: state,
    OMNIPOS_API__PORT: String(api),
    OMNIPOS_SANDBOX__PORT: '0',
  };
  const p = spawn(process.execPath, [BIN, 'run'], { env, stdio: 'ignore' });
  try {
    for (;;) {
      if (p.exitCode !== null) throw new Error(`omnipos run exited ${String(p.exitCode)}`);
      const tokenFile = path.join(state, 'api-token');
      if (existsSync(tokenFile)) {
        const res = await fetch(`http://127.0.0.1:${api}/v1/health`, {
          headers: { authorization: `Bearer ${readFileSync(tokenFile, 'utf8').trim()}` },
        }).catch(() => undefined);
        if (res?.status === 200) {
          await res.text();
          return performance.now() - t0;
        }
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    p.kill('SIGTERM');
    await new Promise((r) => p.once('exit', r));
  }
}

const state = mkdtempSync(path.join(tmpdir(), 'omnipos-startup-'));
try {
  const bare = timed(['-e', '0']);
  const line = (what: string, ms: number): void =>
    console.log(`${what.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / bare).toFixed(2)}x`);
  console.log(`node ${process.version}, ${BIN}`);
  line('node -e 0', bare);
  line('omnipos --help', timed([BIN, '--help']));
  line('omnipos api token', timed([BIN, 'api', 'token'], { OMNIPOS_STATE_DIR: state }));
  const dstate = mkdtempSync(path.join(tmpdir(), 'omnipos-startup-daemon-'));
  try {
    line('omnipos run → health (first start)', await daemonReady(dstate));
    const again: number[] = [];
    for (let i = 0; i < Math.max(3, Math.floor(N / 2)); i++) again.push(await daemonReady(dstate));
    line('omnipos run → health (restart)', median(again));
  } finally {
    rmSync(dstate, { recursive: true, force: true });
  }
} finally {
  rmSync(state, { recursive: true, force: true });
}
