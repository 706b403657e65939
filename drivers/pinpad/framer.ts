import { Transform, type TransformCallback } from 'node:stream';
import { FrameDecoder, type LinkEvent } from './decoder.js';

/**
 * A Transform from raw link bytes to `LinkEvent` objects (packets, control bytes, bad packets,
 * discarded byte counts). It never emits 'error' for bad input: garbage is reported and skipped,
 * the decoder resynchronises on the next SYN, and packets split across or joined within chunks
 * come out whole and in order.
 */
export class PinpadFramer extends Transform {
  private readonly decoder = new FrameDecoder();

  constructor() {
    super({ readableObjectMode: true, writableObjectMode: false });
  }

  override _transform(chunk: Buffer | Uint8Array | string, _enc: BufferEncoding, done: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    for (const e of this.decoder.push(bytes)) this.push(e);
    done();
  }

  override _flush(done: TransformCallback): void {
    const dropped = this.decoder.reset();
    if (dropped > 0) this.push({ type: 'bad-frame', reason: 'truncated', length: dropped } satisfies LinkEvent);
    done();
  }

  /** Drops a partial packet (the link saw silence or restarted); returns its raw length. */
  resetPartial(): number {
    return this.decoder.reset();
  }
}
