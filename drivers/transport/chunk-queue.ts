import { TransportError } from './transport.js';

/** Buffers incoming chunks for a single pending `read()`; ends with null (closed by us) or an error (lost). */
export class ChunkQueue {
  private chunks: Uint8Array[] = [];
  private waiter: { resolve: (c: Uint8Array | null) => void; reject: (e: unknown) => void } | undefined;
  private ended: { error: TransportError | null } | undefined;

  push(chunk: Uint8Array): void {
    if (this.ended || chunk.length === 0) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve(chunk);
    } else this.chunks.push(chunk);
  }

  /** Ends the stream: `null` = closed by us (reads give null), an error = lost (reads reject, after buffered chunks). */
  end(error: TransportError | null): void {
    if (this.ended) return;
    this.ended = { error };
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      if (error) w.reject(error);
      else w.resolve(null);
    }
    if (!error) this.chunks = [];
  }

  clear(): void {
    this.chunks = [];
  }

  read(): Promise<Uint8Array | null> {
    const c = this.chunks.shift();
    if (c) return Promise.resolve(c);
    if (this.ended) return this.ended.error ? Promise.reject(this.ended.error) : Promise.resolve(null);
    if (this.waiter) return Promise.reject(new TransportError('TRANSPORT_CLOSED', 'a read is already pending'));
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }
}
