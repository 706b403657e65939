/**
 * The supervisor gate's lockouts, one per client: wrong credentials from one client close the
 * gate to that client alone, for a time that doubles with each lockout in a row. Another client
 * (another address, another bearer credential) is never refused because this one guessed wrong.
 */

/** A lockout as the gate reports it (an alarm, a log line): never the credential offered. */
export interface Lockout {
  /** Who was locked out: the client's address and the credential it called with (`<scope>@<address>`). */
  client: string;
  /** How many lockouts in a row this client has earned (1 for the first). */
  count: number;
  /** Until when, ms since the epoch. */
  until: number;
}

export interface LockoutPolicy {
  /** Wrong credentials in a row from one client before it is locked out (default 5). */
  maxFailures?: number | undefined;
  /** The first lockout, ms (default 60 s); each further one in a row doubles it. */
  lockMs?: number | undefined;
  /** The longest lockout, ms (default 1 h). */
  maxLockMs?: number | undefined;
}

interface ClientState {
  failures: number;
  lockouts: number;
  lockedUntil: number;
  /** When this client last failed (for forgetting quiet clients). */
  last: number;
}

/** At most this many clients are remembered; the quietest unlocked ones are forgotten first. */
const MAX_CLIENTS = 1024;

/** Failure counts and lockouts by client, in memory (a restart forgets them, as it forgets sessions). */
export class Lockouts {
  readonly #clients = new Map<string, ClientState>();
  readonly #maxFailures: number;
  readonly #lockMs: number;
  readonly #maxLockMs: number;

  constructor(p: LockoutPolicy = {}) {
    this.#maxFailures = p.maxFailures ?? 5;
    this.#lockMs = p.lockMs ?? 60_000;
    this.#maxLockMs = p.maxLockMs ?? 3_600_000;
  }

  /** Until when `client` is locked out, or undefined when it is not (now). */
  lockedUntil(client: string, now: number): number | undefined {
    const s = this.#clients.get(client);
    return s && now < s.lockedUntil ? s.lockedUntil : undefined;
  }

  /** One wrong credential from `client`; the lockout it earns, when it earns one. */
  fail(client: string, now: number): Lockout | undefined {
    const s = this.#clients.get(client) ?? { failures: 0, lockouts: 0, lockedUntil: 0, last: now };
    this.#clients.delete(client);
    this.#clients.set(client, s);
    s.last = now;
    if (++s.failures < this.#maxFailures) return this.#trim(now);
    s.failures = 0;
    s.lockouts++;
    const ms = Math.min(this.#maxLockMs, this.#lockMs * 2 ** Math.min(s.lockouts - 1, 30));
    s.lockedUntil = now + ms;
    this.#trim(now);
    return { client, count: s.lockouts, until: s.lockedUntil };
  }

  /** A right credential from `client`: its count and back-off start again. */
  succeed(client: string): void {
    this.#clients.delete(client);
  }

  #trim(now: number): undefined {
    if (this.#clients.size <= MAX_CLIENTS) return undefined;
    for (const [k, s] of this.#clients) {
      if (this.#clients.size <= MAX_CLIENTS) break;
      if (now >= s.lockedUntil) this.#clients.delete(k);
    }
    return undefined;
  }
}
