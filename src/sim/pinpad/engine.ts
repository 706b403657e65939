import type { PinpadMemory } from './memory.js';
import { FIXED_FIELD_COMMANDS } from './spec/commands.js';
import { FaultSet, type Fault } from './faults.js';
import type { VirtualPinpadProfile } from './profile.js';
import { timingFor, type TimingProfile } from './timing.js';
import { isCommandFault, parseCommand, writeAnswer } from './wire/command.js';
import { PinpadFrameReader, type ReaderEvent } from './wire/frame-reader.js';
import { twoLines } from './wire/two-lines.js';
import { CLEAR_LAYER, Refusal, type PacketLayer, type SimContext, type SimHandler, type SimState } from './handler.js';

export {
  Refusal,
  type PacketLayer,
  type SimCommand,
  type SimContext,
  type SimHandler,
  type SimState,
} from './handler.js';
import { CAN, DC2, EOT, MAX_CLASSIC_PKTDATA, MAX_PKTDATA, NAK, ACK, SYN, writePacket } from './wire/link-bytes.js';

/** Command ids the virtual pinpad keeps in `state.received` (the oldest go first). */
export const KEPT_RECEIVED = 10_000;

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
  /** Inter-byte limit inside a packet, ms (§6.2.1: 1.5 s). */
  interByteMs?: number;
  /** Silence before NAKing a bad packet, ms (§6.2.1: 500 ms). */
  silenceMs?: number;
  /** Processing times (default: the profile's `timing`). */
  timing?: TimingProfile;
  /** The clock (tests). */
  now?: () => number;
  /** What a power cycle keeps (default: a memory that lasts as long as the engine). */
  memory?: PinpadMemory;
}

const ERR_INVCALL = 10;
const ST_INVPARM = 11;
const ST_INTERR = 40;
const ST_RSPOVRFL = 45;
/** The largest answer that fits both a clear packet (2049) and a sealed one's CLRDATA (2044, §5.2.2). */
const MAX_CLRDATA_SEALED = 2044;

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/** The longest PKTDATA for a packet starting with `head`: 1024 for a classic command, 2049 otherwise (§2.2.1). */
export function packetLimit(head: Uint8Array): number {
  if (head.length < 3 || head[0] === DC2) return MAX_PKTDATA;
  return FIXED_FIELD_COMMANDS.has(latin1(head.subarray(0, 3))) ? MAX_CLASSIC_PKTDATA : MAX_PKTDATA;
}

/**
 * The pinpad side of the ABECS link (§6.2) over any byte pipe, with its own reader: ACK of a good
 * packet, NAK of a bad one after the silence §6.2.1 asks for, EOT to CAN, resend on NAK, abort of a
 * blocking command by CAN or a new packet, and dispatch of each command to a handler by CMD_ID
 * (unknown ids answer ERR010, §2.3.4; a broken block structure ST_INVPARM, §6.2.2). Each command
 * takes the profile's processing time before its answer. Faults are injected here.
 */
export class SimEngine {
  readonly faults = new FaultSet();
  readonly state: SimState;
  private readonly reader: PinpadFrameReader;
  private lastResponse: Uint8Array | undefined;
  private running: AbortController | undefined;
  /** Aborted when the simulator stops (then renewed for a start again): no held answer's timer outlives it. */
  private power = new AbortController();
  private keys: string[] = [];
  private keyWaiters: ((k: string) => void)[] = [];
  private tickTimer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  /** The pinpad's packet layer: clear by default; the secure channel sets its own after OPN. */
  layer: PacketLayer = CLEAR_LAYER;
  /** How long the simulated cardholder takes to type when no keys were scripted, ms; null = never types. */
  typingMs: number | null;
  /** Processing times per command. */
  timing: TimingProfile;

  constructor(private readonly opts: EngineOptions) {
    this.state = {
      display: ['', ''],
      opened: false,
      session: {},
      received: [],
      cans: 0,
      rejected: {},
      cardEpoch: 0,
      ...(opts.memory ? { memory: opts.memory } : {}),
    };
    this.typingMs = opts.typingMs === undefined ? 50 : opts.typingMs;
    this.now = opts.now ?? Date.now;
    this.timing = opts.timing ?? timingFor(opts.profile.timing, opts.profile.timingScale);
    this.reader = new PinpadFrameReader({
      interByteMs: opts.interByteMs ?? 1500,
      silenceMs: opts.silenceMs ?? 500,
      limitFor: packetLimit,
    });
  }

