/**
 * One terminal of the chaos run: the daemon (`omnipos run`) as a child process, and its virtual
 * pinpad (`omnipos sim pinpad`) as its own process that survives every kill of the daemon. The
 * pinpad's timing profile is per process (`--timing fast|ppc930 --timing-scale X`), so switching profile restarts
 * the pinpad (cleanly) and the daemon (it reaches the pinpad over TCP on the new port).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import { request } from 'undici';
import { omniposArgs } from '../helpers/omnipos-process.js';
import { track } from './children.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The virtual pinpad's processing times: a named profile at a scale (1: the real times). */
export interface Timing {
  readonly name: 'fast' | 'ppc930';
  readonly scale: number;
}
/** A Gertec PPC930's real times (src/sim/pinpad/timing.ts). */
export const REAL_PPC930: Timing = { name: 'ppc930', scale: 1 };
/** Whether a timing is a real PPC930's. */
export const isReal = (t: Timing): boolean => t.name === 'ppc930' && t.scale === 1;

export interface TerminalOptions {
  name: string;
  stateDir: string;
  /** OMNIPOS_* variables of this terminal (merchant, terminal id, order id part) besides the shared ones. */
  env: Record<string, string>;
}

export class Terminal {
  readonly name: string;
  readonly stateDir: string;
  readonly #env: Record<string, string>;
  api = '';
  token = '';
  supervisor = '';
  daemon: ChildProcess | undefined;
  pinpad: ChildProcess | undefined;
  timing: Timing = REAL_PPC930;
  kills = 0;
  restarts = 0;
  /** Exit codes of the pinpads stopped cleanly (each must be 0). */
  readonly pinpadExits: (number | string | null)[] = [];
  #pinpadPort = 0;
  #control: Socket | undefined;
  #answers: ((line: string) => void)[] = [];
  #buffer = '';

  constructor(o: TerminalOptions) {
    this.name = o.name;
    this.stateDir = o.stateDir;
    this.#env = o.env;
  }

  async startPinpad(timing: Timing): Promise<void> {
    this.timing = timing;
    const pinpad = track(
      spawn(
        process.execPath,
        omniposArgs([
          'sim',
          'pinpad',
          '--tcp',
          '0',
          '--control',
          '0',
          '--typing-ms',
          '5',
          '--timing',
          timing.name,
          '--timing-scale',
          String(timing.scale),
          // the same pinpad across restarts: its DUKPT counters go on (a real one keeps them)
          '--memory',
          path.join(this.stateDir, 'pinpad-memory.json'),
        ]),
        {
          env: { ...process.env, OMNIPOS_CONFIG: '' },
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      ),
    );
    this.pinpad = pinpad;
    const ready = await new Promise<{ tcp: number; control: number }>((resolve, reject) => {
      let out = '';
      pinpad.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const line = out.split('\n').find((l) => l.includes('"ready"'));
        if (line) resolve(JSON.parse(line) as { tcp: number; control: number });
      });
      pinpad.once('exit', (code) => reject(new Error(`the virtual pinpad of ${this.name} exited at start (${code})`)));
    });
    pinpad.stdout.resume();
    this.#pinpadPort = ready.tcp;
    const control = connect(ready.control, '127.0.0.1');
    await new Promise((r) => control.once('connect', r));
    this.#control = control;
    this.#answers = [];
    this.#buffer = '';
    control.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('utf8');
      let nl;
      while ((nl = this.#buffer.indexOf('\n')) >= 0) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        this.#answers.shift()?.(line);
      }
    });
  }

  /** Stops the pinpad with SIGTERM; its exit code is kept (it must be 0). */
  async stopPinpad(): Promise<void> {
    const p = this.pinpad;
    this.#control?.end();
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await exited;
    this.pinpadExits.push(p.exitCode ?? p.signalCode);
  }

  /** The customer at the virtual pinpad: which card, how it is presented, what PIN is typed; or a fault. */
  customer(command: Record<string, unknown>): Promise<string> {
    return new Promise((resolve) => {
      this.#answers.push(resolve);
      this.#control?.write(`${JSON.stringify(command)}\n`);
    });
  }

  async startDaemon(shared: Record<string, string>): Promise<void> {
    const apiPort = await freePort();
    this.api = `http://127.0.0.1:${apiPort}`;
    const env = {
      ...process.env,
      ...shared,
      ...this.#env,
      OMNIPOS_STATE_DIR: this.stateDir,
      OMNIPOS_API__PORT: String(apiPort),
      OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
      OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
      OMNIPOS_PINPAD__DEVICE__PORT: String(this.#pinpadPort),
    };
    const child = track(
      spawn(process.execPath, omniposArgs(['run']), {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    this.daemon = child;
    // Up to five minutes: a loaded machine (load 30 on two cores) starts Node very slowly.
    const until = Date.now() + 300_000;
    while (Date.now() < until) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the daemon of ${this.name} exited at start (${child.exitCode ?? child.signalCode})`);
      try {
        this.token = readFileSync(path.join(this.stateDir, 'api-token'), 'utf8').trim();
        const r = await request(`${this.api}/v1/health`, { headers: { authorization: `Bearer ${this.token}` } });
        const text = await r.body.text();
        // Ready before the pinpad's secure session (card sales answer 503 PINPAD_OPENING meanwhile): wait for it too.
        const opening =
          r.statusCode === 200 && (JSON.parse(text) as { pinpad?: { opening?: boolean } }).pinpad?.opening;
        if (r.statusCode === 200 && opening !== true) {
          this.supervisor = readFileSync(path.join(this.stateDir, 'supervisor-token'), 'utf8').trim();
          return;
        }
      } catch {
        /* not up yet */
      }
      await sleep(50);
    }
    throw new Error(`the daemon of ${this.name} did not start`);
  }

  alive(): boolean {
    return this.daemon !== undefined && this.daemon.exitCode === null && this.daemon.signalCode === null;
  }

  async kill(d: ChildProcess | undefined = this.daemon): Promise<void> {
    if (!d || d.exitCode !== null || d.signalCode !== null) return;
    const exited = new Promise((r) => d.once('exit', r));
    d.kill('SIGKILL');
    await exited;
    this.kills++;
  }

  async stop(): Promise<void> {
    const d = this.daemon;
    if (!d || d.exitCode !== null || d.signalCode !== null) return;
    const exited = new Promise((r) => d.once('exit', r));
    d.kill('SIGTERM');
    await exited;
  }

  /** Switches the pinpad's timing profile: a clean stop of both, a new pinpad, the daemon started on it. */
  async switchTiming(timing: Timing, shared: Record<string, string>): Promise<void> {
    await this.stop();
    await this.stopPinpad();
    await this.startPinpad(timing);
    await this.startDaemon(shared);
  }

  async call(
    method: 'GET' | 'POST',
    p: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: any }> {
    const r = await request(`${this.api}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      // A loaded daemon answers late; a dead one resets the connection at once.
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    const text = await r.body.text();
    return { status: r.statusCode, body: text ? JSON.parse(text) : undefined };
  }
}
