import { CLEAR_LAYER, control, decodeCommand, encodeFrame, encodeResponse, FrameDecoder, isPinpadError, type PacketLayer } from '../../../drivers/pinpad/index.js';
import { FaultSet, type Fault } from './faults.js';
import type { VirtualPinpadProfile } from './profile.js';

/** A command as a handler sees it. */
export interface SimCommand {
  readonly id: string;
  readonly blocks: readonly Uint8Array[];
  /** The whole PKTDATA (CMD_ID and blocks). */
  readonly data: Uint8Array;
}

/** What a handler can see and do. */
export interface SimContext {
  readonly profile: VirtualPinpadProfile;
  readonly state: SimState;
  /** Aborted when CAN or a new command arrives (§6.2.1): a blocking handler stops and answers nothing. */
  readonly signal: AbortSignal;
  /** Sends an NTM notification (§2.3.3) while a blocking command runs. */
  notify(text: string): void;
  /** Waits for the cardholder to type (the `keys` control command or the default). */
  nextKeys(): Promise<string>;
  /** Switches the packet layer once this command's answer is out (secure OPN answers in clear, then seals). */
  setLayerAfterResponse(layer: PacketLayer): void;
}

/** A handler returns the response's PKTDATA (see encodeResponse). Throwing gives ST_INTERR. */
export type SimHandler = (cmd: SimCommand, ctx: SimContext) => Uint8Array | Promise<Uint8Array>;

/** The pinpad's own state: display, session. The secure channel (issue 5) keeps its key here. */
export interface SimState {
  display: string[];
  opened: boolean;
  /** Free slots for later issues (secure session key, held track, EMV tables). */
  session: Record<string, unknown>;
  /** Commands received, by id, in order (for tests). */
  received: string[];
  /** CAN bytes received (a probe or a cancel), for tests that prove none came. */
  cans: number;
}

export interface EngineOptions {
  profile: VirtualPinpadProfile;
  handlers: ReadonlyMap<string, SimHandler>;
  /** Writes bytes to the terminal. */
  output: (bytes: Uint8Array) => void;
  /** Asked to unplug (disconnect fault); `replugAfterMs` says when to plug back, if ever. */
  unplug?: (replugAfterMs: number | undefined) => void;
  /** What the cardholder types when nobody scripted keys, after `typingMs` (default "12345", 50 ms; null = never). */
  defaultKeys?: string;
  typingMs?: number | null;
  /** Inter-byte timeout inside a packet, ms (§6.2.1: 1.5 s). */
  interByteMs?: number;
}

const ERR_INVCALL = 10;
const ST_INTERR = 40;

/**
 * The pinpad side of the ABECS link (§6.2.1) over any byte pipe: ACK/NAK of packets, EOT to CAN,
 * resend on NAK, abort of a blocking command by CAN or a new command, and dispatch of each command
 * to a handler by CMD_ID (unknown ids answer ERR010, §2.3.4). Faults are injected here.
 */
export class SimEngine {
  readonly faults = new FaultSet();
  readonly state: SimState = { display: ['', ''], opened: false, session: {}, received: [], cans: 0 };
  private readonly decoder = new FrameDecoder();
  private lastResponse: Uint8Array | undefined;
  private running: AbortController | undefined;
  private keys: string[] = [];
  private keyWaiters: ((k: string) => void)[] = [];
  private interByte: NodeJS.Timeout | undefined;
  private unplugMidCommand: { replugAfterMs: number | undefined } | undefined;
  /** The pinpad's packet layer: clear by default; the secure channel (issue 5) sets its own after OPN. */
  layer: PacketLayer = CLEAR_LAYER;
  /** How long the simulated cardholder takes to type when no keys were scripted, ms; null = never types. */
  typingMs: number | null;

  constructor(private readonly opts: EngineOptions) {
    this.typingMs = opts.typingMs === undefined ? 50 : opts.typingMs;
  }

  /** Queues what the cardholder types next (for GCD and later PIN/menus). */
  type(keys: string): void {
    const w = this.keyWaiters.shift();
    if (w) w(keys);
    else this.keys.push(keys);
  }

  inject(f: Fault): void {
    if (f.kind === 'disconnect') {
      if ((f.when ?? 'now') === 'now') this.opts.unplug?.(f.replugAfterMs);
      else this.unplugMidCommand = { replugAfterMs: f.replugAfterMs };
      return;
    }
    this.faults.add(f);
  }

  /** Forgets link state (a new connection, after a replug): back to clear traffic. */
  reset(): void {
    this.layer = CLEAR_LAYER;
    this.decoder.reset();
    this.running?.abort();
    this.running = undefined;
    this.lastResponse = undefined;
  }

