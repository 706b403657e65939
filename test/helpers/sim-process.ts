import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fault } from '../../src/sim/pinpad/faults.js';
import { omniposArgs } from './omnipos-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The virtual pinpad running as its own process (`omnipos sim pinpad`), with its control port. */
export interface SimProcess {
  readonly child: ChildProcess;
  readonly tcp: number;
  readonly pty?: string;
  control(cmd: Record<string, unknown>): Promise<Record<string, unknown>>;
  fault(f: Fault): Promise<void>;
  state(): Promise<{
    display: string[];
    received: string[];
    opened: boolean;
    cans: number;
    unplugged: number;
    replugged: number;
  }>;
  /**
   * Ends the process: SIGTERM by default (the simulator powers off: a command held in its processing time or a
   * `delay` fault ends unanswered, test/integration/pinpad/sim-sigterm.test.ts); SIGKILL to pull its power.
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startSim(args: string[]): Promise<SimProcess> {
  const child = spawn(process.execPath, omniposArgs(['sim', 'pinpad', '--tcp', '0', '--control', '0', ...args]), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ready = await new Promise<{ tcp: number; pty?: string; control: number }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { tcp: number; pty?: string; control: number });
    });
    child.once('exit', (code) => reject(new Error(`sim exited with ${code}: ${err}`)));
  });
  const socket = net.connect({ host: '127.0.0.1', port: ready.control });
  await new Promise((r) => socket.once('connect', r));
  let buf = '';
  const waiters: ((v: Record<string, unknown>) => void)[] = [];
  socket.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      waiters.shift()?.(JSON.parse(line) as Record<string, unknown>);
    }
  });
  const control = (cmd: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiters.push(resolve);
      socket.write(`${JSON.stringify(cmd)}\n`);
    });
  return {
    child,
    tcp: ready.tcp,
    ...(ready.pty ? { pty: ready.pty } : {}),
    control,
    fault: async (f) => {
      const r = await control({ cmd: 'fault', fault: f });
      if (r.ok !== true) throw new Error(`fault refused: ${JSON.stringify(r)}`);
    },
    state: async () =>
      (await control({ cmd: 'state' })) as unknown as {
        display: string[];
        received: string[];
        opened: boolean;
        cans: number;
        unplugged: number;
        replugged: number;
      },
    stop: async (signal = 'SIGTERM') => {
      socket.destroy();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}
