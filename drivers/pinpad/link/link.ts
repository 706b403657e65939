import { FrameDecoder } from '../decoder.js';
import { PinpadError } from '../errors.js';
import { encodeFrame } from '../frame.js';
import type { DriverLogger } from '../logger.js';
import type { Transport } from '../../transport/index.js';
import {
  INITIAL_LINK_STATE,
  transition,
  type FailReason,
  type LinkEffect,
  type LinkInput,
  type LinkState,
} from './machine.js';
import type { LinkTimings } from './timings.js';

/**
 * A layer between application data and packets: identity for clear traffic; the secure channel of
 * §5.2 (the secure channel, secure/) seals commands as DC2 + AES and opens answers. `open` may throw (a packet that
 * does not decrypt): the command waiting for that answer fails with the error thrown.
 */
export interface PacketLayer {
  seal(data: Uint8Array, commandId: string): Uint8Array;
  open(data: Uint8Array): Uint8Array;
}

export const CLEAR_LAYER: PacketLayer = { seal: (d) => d, open: (d) => d };

/** Why the link went down; the owner reconnects. */
export type LossReason =
  'read-error' | 'write-error' | 'port-closed' | 'probe-unanswered' | 'cancel-unanswered' | 'resync-unanswered';

interface Pending {
  readonly name: string;
  /** Its wait for the answer, ms, when not the link's own. */
  readonly responseMs?: number;
  resolve(data: Uint8Array): void;
  reject(e: PinpadError): void;
  onNotification?: (data: Uint8Array) => void;
}

const NTM = [0x4e, 0x54, 0x4d];

/** True for an NTM notification packet (§2.3.3). Secure packets (DC2…) are classified after decryption, by the secure channel. */
export function isNotification(data: Uint8Array): boolean {
  return data.length >= 3 && data[0] === NTM[0] && data[1] === NTM[1] && data[2] === NTM[2];
}

function errorFor(
  name: string,
  reason: FailReason,
  t: LinkTimings,
  cause?: unknown,
  responseMs = t.responseMs,
): PinpadError {
  const ctx = { command: name, reason };
  switch (reason) {
    case 'nak':
      return new PinpadError('PINPAD_NAK', `${name}: the pinpad refused the packet ${t.sendTries} times (NAK)`, ctx);
    case 'bad-response':
      return new PinpadError('PINPAD_NAK', `${name}: the response failed its CRC ${t.receiveTries} times`, ctx);
    case 'no-ack':
      return new PinpadError('PINPAD_TIMEOUT', `${name}: no ACK/NAK within ${t.ackMs} ms`, {
        ...ctx,
        phase: 'ack',
        ms: t.ackMs,
      });
    case 'timeout':
      return new PinpadError('PINPAD_TIMEOUT', `${name}: no response within ${responseMs} ms`, {
        ...ctx,
        phase: 'response',
        ms: responseMs,
      });
    case 'cancelled':
      return new PinpadError('PINPAD_CANCELLED', `${name}: cancelled`, ctx);
    case 'cancel-unanswered':
      return new PinpadError(
        'PINPAD_DISCONNECTED',
        `${name}: cancel (CAN) not answered by EOT ${t.cancelTries} times`,
        ctx,
      );
    case 'disconnected':
      return new PinpadError('PINPAD_DISCONNECTED', `${name}: the pinpad link is down`, ctx);
    case 'unsealable':
      return new PinpadError(
        'PINPAD_DISCONNECTED',
        `${name}: could not be sealed for the secure session; not sent`,
        ctx,
        {
          cause,
        },
      );
  }
}

/**
 * Runs the link machine over one open transport: reads and decodes bytes, writes what the machine
 * says, keeps its one timer, and settles each command's promise. One Link per connection; when it
 * reports a loss it is finished and the owner builds a new one on a new transport.
 */
