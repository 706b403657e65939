import { ACK, CAN, DC3, EOT, ETB, MAX_PKTDATA, NAK, SYN } from './control.js';
import { packetCrc } from './frame.js';

/** Why a packet was dropped. */
export type BadFrameReason =
  /** The CRC after ETB does not match. The link answers NAK. */
  | 'crc'
  /** DC3 followed by a byte other than 33h, 36h or 37h (§2.2.1: only DC3, SYN and ETB are escaped). */
  | 'escape'
  /** More than 2049 bytes of PKTDATA before ETB. */
  | 'too-long'
  /** A new SYN arrived before ETB: the packet was cut short. */
  | 'truncated'
  /** No byte for the inter-byte time (§2.2.3: 2 s) inside a packet: the rest never came. */
  | 'stalled';

/** What the decoder saw in the byte stream, in order. */
export type LinkEvent =
  | { type: 'frame'; data: Uint8Array }
  | { type: 'control'; byte: typeof ACK | typeof NAK | typeof EOT | typeof CAN }
  | { type: 'bad-frame'; reason: BadFrameReason; length: number }
  /** Bytes outside any packet that are not control bytes (line noise, a half packet). Count only: never the bytes. */
  | { type: 'discarded'; count: number };

type Phase = 'hunt' | 'data' | 'escape' | 'crc1' | 'crc2' | 'skip';

/** Options of the decoder. */
export interface FrameDecoderOptions {
  /**
   * After a rejected packet (bad escape, over-long) every byte is discarded until this much silence,
   * ms (§2.2.3: 500 ms): the rest of that packet is never read as ACK, NAK, EOT or a new SYN. Needs
   * the time of each chunk (`push(chunk, now)`). Absent: the decoder hunts for the next SYN at once.
   */
  silenceMs?: number;
}

/**
 * Incremental packet decoder (§2.2.1, §2.2.3 "Recepção de resposta"). Pure and total: any byte
 * sequence, split anywhere, gives events and never an exception. Outside a packet, ACK/NAK/EOT/CAN
 * are control bytes and anything else but SYN is discarded; inside, everything up to ETB is data,
 * DC3 x means x - 20h (x is 33h, 36h or 37h), and the two bytes after ETB are the CRC (raw, never
 * escaped). With `silenceMs`, a rejected packet's remaining bytes are discarded until silence.
 */
export class FrameDecoder {
  private phase: Phase = 'hunt';
  private buf = new Uint8Array(MAX_PKTDATA);
  private len = 0;
  private raw = 0;
  private crcHi = 0;
  private discarded = 0;
  private lastAt = Number.NEGATIVE_INFINITY;
  private startCount = 0;

  constructor(private readonly opts: FrameDecoderOptions = {}) {}

  /** Feeds bytes that arrived at `now` (ms, any monotonic clock; needed only with `silenceMs`); returns what they completed. */
  push(chunk: Uint8Array, now = 0): LinkEvent[] {
    const out: LinkEvent[] = [];
    if (this.phase === 'skip' && chunk.length > 0 && now - this.lastAt >= (this.opts.silenceMs ?? 0))
      this.phase = 'hunt';
    for (const b of chunk) this.step(b, out);
    if (chunk.length > 0) this.lastAt = now;
    this.flushDiscarded(out);
    return out;
  }

  /** True while a packet has started and not ended (not while discarding a rejected one). */
  get inFrame(): boolean {
    return this.phase !== 'hunt' && this.phase !== 'skip';
  }

  /** True while the rest of a rejected packet is being discarded until silence. */
  get skipping(): boolean {
    return this.phase === 'skip';
  }

  /** Packets started (SYN seen outside a packet) since the decoder was made. */
  get starts(): number {
    return this.startCount;
  }

  /**
   * The inter-byte time ran out inside a packet (§2.2.3): drops it and reports it as `stalled`.
   * Returns the event, or undefined when no packet was in progress.
   */
  stall(): LinkEvent | undefined {
    if (!this.inFrame) return undefined;
    const length = this.raw;
    this.phase = 'hunt';
    this.len = 0;
    this.raw = 0;
    return { type: 'bad-frame', reason: 'stalled', length };
  }

  /** Drops a partial packet or ends a discard (after a silence, or when the link resets); returns the partial packet's raw length (0 if none). */
  reset(): number {
    const dropped = this.inFrame ? this.raw : 0;
    this.phase = 'hunt';
    this.len = 0;
    this.raw = 0;
    return dropped;
  }

  private flushDiscarded(out: LinkEvent[]): void {
    if (this.discarded > 0) {
      out.push({ type: 'discarded', count: this.discarded });
      this.discarded = 0;
    }
  }

  private start(): void {
    this.startCount++;
    this.phase = 'data';
    this.len = 0;
    this.raw = 1;
  }

  private bad(reason: BadFrameReason, out: LinkEvent[]): void {
    out.push({ type: 'bad-frame', reason, length: this.raw });
    // a packet rejected in the middle: its remaining bytes are not control bytes nor a new packet
    this.phase = (reason === 'escape' || reason === 'too-long') && this.opts.silenceMs !== undefined ? 'skip' : 'hunt';
    this.len = 0;
    this.raw = 0;
  }

  private append(b: number, out: LinkEvent[]): void {
    if (this.len >= MAX_PKTDATA) {
      this.bad('too-long', out);
      return;
    }
    this.buf[this.len++] = b;
  }

  private step(b: number, out: LinkEvent[]): void {
    switch (this.phase) {
      case 'skip':
        this.discarded++;
        return;
      case 'hunt':
        if (b === SYN) {
          this.flushDiscarded(out);
          this.start();
        } else if (b === ACK || b === NAK || b === EOT || b === CAN) {
          this.flushDiscarded(out);
          out.push({ type: 'control', byte: b });
        } else this.discarded++;
        return;
      case 'data':
        this.raw++;
        if (b === ETB) this.phase = 'crc1';
        else if (b === DC3) this.phase = 'escape';
        else if (b === SYN) {
          this.raw--;
          this.bad('truncated', out);
          this.start();
        } else this.append(b, out);
        return;
      case 'escape':
        this.raw++;
        if (b === SYN) {
          this.raw--;
          this.bad('truncated', out);
          this.start();
        } else if (b !== 0x33 && b !== 0x36 && b !== 0x37) this.bad('escape', out);
        else {
          this.phase = 'data';
          this.append(b - 0x20, out);
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
        if (this.len > 0 && ((this.crcHi << 8) | b) === packetCrc(data)) {
          out.push({ type: 'frame', data });
          this.phase = 'hunt';
          this.len = 0;
          this.raw = 0;
        } else this.bad('crc', out);
        return;
      }
    }
  }
}