  /** Queues what the cardholder types next (for GCD and later PIN/menus). */
  type(keys: string): void {
    const w = this.keyWaiters.shift();
    if (w) w(keys);
    else this.keys.push(keys);
  }

  inject(f: Fault): void {
    if (f.kind === 'disconnect' && (f.when ?? 'now') === 'now') {
      this.opts.unplug?.(f.replugAfterMs);
      return;
    }
    if (f.kind === 'reboot' && f.command === undefined) {
      this.reboot();
      return;
    }
    this.faults.add(f);
  }

  /**
   * A reboot with the line up: the command running is gone (no answer), and so are the secure
   * session and the card (both live in `state.session`); the pinpad is closed (§6.4.5). The link
   * and the packet layer stay: a sealed packet now meets no session and is answered ERR003 (§6.3.2).
   */
  reboot(): void {
    this.abortRunning();
    this.lastResponse = undefined;
    this.state.session = {};
    this.state.opened = false;
    this.state.cardEpoch = (this.state.cardEpoch ?? 0) + 1;
    this.state.reboots = (this.state.reboots ?? 0) + 1;
  }

  /** Switched off (the simulator stopping): the command running and every answer still held end unsent. */
  powerOff(): void {
    this.reset();
    this.power.abort();
    this.power = new AbortController();
  }

  /** Forgets link state (a new connection, after a replug): back to clear traffic. */
  reset(): void {
    this.layer = CLEAR_LAYER;
    this.reader.reset();
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = undefined;
    this.running?.abort();
    this.running = undefined;
    this.lastResponse = undefined;
  }

  /** Bytes from the terminal. */
  receive(bytes: Uint8Array): void {
    this.handle(this.reader.push(bytes, this.now()));
    this.schedule();
  }

  /** Bytes dropped as line noise outside packets so far. */
  get noise(): number {
    return this.reader.noise;
  }

  private schedule(): void {
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = undefined;
    const at = this.reader.deadline();
    if (at === undefined) return;
    this.tickTimer = setTimeout(
      () => {
        this.tickTimer = undefined;
        this.handle(this.reader.tick(this.now()));
        this.schedule();
      },
      Math.max(0, at - this.now()) + 1,
    );
    this.tickTimer.unref();
  }

  private handle(events: readonly ReaderEvent[]): void {
    for (const e of events) {
      if (this.faults.silent()) continue;
      switch (e.type) {
        case 'can':
          this.state.cans++;
          this.abortRunning();
          // some firmware drops the EMV kernel's context on any CAN, even with a card session open
          if (this.faults.take('can-drops-emv')) this.state.cardEpoch = (this.state.cardEpoch ?? 0) + 1;
          this.write(Uint8Array.of(EOT));
          break;
        case 'nak':
          if (this.lastResponse) this.sendFrame(this.lastResponse);
          break;
        case 'reject': {
          const r = (this.state.rejected ??= {});
          r[e.reason] = (r[e.reason] ?? 0) + 1;
          this.write(Uint8Array.of(NAK));
          break;
        }
        case 'packet':
          this.onPacket(e.data);
          break;
        case 'ack':
          break;
      }
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
      this.write(Uint8Array.of(NAK));
      return;
    }
    const id = data[0] === DC2 ? this.layer.peekId?.(data) : latin1(data.subarray(0, 3));
    if (data[0] === DC2 && id !== undefined && data.length > MAX_CLASSIC_PKTDATA && FIXED_FIELD_COMMANDS.has(id)) {
      // a sealed classic command over 1024 bytes (§2.2.1): refused as the reader refuses a clear one
      const r = (this.state.rejected ??= {});
      r['too-long'] = (r['too-long'] ?? 0) + 1;
      this.write(Uint8Array.of(NAK));
      return;
    }
    if (this.faults.takeReboot(id)) this.reboot(); // the packet finds the pinpad rebooted
    const unplug = this.faults.takeDisconnect(id, 'before-ack');
    if (unplug) {
      this.opts.unplug?.(unplug.replugAfterMs);
      return;
    }
    if (!this.faults.take('lost-ack')) this.write(Uint8Array.of(ACK));
    this.abortRunning();
    this.lastResponse = undefined;
    const mid = this.faults.takeDisconnect(id, 'mid-command');
    if (mid) {
      // the ACK is on its way; the cable goes while the command "runs"
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
      const cmd = parseCommand(opened);
      if (isCommandFault(cmd)) {
        id = cmd.kind === 'no-id' ? 'ERR' : latin1(opened.subarray(0, 3));
        response = writeAnswer(id, cmd.kind === 'no-id' ? ERR_INVCALL : ST_INVPARM);
      } else {
        id = cmd.id;
        this.state.received.push(id);
        // The last KEPT_RECEIVED ids only: a pinpad that serves 10^5 sales in a soak must not grow without bound.
        if (this.state.received.length > KEPT_RECEIVED)
          this.state.received.splice(0, this.state.received.length - KEPT_RECEIVED);
        const handler = this.opts.handlers.get(id);
        if (!handler) response = writeAnswer('ERR', ERR_INVCALL);
        else {
          if (await this.processing(cmd.id, opened, ac.signal)) return;
          response = await handler(
            { ...cmd, data: opened },
            this.context(ac.signal, (l) => (nextLayer = l)),
          );
        }
      }
    } catch (e) {
      if (ac.signal.aborted) return;
      response = writeAnswer(id, e instanceof Refusal ? e.status : ST_INTERR);
    }
    if (ac.signal.aborted) return;
    if (this.running === ac) this.running = undefined;
    // an answer that does not fit a packet (2049 bytes clear, 2044 of CLRDATA sealed) is ST_RSPOVRFL (§6.4.3)
    if (response.length > MAX_CLRDATA_SEALED) response = writeAnswer(id, ST_RSPOVRFL);
    try {
      await this.respond(response, id, ac.signal);
    } catch {
      // never let one answer take the pinpad down: the terminal sees a lost answer
    }
    if (nextLayer) this.layer = nextLayer;
  }

