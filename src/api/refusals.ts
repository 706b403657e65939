import type { IncomingMessage } from 'node:http';
import type { Logger } from '../core/index.js';

/** One address's refusals since its last line. */
interface Tally {
  /** When its last line was written, ms. */
  loggedAt: number;
  /** Refusals not yet told, by code. */
  pending: Map<string, number>;
}

/** At most this many addresses are tracked; the oldest is told and forgotten first. */
const MAX_ADDRESSES = 1024;

/**
 * What the API logs of the requests it refuses (PCI DSS 10.2.1.4: failed authentication is
 * logged), without an attacker being able to fill the disk with it: one `warn` line per client
 * address per `intervalMs`, with how many of each refusal it sent since; never a token, a
 * header or a body; never a stack (a refusal is expected, not a fault).
 */
export class RefusalLog {
  readonly #log: Logger;
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #tallies = new Map<string, Tally>();

  constructor(log: Logger, o: { intervalMs?: number; now?: () => number } = {}) {
    this.#log = log;
    this.#intervalMs = o.intervalMs ?? 60_000;
    this.#now = o.now ?? Date.now;
  }

  /** A request refused with `code` (`UNAUTHORIZED`, `SUPERVISOR_REQUIRED`, …). */
  refused(req: IncomingMessage, code: string): void {
    const address = req.socket.remoteAddress ?? 'unknown';
    const now = this.#now();
    let t = this.#tallies.get(address);
    if (!t) {
      if (this.#tallies.size >= MAX_ADDRESSES) this.#forgetOldest();
      t = { loggedAt: -Infinity, pending: new Map() };
      this.#tallies.set(address, t);
    }
    t.pending.set(code, (t.pending.get(code) ?? 0) + 1);
    if (now - t.loggedAt >= this.#intervalMs) this.#tell(address, t, now, req);
  }

  #tell(address: string, t: Tally, now: number, req?: IncomingMessage): void {
    const refused = Object.fromEntries(t.pending);
    const route = req ? `${req.method ?? '?'} ${(req.url ?? '').split('?')[0]?.slice(0, 128)}` : undefined;
    this.#log.warn(
      { client: address, refused, ...(route ? { lastRoute: route } : {}), perSeconds: this.#intervalMs / 1000 },
      `API requests refused from ${address}: ${Object.entries(refused)
        .map(([c, n]) => `${n} ${c}`)
        .join(', ')} (one line per address per ${this.#intervalMs / 1000} s)`,
    );
    t.loggedAt = now;
    t.pending.clear();
  }

  #forgetOldest(): void {
    const [address, t] = this.#tallies.entries().next().value as [string, Tally];
    if (t.pending.size > 0) this.#tell(address, t, this.#now());
    this.#tallies.delete(address);
  }
}
