import { ACK, CAN, DC3, EOT, ETB, MAX_PKTDATA, NAK, SYN } from './control.js';
import { packetCrc } from './frame.js';

/** Why a packet was dropped. */
export type BadFrameReason =
  /** The CRC after ETB does not match. The link answers NAK. */
  | 'crc'
  /** DC3 followed by a byte that is not an escape (below 20h). */
  | 'escape'
  /** More than 2049 bytes of PKTDATA before ETB. */
  | 'too-long'
  /** A new SYN arrived before ETB: the packet was cut short. */
  | 'truncated';

/** What the decoder saw in the byte stream, in order. */
export type LinkEvent =
  | { type: 'frame'; data: Uint8Array }
  | { type: 'control'; byte: typeof ACK | typeof NAK | typeof EOT | typeof CAN }
  | { type: 'bad-frame'; reason: BadFrameReason; length: number }
  /** Bytes outside any packet that are not control bytes (line noise, a half packet). Count only: never the bytes. */
  | { type: 'discarded'; count: number };

type Phase = 'hunt' | 'data' | 'escape' | 'crc1' | 'crc2';

/**
 * Incremental packet decoder (§2.2.1, §2.2.3 "Recepção de resposta"). Pure and total: any byte
 * sequence, split anywhere, gives events and never an exception. Outside a packet, ACK/NAK/EOT/CAN
 * are control bytes and anything else but SYN is discarded; inside, everything up to ETB is data,
 * DC3 x means x - 20h, and the two bytes after ETB are the CRC (raw, never escaped).
 */
export class FrameDecoder {
  private phase: Phase = 'hunt';
  private buf = new Uint8Array(MAX_PKTDATA);
  private len = 0;
  private raw = 0;
  private crcHi = 0;
  private discarded = 0;

  /** Feeds bytes; returns what they completed. */
  push(chunk: Uint8Array): LinkEvent[] {
    const out: LinkEvent[] = [];
    for (const b of chunk) this.step(b, out);
    this.flushDiscarded(out);
    return out;
  }

  /** True while a packet has started and not ended. */
  get inFrame(): boolean {
    return this.phase !== 'hunt';
  }

  /** Drops a partial packet (after a silence, or when the link resets); returns its raw length (0 if none). */
  reset(): number {
    const dropped = this.phase === 'hunt' ? 0 : this.raw;
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
    this.phase = 'data';
    this.len = 0;
    this.raw = 1;
  }

  private bad(reason: BadFrameReason, out: LinkEvent[]): void {
    out.push({ type: 'bad-frame', reason, length: this.raw });
    this.phase = 'hunt';
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
        } else if (b < 0x20) this.bad('escape', out);
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
