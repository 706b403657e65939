import { spawn } from 'node:child_process';

/** A daemon in a process of its own (test/integration/api/events-daemon-child.ts), to SIGKILL and start again. */
export interface DaemonProcess {
  /** The API's address, once it listens. */
  url: Promise<string>;
  exit: Promise<{ code: number | null; signal: string | null }>;
  kill(): void;
  /** What it wrote on standard error so far. */
  err(): string;
}

/**
 * The default configuration's daemon (embedded sandbox host, virtual pinpad and printer, API on a
 * free loopback port) on `stateDir`, run with tsx in a child process: what the kill-and-restart
 * tests start, SIGKILL and start again on the same state.
 */
export function spawnDaemonProcess(stateDir: string): DaemonProcess {
  const p = spawn(process.execPath, ['--import', 'tsx', 'test/integration/api/events-daemon-child.ts'], {
    env: { ...process.env, OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: stateDir, OMNIPOS_QR__POLL_MS: '100' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    p.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = (async () => {
    for (let i = 0; i < 1200; i++) {
      const m = /"apiUrl":"([^"]+)"/.exec(out);
      if (m) return m[1] as string;
      if (p.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the daemon did not start: ${err}`);
  })();
  return { url, exit, kill: () => p.kill('SIGKILL'), err: () => err };
}
