/**
 * Start-up against a bare `node -e 0`, from the compiled program (`npm run build` first):
 * `omnipos --help`, `omnipos api token`, and the daemon (`omnipos run`, embedded sandbox, virtual
 * devices) until `GET /v1/health` answers, on a first start and on restarts of the same state.
 * Medians of N runs (N=10, the daemon 5), each paired with a bare `node -e 0` run just before it;
 * prints the wall time and its ratio (median of the pairs' ratios), and the CPU time (user +
 * system, from Linux's /proc: the daemon's own up to its first health answer) and its ratio. `npm run bench:startup`; on another
 * runtime: `npm run build && /path/to/node --import tsx test/bench/startup.ts` (each child runs on
 * the bench's own node). The daemon's state directory exists before it starts, as under systemd,
 * so its first start fills the compile cache there (Node >= 22.1, src/cli/bin.ts) and the
 * restarts use it; `omnipos api token` likewise. Then the production shape: the daemon pointed at
 * a sandbox host and a virtual pinpad each started beforehand in its own process (no embedded
 * sandbox, no embedded pinpad), as a terminal runs against the real host and pinpad.
 * `AB=<bin.js>,<bin.js>` compares builds instead (see compareBuilds).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = 'dist/src/cli/bin.js';
const N = Number(process.env.N ?? 10);
if (!existsSync(BIN)) throw new Error(`${BIN} is missing: npm run build`);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** One run's wall time and CPU time (user + system, ms; Linux's /proc, NaN elsewhere). */
interface Run {
  wall: number;
  cpu: number;
}

/** Clock ticks of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;
/** Fields 14–17 of /proc/<pid>/stat: utime, stime, cutime, cstime, in ticks (after the command's name). */
function procTimes(pid: number | 'self'): [number, number, number, number] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(f[11]), Number(f[12]), Number(f[13]), Number(f[14])];
  } catch {
    return undefined;
  }
}

function once(args: string[], env: Record<string, string> = {}): Run {
  const before = procTimes('self');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${String(r.status)} ${r.stderr.toString()}`);
  const after = procTimes('self');
  // the children's CPU this process waited for (cutime + cstime)
  const cpu = before && after ? (after[2] + after[3] - before[2] - before[3]) * TICK_MS : NaN;
  return { wall, cpu };
}

/**
 * Each run of the command is paired with a bare `node -e 0` just before it, and the ratio is the
 * median of the pairs' ratios: on a shared machine whose load changes during the bench, each
 * pair sees the same load.
 */
interface Measured {
  wall: number;
  ratio: number;
  cpu: number;
  cpuRatio: number;
}
function paired(runs: { bare: Run; run: Run }[]): Measured {
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  return {
    wall: median(runs.map((r) => r.run.wall)),
    ratio: median(runs.map((r) => r.run.wall / r.bare.wall)),
    // ticks of 10 ms: the CPU is the mean over the runs, not a median
    cpu: sum(runs.map((r) => r.run.cpu)) / runs.length,
    cpuRatio: sum(runs.map((r) => r.run.cpu)) / sum(runs.map((r) => r.bare.cpu)),
  };
}
const bare = (): Run => once(['-e', '0']);

function timed(args: string[], env: Record<string, string> = {}): Measured {
  const runs: { bare: Run; run: Run }[] = [];
  for (let i = 0; i < N; i++) runs.push({ bare: bare(), run: once(args, env) });
  return paired(runs);
}

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** A part started in its own process before the timing (the sandbox host, the virtual pinpad), and its first lines. */
async function startPart(
  args: string[],
  env: Record<string, string>,
  until: RegExp,
): Promise<{ out: string; stop(): Promise<void> }> {
  const p = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    p.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (until.test(out)) resolve();
    });
    p.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${String(code)}: ${out}`)));
  });
  return {
    out,
    stop: async () => {
      if (p.exitCode !== null) return;
      p.kill('SIGTERM');
      await new Promise((r) => p.once('exit', r));
    },
  };
}

/**
 * The production shape: the acquirer is a host in another process (the sandbox started as
 * `omnipos sandbox --port 0` does, its bases on free ports, their addresses given as
 * OMNIPOS_ACQUIRER__*_URL), the pinpad a device in another process (`omnipos sim pinpad --tcp`),
 * nothing embedded but the virtual printer.
 */
async function productionParts(dir: string): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const host = await startPart(
    ['sandbox', '--port', '0'],
    { OMNIPOS_STATE_DIR: path.join(dir, 'host') },
    /ecommerceQueryUrl\s+\S+\n/,
  );
  const env: Record<string, string> = { OMNIPOS_SANDBOX__EMBEDDED: 'false' };
  for (const m of host.out.matchAll(/^\s+(\w+Url)\s+(http\S+)$/gm))
    env[`OMNIPOS_ACQUIRER__${(m[1] as string).replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`] = m[2] as string;
  const pinpad = await startPart(['sim', 'pinpad', '--tcp', '0'], {}, /"ready":true.*\n/).catch(async (e: unknown) => {
    await host.stop();
    throw e;
  });
  const tcp = (JSON.parse(pinpad.out.trim().split('\n').pop() as string) as { tcp: number }).tcp;
  Object.assign(env, {
    OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
    OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
    OMNIPOS_PINPAD__DEVICE__PORT: String(tcp),
  });
  return {
    env,
    stop: async () => {
      await pinpad.stop();
      await host.stop();
    },
  };
}

