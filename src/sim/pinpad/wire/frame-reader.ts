import { ACK, CAN, DC3, ESCAPED_FORMS, ETB, linkCrc, MAX_PKTDATA, NAK, SYN } from './link-bytes.js';

/** Why the pinpad NAKs a packet (§6.2.1). */
export type RejectReason =
  /** A byte took longer than the inter-byte limit inside a packet. */
  | 'timeout'
  /** The CRC after ETB does not match. */
  | 'crc'
  /** DC3 followed by a byte other than 33h, 36h or 37h (§2.2.1 lists only these three substitutions). */
  | 'escape'
  /** PKTDATA longer than the limit (2049 bytes; 1024 for a classic command, §2.2.1). */
  | 'too-long'
  /** ETB straight after SYN: no PKTDATA at all. */
  | 'empty';

/** What the reader tells the pinpad to do, in order. */
export type ReaderEvent =
  /** A whole packet arrived with a good CRC: ACK it and process PKTDATA. */
  | { type: 'packet'; data: Uint8Array }
  /** A bad packet was followed by the silence §6.2.1 asks for: send NAK now. */
  | { type: 'reject'; reason: RejectReason; length: number }
  /** CAN outside a packet: abort a blocking command, answer EOT. */
  | { type: 'can' }
  /** NAK outside a packet: resend the last answer (ignored if none). */
  | { type: 'nak' }
  /** ACK outside a packet (the terminal never sends one; counted for tests). */
  | { type: 'ack' };

export interface FrameReaderOptions {
  /** §6.2.1: the pinpad waits up to 1.5 s for each byte inside a packet. */
  interByteMs?: number;
  /** §6.2.1: after a bad packet, bytes are discarded until this much silence, then NAK. */
  silenceMs?: number;
  /** The longest PKTDATA for a packet that starts with `head` (the first bytes read; called as it grows). */
  limitFor?: (head: Uint8Array) => number;
}

type Phase = 'idle' | 'data' | 'escape' | 'crc1' | 'crc2' | 'discard';

/**
 * The pinpad side of the link level (ABECS 2.20 §6.2.1 flowchart), as a clock-driven state machine:
 * `push(bytes, now)` feeds what the serial port delivered, `tick(now)` lets time pass, and
 * `deadline()` says when the next tick matters. It never throws. Outside a packet only SYN, CAN and
 * NAK mean something (other bytes, ACK included, are dropped as noise); inside a packet every byte is
 * data until ETB. A bad packet is not NAKed at once: its remaining bytes are thrown away until the
 * line has been quiet for `silenceMs`, and only then comes the NAK.
 */
export class PinpadFrameReader {
  private phase: Phase = 'idle';
  private buf = new Uint8Array(MAX_PKTDATA);
  private len = 0;
  private raw = 0;
  private crcHi = 0;
  private lastByteAt = 0;
  private reason: RejectReason = 'timeout';
  private readonly interByteMs: number;
  private readonly silenceMs: number;
  private readonly limitFor: (head: Uint8Array) => number;
  /** Bytes dropped as noise outside packets (for tests and the control port). */
  noise = 0;

  constructor(opts: FrameReaderOptions = {}) {
    this.interByteMs = opts.interByteMs ?? 1500;
    this.silenceMs = opts.silenceMs ?? 500;
    this.limitFor = opts.limitFor ?? (() => MAX_PKTDATA);
  }

  /** True while a packet is being read or a bad one discarded. */
  get busy(): boolean {
    return this.phase !== 'idle';
  }

  /** When `tick` next has something to do, or undefined when idle. */
  deadline(): number | undefined {
    if (this.phase === 'idle') return undefined;
    return this.lastByteAt + (this.phase === 'discard' ? this.silenceMs : this.interByteMs);
  }

  /** Forgets any packet in progress (a new connection, a replug). */
  reset(): void {
    this.phase = 'idle';
    this.len = 0;
    this.raw = 0;
  }

  /** Lets time pass: an inter-byte timeout starts the discard; the end of the silence gives the NAK. */
  tick(now: number): ReaderEvent[] {
    const out: ReaderEvent[] = [];
    this.advance(now, out);
    return out;
  }

  /** Bytes from the serial port, all received at `now`. */
  push(bytes: Uint8Array, now: number): ReaderEvent[] {
    const out: ReaderEvent[] = [];
    this.advance(now, out);
    for (const b of bytes) this.step(b, now, out);
    return out;
  }

  private advance(now: number, out: ReaderEvent[]): void {
    if (this.phase !== 'idle' && this.phase !== 'discard' && now - this.lastByteAt >= this.interByteMs) {
      // the packet stopped: from the moment the wait ran out, discard until silence
      this.lastByteAt += this.interByteMs;
      this.toDiscard('timeout');
    }
    if (this.phase === 'discard' && now - this.lastByteAt >= this.silenceMs) {
      out.push({ type: 'reject', reason: this.reason, length: this.raw });
      this.reset();
    }
  }

  private toDiscard(reason: RejectReason): void {
    this.phase = 'discard';
    this.reason = reason;
  }

  private step(b: number, now: number, out: ReaderEvent[]): void {
    this.lastByteAt = now;
    switch (this.phase) {
      case 'idle':
        if (b === SYN) {
          this.phase = 'data';
          this.len = 0;
          this.raw = 1;
        } else if (b === CAN) out.push({ type: 'can' });
        else if (b === NAK) out.push({ type: 'nak' });
        else if (b === ACK) out.push({ type: 'ack' });
        else this.noise++;
        return;
      case 'discard':
        this.raw++;
        return;
      case 'data':
        this.raw++;
        if (b === ETB) {
          if (this.len === 0) this.toDiscard('empty');
          else this.phase = 'crc1';
        } else if (b === DC3) this.phase = 'escape';
        else this.append(b);
        return;
      case 'escape':
        this.raw++;
        if (!ESCAPED_FORMS.has(b)) this.toDiscard('escape');
        else {
          this.phase = 'data';
          this.append(b - 0x20);
        }
        return;
      case 'crc1':
        this.raw++;
        this.crcHi = b;
        this.phase = 'crc2';
        return;
      case 'crc2': {
        this.raw++;
        const data = this.buf.slice(0, this.len);
        if (((this.crcHi << 8) | b) === linkCrc(data)) {
          out.push({ type: 'packet', data });
          this.reset();
        } else this.toDiscard('crc');
        return;
      }
    }
  }

  private append(b: number): void {
    const limit = Math.min(MAX_PKTDATA, this.limitFor(this.buf.subarray(0, this.len)));
    if (this.len >= limit) {
      this.toDiscard('too-long');
      return;
    }
    this.buf[this.len++] = b;
  }
}
