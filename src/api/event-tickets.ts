import { randomBytes } from 'node:crypto';

/**
 * Single-use, short-lived tickets for `GET /v1/events?ticket=`: a browser's `EventSource` cannot
 * send an `Authorization` header, and putting the long-lived bearer token in a URL would leave it
 * in every place a URL goes (history, logs, proxies). A ticket is bought with the token
 * (`POST /v1/events/ticket`), opens one stream once, and is worthless after that or after
 * `ttlMs`, so a ticket that leaks through a URL opens nothing.
 */
export class EventTickets {
  readonly #tickets = new Map<string, { expires: number; scope: string }>();

  /** `ttlMs`: how long a ticket can be used (default 30 s); at most `max` outstanding (oldest dropped). */
  constructor(
    private readonly ttlMs = 30_000,
    private readonly now: () => number = () => Date.now(),
    private readonly max = 64,
  ) {}

  /** A new ticket (32 random bytes, base64url), for a stream of the token scope that bought it. */
  issue(scope = 'register'): { ticket: string; expiresInMs: number } {
    this.#prune();
    while (this.#tickets.size >= this.max) this.#tickets.delete(this.#tickets.keys().next().value as string);
    const ticket = randomBytes(32).toString('base64url');
    this.#tickets.set(ticket, { expires: this.now() + this.ttlMs, scope });
    return { ticket, expiresInMs: this.ttlMs };
  }

  /** True once for a ticket issued less than `ttlMs` ago; the ticket is spent either way. */
  redeem(ticket: string | null | undefined): boolean {
    return this.redeemScope(ticket) !== undefined;
  }

  /** The scope that bought the ticket, once, when issued less than `ttlMs` ago; the ticket is spent either way. */
  redeemScope(ticket: string | null | undefined): string | undefined {
    if (!ticket) return undefined;
    const held = this.#tickets.get(ticket);
    if (held === undefined) return undefined;
    this.#tickets.delete(ticket);
    return this.now() < held.expires ? held.scope : undefined;
  }

  /** Tickets issued and not yet spent or expired. */
  get outstanding(): number {
    this.#prune();
    return this.#tickets.size;
  }

  #prune(): void {
    const now = this.now();
    for (const [t, { expires }] of this.#tickets) if (expires <= now) this.#tickets.delete(t);
  }
}
