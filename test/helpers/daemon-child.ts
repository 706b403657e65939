import { spawn, type ChildProcess } from 'node:child_process';
import { sandboxEnv, type RunningSandbox } from '../../src/sandbox/index.js';

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
 * A test's daemon program (`script`, a repository path run with tsx, and its `args`) in a process of its own, on
 * `stateDir`, against the sandbox host `host` (its addresses in the environment, the embedded sandbox off, no
 * configuration file), with `env` on top: what the kill and recovery tests start, kill and start again.
 */
export function spawnDaemonChild(
  script: string,
  args: string[],
  o: { host: RunningSandbox; stateDir: string; env?: Record<string, string> },
): DaemonChild {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
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
