import type { IncomingMessage } from 'node:http';
import { ApiError } from './http-kit.js';

/** Event streams one client address may hold open at once. */
export const STREAMS_PER_CLIENT = 8;
/** Event streams the daemon holds open at once, every client together. */
export const STREAMS_IN_TOTAL = 64;
/** The `Retry-After` of a refused stream, seconds. */
export const STREAM_RETRY_AFTER_S = 5;

/** A stream refused for a cap: 429 `TOO_MANY_STREAMS`, with `Retry-After`. */
const refused = (message: string): ApiError =>
  new ApiError(429, 'TOO_MANY_STREAMS', message, undefined, { 'retry-after': String(STREAM_RETRY_AFTER_S) });

/**
 * The open `GET /v1/events` streams, counted per client address and in total, so that clients that
 * open streams and never read cannot take the daemon's memory (each holds a socket's buffers and a
 * page of its replay): a stream past either cap is refused before anything is read or sent.
 */
export class StreamCaps {
  readonly #byClient = new Map<string, number>();
  #total = 0;

  constructor(
    readonly perClient = STREAMS_PER_CLIENT,
    readonly inTotal = STREAMS_IN_TOTAL,
  ) {}

  /** Takes a place for `req`'s stream, or throws 429 `TOO_MANY_STREAMS`; returns the release (once is enough, twice is harmless). */
  open(req: IncomingMessage): () => void {
    const client = req.socket.remoteAddress ?? 'unknown';
    const held = this.#byClient.get(client) ?? 0;
    if (held >= this.perClient)
      throw refused(`this client holds ${held} event streams, the most one client may: close one first`);
    if (this.#total >= this.inTotal)
      throw refused(`the terminal holds ${this.#total} event streams, the most it serves: retry later`);
    this.#byClient.set(client, held + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#byClient.get(client) ?? 1) - 1;
      if (left > 0) this.#byClient.set(client, left);
      else this.#byClient.delete(client);
    };
  }

  /** Streams open now. */
  get total(): number {
    return this.#total;
  }
}
