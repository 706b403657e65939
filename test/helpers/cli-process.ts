import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';
import { decodeQrRgba } from './qr-decode.js';
import { omniposArgs } from './omnipos-process.js';
import { TEST_CARDS, type TestCard } from '../../tables/test-cards.js';

/** A real `omnipos` process (the build, else tsx: omnipos-process.ts), its output collected as it comes (the faults and the QR command-line tests). */
export interface CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  out(): string;
  err(): string;
  /**
   * Resolves with the first match of `text` in stdout, else in stderr; rejects if the process exits first, or
   * after `timeoutMs` when given.
   */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** The exit: code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the exit, or with 'still running' after `ms` (the test then fails on it). */
  exitWithin(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'still running'>;
  kill(signal?: NodeJS.Signals): void;
}

const alive = new Set<CliProcess>();

/** Spawns `omnipos <args>` with a daemon environment on free ports unless `env` says otherwise. */
export function spawnCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, omniposArgs(args), {
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
    waitFor(text, timeoutMs) {
      const re = typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : text;
      const seen = (): RegExpMatchArray | null => out.match(re) ?? err.match(re);
      return new Promise<RegExpMatchArray>((resolve, reject) => {
        const now = seen();
        if (now) return resolve(now);
        let timer: NodeJS.Timeout | undefined;
        const done = (): void => {
          listeners.delete(check);
          clearTimeout(timer);
        };
        const check = (): void => {
          const m = seen();
          if (m) {
            done();
            resolve(m);
          }
        };
        listeners.add(check);
        if (timeoutMs !== undefined)
          timer = setTimeout(() => {
            done();
            reject(
              new Error(
                `timed out waiting for ${String(text)}\nstdout: ${out.slice(-2000)}\nstderr: ${err.slice(-2000)}`,
              ),
            );
          }, timeoutMs);
        void exited.then(({ code, signal }) => {
          const m = seen();
          done();
          if (m) return resolve(m);
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

/** A loopback port nothing listens on (now). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** The arguments of `omnipos wallet pay`: pays `qr` (a sale's code or a cancellation code) with `card`. */
export function walletPayArgs(qr: string, card: TestCard = TEST_CARDS[0]!): string[] {
  const exp = `${card.expiry.slice(2)}${card.expiry.slice(0, 2)}`;
  return [
    'wallet',
    'pay',
    qr,
    '--card',
    card.pan,
    '--cvv',
    '123',
    '--exp',
    exp,
    '--name',
    'TESTE CARTAO',
    '--document',
    '52998224725',
  ];
}

/** `omnipos wallet pay CODE` in its own process, against the sandbox at `walletUrl`, with the first test card. */
export async function walletPay(
  code: string,
  walletUrl: string,
  stateDir: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const p = spawnCli(walletPayArgs(code), { OMNIPOS_STATE_DIR: stateDir, OMNIPOS_ACQUIRER__WALLET_URL: walletUrl });
  const { code: exit } = await p.exited;
  return { code: exit, out: p.out(), err: p.err() };
}

/**
 * Reads the terminal's text-block QR back into pixels (each character is one module wide and
 * two high: █ both, ▀ top, ▄ bottom) and decodes it with jsQR, an independent decoder.
 */
export function decodeTextBlocks(text: string): string | undefined {
  const lines = text.split('\n').filter((l) => /^[ █▀▄]+$/.test(l) && /[█▀▄]/.test(l));
  if (lines.length === 0) return undefined;
  const scale = 4;
  const width = Math.max(...lines.map((l) => [...l].length)) + 8;
  const height = lines.length * 2 + 8;
  const rgba = new Uint8ClampedArray(width * scale * height * scale * 4).fill(255);
  const ink = (x: number, y: number): void => {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const i = ((y * scale + dy) * width * scale + x * scale + dx) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
    }
  };
  lines.forEach((line, row) => {
    [...line].forEach((c, col) => {
      if (c === '█' || c === '▀') ink(col + 4, row * 2 + 4);
      if (c === '█' || c === '▄') ink(col + 4, row * 2 + 5);
    });
  });
  return decodeQrRgba(rgba, width * scale, height * scale);
}
