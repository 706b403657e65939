/** One source's refusals since its last line. */
interface Tally {
  /** When its last line was written, ms. */
  toldAt: number;
  /** Refusals not yet told, by code. */
  pending: Map<string, number>;
  /** What the last refusal was about (a route, a command), when the caller says. */
  last: string | undefined;
}

/** What one line tells: the source, its refusals since the line before, the last one's subject. */
export interface TallyLine {
  source: string;
  counts: Record<string, number>;
  last: string | undefined;
  /** The interval, seconds: one line per source per this. */
  perSeconds: number;
}

export interface TallyLogOptions {
  /** Writes one line (the caller's logger, at `warn`: a refusal is expected, never with a stack). */
  tell: (line: TallyLine) => void;
  /** One line per source per this, ms (default 60 s). */
  intervalMs?: number;
  /** At most this many sources are tracked; the oldest is told and forgotten first (default 1,024). */
  maxSources?: number;
  now?: () => number;
}

/**
 * Refusals counted, told at most once per source per interval: what an attacker sends (wrong
 * tokens, commands off the list) is audited without the attacker being able to fill the log with
 * it. The first refusal of a source is told at once; the ones after it, summed, with the first
 * refusal past the interval, or by {@link flushDue} / {@link flushAll}.
 */
export class TallyLog {
  readonly #o: Required<Omit<TallyLogOptions, 'now'>> & { now: () => number };
  readonly #tallies = new Map<string, Tally>();

  constructor(o: TallyLogOptions) {
    this.#o = { intervalMs: 60_000, maxSources: 1024, now: Date.now, ...o };
  }

  /** A refusal with `code` from `source` (a client address, the broker); `last` names its subject. */
  note(source: string, code: string, last?: string): void {
    const now = this.#o.now();
    let t = this.#tallies.get(source);
    if (!t) {
      if (this.#tallies.size >= this.#o.maxSources) this.#forgetOldest();
      t = { toldAt: -Infinity, pending: new Map(), last: undefined };
      this.#tallies.set(source, t);
    }
    t.pending.set(code, (t.pending.get(code) ?? 0) + 1);
    t.last = last;
    if (now - t.toldAt >= this.#o.intervalMs) this.#tell(source, t, now);
  }

  /** Tells every source whose interval has passed and that has refusals not yet told. */
  flushDue(): void {
    const now = this.#o.now();
    for (const [source, t] of this.#tallies)
      if (t.pending.size > 0 && now - t.toldAt >= this.#o.intervalMs) this.#tell(source, t, now);
  }

  /** Tells every refusal not yet told (at stop). */
  flushAll(): void {
    const now = this.#o.now();
    for (const [source, t] of this.#tallies) if (t.pending.size > 0) this.#tell(source, t, now);
  }

  #tell(source: string, t: Tally, now: number): void {
    this.#o.tell({
      source,
      counts: Object.fromEntries(t.pending),
      last: t.last,
      perSeconds: this.#o.intervalMs / 1000,
    });
    t.toldAt = now;
    t.pending.clear();
  }

  #forgetOldest(): void {
    const [source, t] = this.#tallies.entries().next().value as [string, Tally];
    if (t.pending.size > 0) this.#tell(source, t, this.#o.now());
    this.#tallies.delete(source);
  }
}

/** `3 UNAUTHORIZED, 1 INVALID_HOST`: a line's counts as a person reads them. */
export function tallyText(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([c, n]) => `${n} ${c}`)
    .join(', ');
}
