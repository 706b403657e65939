import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll } from 'vitest';
import { processAlive } from '../../src/core/index.js';
import { sandboxEnv, type RunningSandbox } from '../../src/sandbox/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where a test file's children's programs are written: in the repository, so their packages resolve from node_modules. */
const CACHE = path.join(ROOT, 'node_modules', '.cache');
const PREFIX = 'omnipos-test-child-';
let folder: string | undefined;
const bundles = new Map<string, string>();

// Removed after the file's tests (vitest ends its workers without an `exit` event; a folder left by a killed one is
// removed by the next file that bundles: removeOrphans).
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
  bundles.clear();
});

/** The folders of test processes that ended without removing theirs (killed): each folder is named for its pid. */
function removeOrphans(): void {
  for (const name of readdirSync(CACHE)) {
    const pid = name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length).split('-')[0]) : NaN;
    if (!Number.isInteger(pid) || pid <= 0 || processAlive(pid)) continue;
    rmSync(path.join(CACHE, name), { recursive: true, force: true });
  }
}

/**
 * `script` and everything it imports from the repository in one file, built from the source as it is now (esbuild,
 * the compiler tsx runs per module), once per test file. A child then starts in a fraction of the CPU a start
 * through tsx takes (its loader compiling or reading back ~650 modules one by one, ~2.5 s each time): the kill
 * tests start ten to thirty of them. Packages stay in node_modules (native modules, `createRequire`), as in the
 * shipped bundle (packaging/bundle.ts).
 */
function bundled(script: string): string {
  const known = bundles.get(script);
  if (known) return known;
  if (!folder) {
    mkdirSync(CACHE, { recursive: true });
    removeOrphans();
    const made = mkdtempSync(path.join(CACHE, `${PREFIX}${process.pid}-`));
    folder = made;
  }
  const outfile = path.join(folder, `${path.basename(script, '.ts')}.mjs`);
  buildSync({
    entryPoints: [path.resolve(ROOT, script)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  bundles.set(script, outfile);
  return outfile;
}

/** A test's daemon program running in a process of its own. */
export interface DaemonChild {
  child: ChildProcess;
  /** What it wrote so far. */
  out(): string;
  err(): string;
  /** Settles when it ends, by itself or by a signal (a SIGKILL the program sent itself included). */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * A test's daemon program (`script`, a repository path, bundled from the source: `bundled`; and its `args`) in a process of its own, on
 * `stateDir`, against the sandbox host `host` (its addresses in the environment, the embedded sandbox off, no
 * configuration file), with `env` on top: what the kill and recovery tests start, kill and start again.
 */
export function spawnDaemonChild(
  script: string,
  args: string[],
  o: { host: RunningSandbox; stateDir: string; env?: Record<string, string> },
): DaemonChild {
  const child = spawn(process.execPath, [bundled(script), ...args], {
    env: {
      ...process.env,
      OMNIPOS_CONFIG: '',
      OMNIPOS_STATE_DIR: o.stateDir,
      OMNIPOS_SANDBOX__EMBEDDED: 'false',
      ...sandboxEnv(o.host),
      ...o.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, out: () => out, err: () => err, exit };
}
