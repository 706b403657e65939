import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';

/** A real `omnipos` process (tsx), its output collected as it comes. */
export interface CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  out(): string;
  err(): string;
  /** Resolves when stdout or stderr contains `text`; rejects if the process exits first. */
  waitFor(text: string | RegExp): Promise<void>;
  /** The exit: code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the exit, or with 'still running' after `ms` (the test then fails on it). */
  exitWithin(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'still running'>;
  kill(signal?: NodeJS.Signals): void;
}

const alive = new Set<CliProcess>();

/** Spawns `omnipos <args>` with a daemon environment on free ports unless `env` says otherwise. */
export function spawnCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
    env: { ...process.env, OMNIPOS_CONFIG: '', OMNIPOS_SANDBOX__PORT: '0', OMNIPOS_API__PORT: '0', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    for (const l of listeners) l();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const proc: CliProcess = {
    child,
    pid: child.pid ?? -1,
    out: () => out,
    err: () => err,
    exited,
    waitFor(text) {
      const seen = (): boolean =>
        typeof text === 'string' ? out.includes(text) || err.includes(text) : text.test(out) || text.test(err);
      return new Promise<void>((resolve, reject) => {
        if (seen()) return resolve();
        const check = (): void => {
          if (seen()) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        void exited.then(({ code, signal }) => {
          if (seen()) return resolve();
          listeners.delete(check);
          reject(
            new Error(
              `omnipos ${args.join(' ')} exited (${code ?? signal}) before printing ${String(text)}\nstdout: ${out.slice(-2000)}\nstderr: ${err.slice(-2000)}`,
            ),
          );
        });
      });
    },
    exitWithin(ms) {
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        exited,
        new Promise<'still running'>((resolve) => {
          timer = setTimeout(() => resolve('still running'), ms);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
  alive.add(proc);
  void exited.then(() => alive.delete(proc));
  return proc;
}

/** SIGKILLs every process a test left running (afterEach). */
export async function killAll(): Promise<void> {
  const left = [...alive];
  for (const p of left) p.kill('SIGKILL');
  await Promise.all(left.map((p) => p.exited));
}

/** A port held by this test process (another program on the daemon's port). */
export async function holdPort(host = '127.0.0.1'): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Whether something accepts connections at host:port. */
export function accepts(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, host);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** The single line on stderr (the CLI's message), failing loudly if there are several. */
export function stderrLines(p: CliProcess): string[] {
  return p
    .err()
    .split('\n')
    .filter((l) => l.trim() !== '');
}
