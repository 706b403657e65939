// The year run's wait for a payment to leave `pending` (issue 35) by the terminal's own event stream
// (GET /v1/events), not by polling its state: one stream per daemon, each payment's last status kept.
// A stream that ends (the daemon killed) or an event missed falls back on one GET a second.
import { request } from 'undici';
import type { Terminal } from '../chaos/terminal.js';

export class PaymentWatch {
  readonly #status = new Map<number, string>();
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
        if (typeof e.id === 'number' && typeof e.status === 'string' && e.kind !== 'void')
          this.#status.set(e.id, e.status);
        for (const w of this.#waiters) w();
      }
    }
  }

  /** Until payment `id`'s status is none of `waiting` (or `ms` passed); its last status. */
  async settled(id: number, waiting: readonly string[], ms: number): Promise<string | undefined> {
    const end = Date.now() + ms;
    for (;;) {
      const known = this.#status.get(id);
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
        const s = await this.t.call('GET', `/v1/payments/${id}`).catch(() => undefined);
        if (typeof s?.body?.status === 'string') this.#status.set(id, s.body.status as string);
      }
    }
  }

  close(): void {
    this.#abort.abort();
  }
}
