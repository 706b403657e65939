/**
 * `omnipos run` stopped with SIGTERM at every step of its start-up — each message its start logs, the
 * pinpad's background secure OPN among them — exits 0, before the stop guard (20 s, exit 1), with nothing
 * half-written: the state directory holds only what a clean stop leaves (no WAL or journal not folded
 * back, no `daemon.pid`), its SQLite files pass `quick_check`, its key and token files are whole, and a
 * new start takes the directory at once. Real processes: the CLI under tsx, the virtual pinpad as its own
 * process over TCP answering in a real PPC930's times (the secure OPN 3 s; ten times that for the case
 * stopped inside the OPN, so the stop is sure to come first).
 */
import { createPrivateKey } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Database from '../../../src/store/sqlite.js';
import { startSim, type SimProcess } from '../../helpers/sim-process.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { killAll, spawnCli, type CliProcess } from '../../helpers/cli-process.js';

const tempDir = useTempDirs();
afterEach(killAll);

/** Generous: the machine is shared. The stop guard (20 s) exits 1, so a 0 is a stop that did not need it. */
const EXIT_MS = 45_000;

/**
 * The messages a start logs at debug level, each a step to stop at (a reference start below checks
 * the list is the start-up's own, so a new step cannot go untested).
 */
const STEPS = [
  'database migrated',
  'acquirer answer',
  'pinpad control byte sent',
  'pinpad command queued',
  'omnipos started',
  'pinpad secure session established',
  'pinpad connected',
  'pinpad key slots read',
] as const;
/** The last step of a start: the pinpad's key slots read after its session opened. */
const LAST = 'pinpad key slots read';

function run(state: string, sim: SimProcess): CliProcess {
  return spawnCli(['run'], {
    OMNIPOS_STATE_DIR: state,
    OMNIPOS_LOG__LEVEL: 'debug',
    OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
    OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
    OMNIPOS_PINPAD__DEVICE__PORT: String(sim.tcp),
  });
}

const logged = (msg: string): RegExp => new RegExp(`"msg":"${msg}"`);

/** Every file under `dir`, relative, with its size. */
function files(dir: string, under = ''): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const rel = path.join(under, e.name);
    if (e.isDirectory()) for (const [f, s] of files(dir, rel)) out.set(f, s);
    else out.set(rel, statSync(path.join(dir, rel)).size);
  }
  return out;
}

/**
 * What may differ between a stop and a clean one: the log (its lines), the SQLite files' sizes, a key's
 * PEM (an RSA key's DER length varies by a few bytes; each is parsed whole below), and
 * Node's compile cache (`cache/node-compile`, Node 22.1+: V8's code for the modules loaded so far, which
 * Node checks before use and drops when it does not match).
 */
const SIZE_VARIES = /(^logs\/|^cache\/|\.db$|\.pem$|daemon\.lock$)/;

/** Nothing half-written in `state`, against what a clean stop left in `clean`. */
function assertWhole(state: string, clean: Map<string, number>, step: string): void {
  const left = files(state);
  for (const [f, size] of left) {
    expect(clean.has(f), `${step}: ${f} (${size} bytes) is not left by a clean stop`).toBe(true);
    if (!SIZE_VARIES.test(f))
      expect(size, `${step}: ${f} is ${size} bytes, ${clean.get(f)} after a clean stop`).toBe(clean.get(f));
  }
  for (const f of [...left.keys()].filter((n) => n.endsWith('.db'))) {
    const db = new Database(path.join(state, f), { readonly: true });
    try {
      expect(db.pragma('quick_check', { simple: true }), `${step}: ${f}`).toBe('ok');
    } finally {
      db.close();
    }
  }
  for (const f of [...left.keys()].filter((n) => n.endsWith('.pem'))) {
    const pem = readFileSync(path.join(state, f), 'utf8');
    expect(pem, `${step}: ${f}`).toMatch(/^-----BEGIN [^\n]+-----\n[\s\S]+\n-----END [^\n]+-----\n?$/);
    expect(() => createPrivateKey(pem), `${step}: ${f} is a whole key`).not.toThrow();
  }
}

/** Stops `p` with SIGTERM: exit 0 before the stop guard, nothing on stderr. */
async function stop(p: CliProcess, step: string): Promise<void> {
  p.kill('SIGTERM');
  expect(await p.exitWithin(EXIT_MS), `${step}\nstdout: ${p.out().slice(-1500)}\nstderr: ${p.err()}`).toEqual({
    code: 0,
    signal: null,
  });
  expect(p.err(), step).toBe('');
}

describe.sequential('omnipos run stopped (SIGTERM) at every step of its start-up', () => {
  let sim: SimProcess;
  /** What a clean stop after a whole start leaves in the state directory. */
  let clean: Map<string, number>;
  let reference: string[];

  beforeAll(async () => {
    sim = await startSim(['--timing', 'ppc930']);
    const state = tempDir();
    const p = run(state, sim);
    await p.waitFor(logged(LAST));
    await stop(p, 'a whole start');
    clean = files(state);
    reference = p
      .out()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    reference = reference.slice(0, reference.indexOf(LAST) + 1);
  }, 120_000);
  afterAll(async () => {
    await sim?.stop();
  });

  it("the steps are the start-up's own: each message a whole start logs up to its pinpad's key slots", () => {
    expect([...new Set(reference)].sort()).toEqual([...STEPS].sort());
    expect([...clean.keys()].filter((f) => /-wal$|-journal$|daemon\.pid$/.test(f))).toEqual([]);
  });

  for (const step of STEPS) {
    it(`stopped once "${step}" is logged: exit 0, nothing half-written`, async () => {
      const state = tempDir();
      const p = run(state, sim);
      await p.waitFor(logged(step));
      await stop(p, step);
      assertWhole(state, clean, step);
    }, 90_000);
  }

  it("stopped inside the pinpad's background secure OPN: exit 0 before the pinpad answers, nothing half-written, the next start takes the directory", async () => {
    const slow = await startSim(['--timing', 'ppc930', '--timing-scale', '10']); // the secure OPN 30 s
    try {
      const state = tempDir();
      const p = run(state, slow);
      await p.waitFor(logged('omnipos started'));
      // the OPN is at the pinpad (it logs receipt before its processing time)
      for (let i = 0; i < 900 && !(await slow.state()).received.includes('OPN'); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect((await slow.state()).received).toContain('OPN');
      expect(p.out()).not.toMatch(logged('pinpad secure session established'));
      await stop(p, 'inside the OPN');
      // the pinpad never answered it: the daemon did not wait for the session to stop
      expect((await slow.state()).opened).toBe(false);
      assertWhole(state, clean, 'inside the OPN');
      const next = run(state, slow);
      await next.waitFor(logged('omnipos started'));
      await stop(next, 'the next start');
    } finally {
      // SIGKILL: the slow pinpad is still in the next start's 30 s OPN, and a SIGTERM waits that out (~30 s).
      await slow.stop('SIGKILL');
    }
  }, 180_000);
});