  /** Bytes from the terminal. */
  receive(bytes: Uint8Array): void {
    if (this.interByte) clearTimeout(this.interByte);
    for (const e of this.decoder.push(bytes)) {
      if (this.faults.silent()) continue;
      if (e.type === 'control') {
        if (e.byte === control.CAN) {
          this.state.cans++;
          this.abortRunning();
          this.write(Uint8Array.of(control.EOT));
        } else if (e.byte === control.NAK && this.lastResponse) this.sendFrame(this.lastResponse);
      } else if (e.type === 'bad-frame') this.write(Uint8Array.of(control.NAK));
      else if (e.type === 'frame') this.onPacket(e.data);
    }
    if (this.decoder.inFrame) {
      this.interByte = setTimeout(() => this.decoder.reset(), this.opts.interByteMs ?? 1500);
      this.interByte.unref();
    }
  }

  private write(bytes: Uint8Array): void {
    this.opts.output(bytes);
  }

  private abortRunning(): void {
    this.running?.abort();
    this.running = undefined;
  }

  private onPacket(data: Uint8Array): void {
    if (this.faults.take('nak-storm')) {
      this.write(Uint8Array.of(control.NAK));
      return;
    }
    if (!this.faults.take('lost-ack')) this.write(Uint8Array.of(control.ACK));
    this.abortRunning();
    this.lastResponse = undefined;
    const mid = this.unplugMidCommand;
    if (mid) {
      // the ACK is on its way; the cable goes while the command "runs"
      this.unplugMidCommand = undefined;
      setTimeout(() => this.opts.unplug?.(mid.replugAfterMs), 50);
      return;
    }
    const ac = new AbortController();
    this.running = ac;
    void this.execute(data, ac);
  }

  private async execute(data: Uint8Array, ac: AbortController): Promise<void> {
    let response: Uint8Array;
    let id = 'ERR';
    let nextLayer: PacketLayer | undefined;
    try {
      const opened = this.layer.open(data);
      const cmd = decodeCommand(opened);
      id = cmd.id;
      this.state.received.push(id);
      const handler = this.opts.handlers.get(id);
      if (!handler) response = encodeResponse('ERR', ERR_INVCALL);
      else response = await handler({ ...cmd, data: opened }, this.context(ac.signal, (l) => (nextLayer = l)));
    } catch (e) {
      if (ac.signal.aborted) return;
      response = encodeResponse(id, isPinpadError(e) && e.code === 'PINPAD_PROTOCOL' ? 11 : ST_INTERR);
    }
    if (ac.signal.aborted) return;
    if (this.running === ac) this.running = undefined;
    await this.respond(response, ac.signal);
    if (nextLayer) this.layer = nextLayer;
  }

  private async respond(data: Uint8Array, signal: AbortSignal): Promise<void> {
    const delay = this.faults.take('delay');
    if (delay) await new Promise((r) => setTimeout(r, delay.ms));
    if (signal.aborted || this.faults.silent()) return;
    const garbage = this.faults.take('garbage');
    if (garbage) {
      const noise = [0x00, 0x41, 0xff, 0x7e, 0x30, 0x20];
      this.write(Uint8Array.from({ length: garbage.bytes ?? 16 }, (_, i) => noise[i % noise.length]!));
    }
    const frame = encodeFrame(this.layer.seal(data, data.length >= 3 ? Buffer.from(data.subarray(0, 3)).toString('latin1') : ''));
    this.lastResponse = frame;
    this.sendFrame(frame);
  }

  /** Sends a response packet, with its CRC spoiled while a bad-crc fault lasts (resends on NAK count too). */
  private sendFrame(frame: Uint8Array): void {
    if (this.faults.take('bad-crc')) {
      const bad = Uint8Array.from(frame);
      bad[bad.length - 1] = bad[bad.length - 1]! ^ 0xff;
      this.write(bad);
    } else this.write(frame);
  }

  private context(signal: AbortSignal, setLayer: (l: PacketLayer) => void): SimContext {
    return {
      setLayerAfterResponse: setLayer,
      profile: this.opts.profile,
      state: this.state,
      signal,
      notify: (text) => {
        if (!signal.aborted) this.write(encodeFrame(this.layer.seal(encodeResponse('NTM', 0, [Buffer.from(text.slice(0, 32), 'latin1')]), 'NTM')));
      },
      nextKeys: () => {
        const k = this.keys.shift();
        if (k !== undefined) return Promise.resolve(k);
        const typingMs = this.typingMs;
        return new Promise((resolve) => {
          const t = typingMs === null ? undefined : setTimeout(() => {
            const i = this.keyWaiters.indexOf(waiter);
            if (i >= 0) this.keyWaiters.splice(i, 1);
            resolve(this.opts.defaultKeys ?? '12345');
          }, typingMs);
          const waiter = (keys: string): void => {
            clearTimeout(t);
            resolve(keys);
          };
          this.keyWaiters.push(waiter);
          signal.addEventListener(
            'abort',
            () => {
              clearTimeout(t);
              const i = this.keyWaiters.indexOf(waiter);
              if (i >= 0) this.keyWaiters.splice(i, 1);
            },
            { once: true },
          );
        });
      },
    };
  }
}
