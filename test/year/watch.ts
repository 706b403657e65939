// The year run's wait for a payment or a void to leave `pending` (issue 35) by the terminal's own event stream
// (GET /v1/events), not by polling its state: one stream per daemon, each payment's and void's last status kept.
// A stream that ends (the daemon killed) or an event missed falls back on one GET a second.
import { request } from 'undici';
import type { Terminal } from '../chaos/terminal.js';

const key = (id: number, isVoid: boolean): string => `${isVoid ? 'v' : 'p'}${id}`;

export class PaymentWatch {
  /** The last status of each payment (`p<id>`) and void (`v<id>`). */
  readonly #status = new Map<string, string>();
  readonly #waiters = new Set<() => void>();
  readonly #abort = new AbortController();

  constructor(private readonly t: Terminal) {}

  /** Opens the stream (the daemon's current address and token); returns once it answered. */
  async open(): Promise<this> {
    const r = await request(`${this.t.api}/v1/events`, {
      headers: { authorization: `Bearer ${this.t.token}`, accept: 'text/event-stream' },
      signal: this.#abort.signal,
      bodyTimeout: 0,
    });
    if (r.statusCode !== 200) throw new Error(`GET /v1/events: ${r.statusCode}`);
    void this.#read(r.body)
      .catch(() => undefined)
      .finally(() => {
        // The daemon gone (or the stream closed): every waiter asks again at once.
        for (const w of this.#waiters) w();
      });
    return this;
  }

  async #read(body: AsyncIterable<Buffer>): Promise<void> {
    let buffer = '';
    for await (const chunk of body) {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('\n');
        if (!data) continue;
        const e = JSON.parse(data) as { id?: unknown; status?: unknown; kind?: unknown };
        // A void's events carry the void's status (GET /v1/voids/{id}) under its own id: kept apart.
        if (typeof e.id === 'number' && typeof e.status === 'string')
          this.#status.set(key(e.id, e.kind === 'void'), e.status);
        for (const w of this.#waiters) w();
      }
    }
  }

  /** Until payment `id`'s status is none of `waiting` (or `ms` passed); its last status. */
  settled(id: number, waiting: readonly string[], ms: number): Promise<string | undefined> {
    return this.#until(id, false, waiting, ms);
  }

  /** Until void `id`'s status is none of `waiting` (or `ms` passed); its last status. */
  voidSettled(id: number, waiting: readonly string[], ms: number): Promise<string | undefined> {
    return this.#until(id, true, waiting, ms);
  }

  async #until(id: number, isVoid: boolean, waiting: readonly string[], ms: number): Promise<string | undefined> {
    const end = Date.now() + ms;
    const k = key(id, isVoid);
    for (;;) {
      const known = this.#status.get(k);
      if (known !== undefined && !waiting.includes(known)) return known;
      if (Date.now() > end || !this.t.alive()) return known;
      const heard = await new Promise<boolean>((resolve) => {
        const w = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(w);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.#waiters.delete(w);
          resolve(false);
        }, 1000);
        this.#waiters.add(w);
      });
      if (!heard) {
        const s = await this.t.call('GET', `/v1/${isVoid ? 'voids' : 'payments'}/${id}`).catch(() => undefined);
        if (typeof s?.body?.status === 'string') this.#status.set(k, s.body.status as string);
      }
    }
  }

  close(): void {
    this.#abort.abort();
  }
}
