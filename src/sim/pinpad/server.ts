import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { PinpadMemory } from './memory.js';
import { SimEngine, type SimHandler } from './engine.js';
import type { Fault } from './faults.js';
import { handlersFor } from './handlers/index.js';
import { profile as makeProfile, type VirtualPinpadProfile } from './profile.js';

export interface VirtualPinpadOptions {
  profile?: Partial<VirtualPinpadProfile>;
  /** TCP port to listen on (0 = any free port). */
  tcpPort?: number;
  host?: string;
  /** Also expose it as a pseudo-terminal at this stable path (socat `link=`). */
  ptyPath?: string;
  /** Extra command handlers (the secure channel and card commands of later issues). */
  handlers?: ReadonlyMap<string, SimHandler>;
  /** Cardholder typing delay when no keys are scripted, ms; null = never types (default 50). */
  typingMs?: number | null;
  /**
   * A file for what the pinpad keeps across power cycles (its DUKPT counters): a simulator started
   * again on it goes on where the last one stopped. Absent: the memory lasts as long as the process.
   */
  memoryPath?: string;
  /** Reports what happens (plug, unplug, connections) for logs. */
  onEvent?: (event: string, detail?: Record<string, unknown>) => void;
}

/**
 * The virtual pinpad: a SimEngine behind a TCP server (one terminal at a time) and, optionally, a
 * pseudo-terminal at a stable path made by socat bridging to that server. Unplug kills socat (the
 * path disappears, the terminal's port gets EIO) or drops the TCP connection; replug recreates
 * socat at the same path, so a reconnect that reopens the path finds the new device.
 */
export class VirtualPinpad {
  readonly engine: SimEngine;
  readonly profile: VirtualPinpadProfile;
  private server: net.Server | undefined;
  private client: net.Socket | undefined;
  private socat: ChildProcess | undefined;
  private replugTimer: NodeJS.Timeout | undefined;
  private unplugged = false;
  port = 0;
  /** Times the cable was pulled and plugged back (for tests that must see a real replug). */
  readonly plugs = { unplugged: 0, replugged: 0 };

  constructor(private readonly opts: VirtualPinpadOptions = {}) {
    this.profile = makeProfile(opts.profile);
    this.engine = new SimEngine({
      profile: this.profile,
      handlers: handlersFor(this.profile.classicOnly, opts.handlers),
      output: (bytes) => {
        if (this.client && !this.client.destroyed) this.client.write(bytes);
      },
      unplug: (ms) => void this.unplug(ms),
      ...(opts.memoryPath !== undefined ? { memory: new PinpadMemory(opts.memoryPath) } : {}),
      ...(opts.typingMs !== undefined ? { typingMs: opts.typingMs } : {}),
    });
  }

  /** Starts listening (and the pty, if asked). */
  async start(): Promise<void> {
    const server = net.createServer((socket) => {
      // Unplugged: nobody gets in. Behind a pty, the socat bridge is the cable: a second client is refused.
      if (this.unplugged || (this.opts.ptyPath !== undefined && this.client && !this.client.destroyed)) {
        socket.destroy();
        return;
      }
      this.client?.destroy();
      this.client = socket;
      socket.setNoDelay(true);
      this.engine.reset();
      this.opts.onEvent?.('connected', { remote: socket.remotePort });
      socket.on('data', (d: Buffer) => this.engine.receive(d));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (this.client === socket) this.client = undefined;
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.tcpPort ?? 0, this.opts.host ?? '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    if (this.opts.ptyPath) await this.startPty();
  }

  inject(f: Fault): void {
    this.engine.inject(f);
  }

  /** Pulls the cable: kills the pty (its path disappears) or drops the TCP client; plugs back after `replugAfterMs`. */
  async unplug(replugAfterMs?: number): Promise<void> {
    this.unplugged = true;
    this.plugs.unplugged++;
    this.engine.faults.clear();
    this.opts.onEvent?.('unplugged', { replugAfterMs });
    this.client?.destroy();
    this.client = undefined;
    await this.stopPty();
    if (replugAfterMs !== undefined) {
      this.replugTimer = setTimeout(() => void this.replug(), replugAfterMs);
    }
  }

  /** Plugs back in (the pty reappears at the same path). */
  async replug(): Promise<void> {
    if (this.replugTimer) clearTimeout(this.replugTimer);
    this.replugTimer = undefined;
    this.unplugged = false;
    this.engine.reset();
    if (this.opts.ptyPath) await this.startPty();
    this.plugs.replugged++;
    this.opts.onEvent?.('replugged');
  }

  /** Powers off: the command running and its timers end unanswered, the client and the pty go, the port closes. */
  async stop(): Promise<void> {
    if (this.replugTimer) clearTimeout(this.replugTimer);
    this.engine.powerOff();
    this.client?.destroy();
    await this.stopPty();
    await new Promise((r) => (this.server ? this.server.close(r) : r(undefined)));
  }

  private async startPty(): Promise<void> {
    const path = this.opts.ptyPath!;
    const child = spawn('socat', [`pty,raw,echo=0,link=${path}`, `tcp:127.0.0.1:${this.port},nodelay`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.socat = child;
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (e) => reject(new Error(`socat could not start (${e.message}); install socat for --pty`)));
      child.once('exit', (code) => reject(new Error(`socat exited with ${code} before ${path} appeared`)));
    });
    failed.catch(() => undefined);
    const appeared = (async () => {
      while (!existsSync(path)) await new Promise((r) => setTimeout(r, 10));
    })();
    await Promise.race([appeared, failed]);
  }

  private async stopPty(): Promise<void> {
    const child = this.socat;
    this.socat = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}