async function daemonReady(state: string, extra: Record<string, string> = {}, bin = BIN): Promise<Run> {
  const api = await freePort();
  const t0 = performance.now();
  // The embedded sandbox's controls on port 0: each of its bases takes a free port too and the
  // acquirer's addresses follow them by key (src/factory/acquirer-urls.ts), so the first start
  // downloads the initialization tables as on a terminal and the restarts find them in force.
  const env = {
    ...process.env,
    OMNIPOS_STATE_DIR: state,
    OMNIPOS_API__PORT: String(api),
    OMNIPOS_SANDBOX__PORT: '0',
    ...extra,
  };
  const p = spawn(process.execPath, [bin, 'run'], { env, stdio: 'ignore' });
  try {
    for (;;) {
      if (p.exitCode !== null) throw new Error(`omnipos run exited ${String(p.exitCode)}`);
      const tokenFile = path.join(state, 'api-token');
      if (existsSync(tokenFile)) {
        const res = await fetch(`http://127.0.0.1:${api}/v1/health`, {
          headers: { authorization: `Bearer ${readFileSync(tokenFile, 'utf8').trim()}` },
        }).catch(() => undefined);
        if (res?.status === 200) {
          const wall = performance.now() - t0;
          await res.text();
          const t = p.pid === undefined ? undefined : procTimes(p.pid);
          // the daemon's own CPU up to here (utime + stime)
          return { wall, cpu: t ? (t[0] + t[1]) * TICK_MS : NaN };
        }
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    p.kill('SIGTERM');
    await new Promise((r) => p.once('exit', r));
  }
}

/**
 * `AB=dist/src/cli/bin.js,/other/checkout/dist/src/cli/bin.js`: instead of the table, the daemon's
 * restarts in the production shape, the builds taking turns (R rounds, default 16; each build's own
 * state directory, started once before the timing), each round with a bare `node -e 0`: the mean CPU
 * of each (10 ms ticks, so a mean over many runs, interleaved so that both see the same load).
 */
async function compareBuilds(bins: string[]): Promise<void> {
  const rounds = Number(process.env.R ?? 16);
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-startup-ab-'));
  const parts = await productionParts(dir);
  try {
    const states = bins.map((_, i) => path.join(dir, `terminal-${i}`));
    for (const [i, b] of bins.entries()) {
      mkdirSync(states[i] as string);
      await daemonReady(states[i] as string, parts.env, b);
    }
    const runs: Run[][] = bins.map(() => []);
    const bares: Run[] = [];
    for (let r = 0; r < rounds; r++) {
      bares.push(bare());
      for (const [i, b] of bins.entries()) runs[i]?.push(await daemonReady(states[i] as string, parts.env, b));
    }
    const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;
    const bareCpu = mean(bares.map((x) => x.cpu));
    console.log(`node ${process.version}: node -e 0 cpu ${bareCpu.toFixed(1)} ms (mean of ${rounds})`);
    for (const [i, b] of bins.entries()) {
      const rs = runs[i] ?? [];
      const cpu = mean(rs.map((x) => x.cpu));
      console.log(
        `${b}: run → health, host apart (restart) cpu ${cpu.toFixed(1)} ms ${(cpu / bareCpu).toFixed(2)}x` +
          `, wall median ${median(rs.map((x) => x.wall)).toFixed(0)} ms`,
      );
    }
  } finally {
    await parts.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.AB) {
  await compareBuilds(process.env.AB.split(','));
  process.exit(0);
}

const state = mkdtempSync(path.join(tmpdir(), 'omnipos-startup-'));
try {
  const line = (what: string, m: Measured): void =>
    console.log(
      `${what.padEnd(34)} ${m.wall.toFixed(0).padStart(6)} ms ${m.ratio.toFixed(2).padStart(6)}x` +
        `   cpu ${m.cpu.toFixed(0).padStart(5)} ms ${m.cpuRatio.toFixed(2).padStart(6)}x`,
    );
  console.log(`node ${process.version}, ${BIN}; ratios to a bare node -e 0 run just before each (wall, then CPU)`);
  line('node -e 0', timed(['-e', '0']));
  line('omnipos --help', timed([BIN, '--help']));
  line('omnipos api token', timed([BIN, 'api', 'token'], { OMNIPOS_STATE_DIR: state }));
  const dstate = mkdtempSync(path.join(tmpdir(), 'omnipos-startup-daemon-'));
  try {
    const first = { bare: bare(), run: await daemonReady(dstate) };
    line('omnipos run → health (first start)', paired([first]));
    const again: { bare: Run; run: Run }[] = [];
    for (let i = 0; i < Math.max(3, Math.floor(N / 2)); i++)
      again.push({ bare: bare(), run: await daemonReady(dstate) });
    line('omnipos run → health (restart)', paired(again));
  } finally {
    rmSync(dstate, { recursive: true, force: true });
  }
  // The production shape: no embedded sandbox host, no embedded virtual pinpad (both started
  // beforehand in their own processes, outside the timing).
  const pdir = mkdtempSync(path.join(tmpdir(), 'omnipos-startup-production-'));
  const parts = await productionParts(pdir);
  try {
    const pstate = path.join(pdir, 'terminal');
    mkdirSync(pstate);
    const first = { bare: bare(), run: await daemonReady(pstate, parts.env) };
    line('run → health, host apart (first)', paired([first]));
    const again: { bare: Run; run: Run }[] = [];
    for (let i = 0; i < Math.max(3, Math.floor(N / 2)); i++)
      again.push({ bare: bare(), run: await daemonReady(pstate, parts.env) });
    line('run → health, host apart (restart)', paired(again));
  } finally {
    await parts.stop();
    rmSync(pdir, { recursive: true, force: true });
  }
} finally {
  rmSync(state, { recursive: true, force: true });
}