export class Link {
  private state: LinkState = INITIAL_LINK_STATE;
  private readonly decoder: FrameDecoder;
  /** The inter-byte timer of a packet being received (§2.2.3), apart from the machine's one timer. */
  private byteTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<number, Pending>();
  private probeWaiters: ((ok: boolean) => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerGen = 0;
  private nextId = 1;
  private inbox: LinkInput[] = [];
  private running = false;
  private lost = false;
  /** Commands the layer refused to seal when their turn came, with its error, until they fail. */
  private readonly unsealed = new Map<number, unknown>();
  /** Frames whose `open` failed, with the error, until their response settles. */
  private readonly unopened = new WeakMap<Uint8Array, unknown>();
  /** The packet layer in force; the session opener swaps it (secure channel) and a new link starts clear. */
  layer: PacketLayer = CLEAR_LAYER;
  /** Bytes written and read, for the benchmark and diagnostics. */
  readonly counters = { bytesOut: 0, bytesIn: 0, discarded: 0, badFrames: 0 };

  constructor(
    private readonly transport: Transport,
    private readonly timings: LinkTimings,
    private readonly log: DriverLogger,
    private readonly onLoss: (reason: LossReason, cause?: unknown) => void,
  ) {
    this.decoder = new FrameDecoder({ silenceMs: timings.silenceMs });
  }

  /** Starts reading and brings the machine up. */
  start(): void {
    this.dispatch({ type: 'up' });
    void this.readLoop();
  }

  get kind(): LinkState['kind'] {
    return this.state.kind;
  }

  /** True when nothing is on the wire or queued (an idle probe would disturb nothing). */
  get idle(): boolean {
    return this.state.kind === 'idle';
  }

  /** Queues a command (PKTDATA); resolves with the response's PKTDATA. */
  submit(
    name: string,
    data: Uint8Array,
    blocking: boolean,
    onNotification?: (data: Uint8Array) => void,
    responseMs?: number,
  ): { id: number; response: Promise<Uint8Array> } {
    const id = this.nextId++;
    // Encoded now to refuse at once what cannot be sent, and again when it goes on the wire: sealed
    // under the session in force then (a command queued before a new secure OPN leaves under the new key).
    // A command that cannot be sealed when its turn comes (the secure session is gone) is not sent at
    // all: never as it was queued, never in clear; it fails with the layer's error.
    encodeFrame(this.layer.seal(data, name));
    let sentWire: Uint8Array | undefined;
    const wireAtSend = (): Uint8Array | undefined => {
      if (sentWire) return sentWire;
      try {
        sentWire = encodeFrame(this.layer.seal(data, name));
      } catch (e) {
        this.log.warn(
          { cmd: name, id, err: (e as Error).message },
          'pinpad command could not be sealed at send; not sent',
        );
        this.unsealed.set(id, e);
      }
      return sentWire;
    };
    const response = new Promise<Uint8Array>((resolve, reject) => {
      this.pending.set(id, {
        name,
        resolve,
        reject,
        ...(onNotification ? { onNotification } : {}),
        ...(responseMs !== undefined ? { responseMs } : {}),
      });
    });
    this.log.debug({ cmd: name, id, bytes: data.length, blocking }, 'pinpad command queued');
    this.dispatch({
      type: 'submit',
      cmd: {
        id,
        name,
        blocking,
        ...(responseMs !== undefined ? { responseMs } : {}),
        get wire() {
          return wireAtSend();
        },
      },
    });
    return { id, response };
  }

  cancel(id: number): void {
    this.dispatch({ type: 'cancel', id });
  }

  /** Sends CAN on an idle link and waits for EOT; false if unanswered or the link is down. Does nothing (true) while a command runs. */
  probe(): Promise<boolean> {
    if (this.lost || this.state.kind === 'down') return Promise.resolve(false);
    if (!this.idle) return Promise.resolve(true);
    const p = new Promise<boolean>((r) => this.probeWaiters.push(r));
    this.dispatch({ type: 'probe' });
    return p;
  }

  /** Ends this link: fails what is pending as disconnected and closes the transport. */
  async shutdown(): Promise<void> {
    this.lost = true;
    this.dispatch({ type: 'down' });
    this.setTimer(null);
    this.setByteTimer(false);
    await this.transport.close();
  }

  private loss(reason: LossReason, cause?: unknown): void {
    if (this.lost) return;
    this.lost = true;
    this.log.warn({ reason, transport: this.transport.description }, 'pinpad link lost');
    this.dispatch({ type: 'down' });
    this.setTimer(null);
    this.setByteTimer(false);
    void this.transport.close();
    this.onLoss(reason, cause);
  }

  private async readLoop(): Promise<void> {
    for (;;) {
      let chunk: Uint8Array | null;
      try {
        chunk = await this.transport.read();
      } catch (e) {
        this.loss('read-error', e);
        return;
      }
      if (chunk === null) {
        if (!this.lost) this.loss('port-closed');
        return;
      }
      this.counters.bytesIn += chunk.length;
      const starts = this.decoder.starts;
      const events = this.decoder.push(chunk, performance.now());
      const inputs: LinkInput[] = [
        { type: 'activity', started: this.decoder.starts !== starts, at: performance.now() },
      ];
      for (const e of events) {
        if (e.type === 'frame') {
          let data: Uint8Array;
          try {
            data = this.layer.open(e.data);
          } catch (err) {
            data = e.data;
            this.unopened.set(data, err);
          }
          inputs.push({ type: 'frame', data, notification: !this.unopened.has(data) && isNotification(data) });
        } else if (e.type === 'control') inputs.push({ type: 'control', byte: e.byte });
        else if (e.type === 'bad-frame') {
          this.counters.badFrames++;
          this.log.debug({ reason: e.reason, length: e.length }, 'pinpad bad packet');
          inputs.push({ type: 'bad-frame' });
        } else {
          this.counters.discarded += e.count;
          this.log.debug({ count: e.count }, 'pinpad discarded bytes');
        }
      }
      this.setByteTimer(this.decoder.inFrame);
      this.dispatch(...inputs);
    }
  }

  /** (Re)arms the inter-byte timer while a packet is in progress; past it the packet is dropped as stalled. */
  private setByteTimer(inFrame: boolean): void {
    if (this.byteTimer) clearTimeout(this.byteTimer);
    this.byteTimer = undefined;
    if (!inFrame || this.lost) return;
    this.byteTimer = setTimeout(() => {
      this.byteTimer = undefined;
      const e = this.decoder.stall();
      if (!e || this.lost) return;
      this.counters.badFrames++;
      this.log.debug({ reason: 'stalled', length: e.type === 'bad-frame' ? e.length : 0 }, 'pinpad bad packet');
      this.dispatch({ type: 'bad-frame' });
    }, this.timings.interByteMs);
  }

  private setTimer(ms: number | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const gen = ++this.timerGen;
    if (ms !== null) {
      this.timer = setTimeout(() => {
        if (gen === this.timerGen) this.dispatch({ type: 'timeout' });
      }, ms);
    }
  }

  private dispatch(...inputs: LinkInput[]): void {
    this.inbox.push(...inputs);
    if (this.running) return;
    this.running = true;
    try {
      for (let input = this.inbox.shift(); input; input = this.inbox.shift()) {
        const r = transition(this.timings, this.state, input);
        this.state = r.state;
        for (const e of r.effects) this.run(e);
      }
    } finally {
      this.running = false;
    }
  }

  private run(e: LinkEffect): void {
    switch (e.type) {
      case 'write':
        // The pinpad speaks only when asked: a half packet on the line when we send (a stray SYN, an
        // answer cut short before our CAN), or the rest of a rejected one still being discarded, is
        // noise, and must not swallow the ACK or EOT to come (an EOT 100 ms after a rejected packet).
        if (this.decoder.inFrame || this.decoder.skipping) {
          this.decoder.reset();
          this.setByteTimer(false);
        }
        this.counters.bytesOut += e.bytes.length;
        if (e.what !== 'command') this.log.debug({ what: e.what }, 'pinpad control byte sent');
        this.transport.write(e.bytes).catch((err: unknown) => this.loss('write-error', err));
        return;
      case 'timer':
        this.setTimer(e.ms);
        return;
      case 'acked':
        return;
      case 'drop-partial':
        this.decoder.reset();
        this.setByteTimer(false);
        return;
      case 'resync-failed':
        if (!this.lost) queueMicrotask(() => this.loss('resync-unanswered'));
        return;
      case 'probed': {
        const waiters = this.probeWaiters.splice(0);
        for (const w of waiters) w(e.ok);
        if (!e.ok && !this.lost) queueMicrotask(() => this.loss('probe-unanswered'));
        return;
      }
      case 'notification':
        this.pending.get(e.id)?.onNotification?.(e.data);
        return;
      case 'response': {
        const p = this.pending.get(e.id);
        this.pending.delete(e.id);
        if (this.unopened.has(e.data)) {
          const err = this.unopened.get(e.data);
          p?.reject(
            err instanceof PinpadError
              ? err
              : new PinpadError(
                  'PINPAD_PROTOCOL',
                  `${p.name}: the answer does not open`,
                  { command: p.name },
                  { cause: err },
                ),
          );
        } else p?.resolve(e.data);
        return;
      }
      case 'failed': {
        const p = this.pending.get(e.id);
        this.pending.delete(e.id);
        const unsealed = this.unsealed.get(e.id);
        this.unsealed.delete(e.id);
        if (!p) return;
        this.log.info({ cmd: p.name, reason: e.reason }, 'pinpad command failed');
        p.reject(
          unsealed instanceof PinpadError && e.reason === 'unsealable'
            ? unsealed
            : errorFor(p.name, e.reason, this.timings, unsealed, p.responseMs),
        );
        if (e.reason === 'cancel-unanswered' && !this.lost) queueMicrotask(() => this.loss('cancel-unanswered'));
        return;
      }
    }
  }
}