  /** Waits the command's processing time; true when aborted meanwhile. */
  private processing(id: string, data: Uint8Array, signal: AbortSignal): Promise<boolean> {
    return this.processingFor(this.timing.processingMs(id, data), signal);
  }

  /** Waits `ms`, cut short by an abort (CAN, a new command, a reset, the pinpad stopped); true when aborted. */
  private processingFor(ms: number, signal: AbortSignal): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(signal.aborted);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      signal.addEventListener('abort', () => (clearTimeout(t), resolve(true)), { once: true });
    });
  }

  private async respond(data: Uint8Array, id: string, signal: AbortSignal): Promise<void> {
    const delay = this.faults.take('delay');
    // A late answer outlives a new command (it is already on its way), not the pinpad's power.
    const power = this.power.signal;
    if (delay) await this.processingFor(delay.ms, power);
    if (signal.aborted || power.aborted || this.faults.silent()) return;
    const garbage = this.faults.take('garbage');
    if (garbage) this.write(noise(garbage.bytes ?? 16, garbage.control ?? false));
    const frame = writePacket(this.layer.seal(data, data.length >= 3 ? latin1(data.subarray(0, 3)) : ''));
    this.lastResponse = frame;
    if (this.faults.take('lost-answer')) return; // gone on the wire; a NAK still brings it back
    const unplug = this.faults.takeDisconnect(id, 'mid-answer');
    if (unplug) {
      this.write(frame.subarray(0, Math.max(1, frame.length >> 1)));
      this.opts.unplug?.(unplug.replugAfterMs);
      return;
    }
    const cut = this.faults.take('truncated-answer');
    if (cut) {
      this.write(frame.subarray(0, Math.max(1, Math.min(frame.length - 1, cut.keep ?? frame.length >> 1))));
      return;
    }
    this.sendFrame(frame);
  }

  /** Sends an answer packet, with its CRC spoiled while a bad-crc fault lasts (resends on NAK count too). */
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
        if (signal.aborted) return;
        const ntm = writeAnswer('NTM', 0, [Buffer.from(twoLines(text), 'latin1')]); // 2 lines of 16 (§2.3.3)
        // a clear NTM inside a session is a firmware fault some pinpads have: the terminal must not trust it
        this.write(writePacket(this.faults.take('clear-ntm') ? ntm : this.layer.seal(ntm, 'NTM')));
      },
      nextKeys: () => {
        const k = this.keys.shift();
        if (k !== undefined) return Promise.resolve(k);
        const typingMs = this.typingMs;
        return new Promise((resolve) => {
          const t =
            typingMs === null
              ? undefined
              : setTimeout(() => {
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

/** Line noise: printable junk, or (with `control`) the link's own control bytes and stray SYNs among it. */
export function noise(bytes: number, control: boolean): Uint8Array {
  const plain = [0x00, 0x41, 0xff, 0x7e, 0x30, 0x20];
  const ctl = [SYN, 0x41, ACK, 0x00, NAK, 0xff, EOT, SYN, CAN, 0x30];
  const src = control ? ctl : plain;
  return Uint8Array.from({ length: bytes }, (_, i) => src[i % src.length]!);
}
