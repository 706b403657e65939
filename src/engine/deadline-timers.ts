import type { Clock } from '../core/index.js';

/** How often an armed deadline is checked against the (host) clock, which may jump, ms. */
const DEADLINE_CHECK_MS = 1000;

/**
 * The cash register's deadlines of one owner, one per payment. `at` is host time, and the clock
 * follows the host's `Date` header: it jumps when the terminal learns the host's time, e.g. the
 * first answer after a restart, whose recovery armed this deadline on the terminal's own clock
 * (hours behind a host whose clock moved, the chaos run's brown-out). So a deadline is checked
 * against the clock at least every DEADLINE_CHECK_MS, and it passes at the first of: the clock
 * reaching `at`, or the real time it was armed for having elapsed (the cash register's time,
 * whatever the clock learns meanwhile).
 */
export class DeadlineTimers {
  readonly #timers = new Map<number, NodeJS.Timeout>();

  constructor(private readonly clock: Clock) {}

  /** Arms (or re-arms) payment `id`'s deadline: `due` runs once it passes. */
  arm(id: number, at: string, due: () => void): void {
    clearTimeout(this.#timers.get(id));
    const dueAt = Date.parse(at);
    const left = (): number => dueAt - this.clock.now().getTime();
    const elapsedAt = performance.now() + Math.max(0, left());
    const check = (): void => {
      const wait = Math.min(left(), elapsedAt - performance.now());
      if (wait > 0) {
        set(Math.min(wait, DEADLINE_CHECK_MS));
        return;
      }
      this.#timers.delete(id);
      due();
    };
    const set = (ms: number): void => {
      const t = setTimeout(check, ms);
      t.unref();
      this.#timers.set(id, t);
    };
    set(Number.isFinite(dueAt) ? Math.min(Math.max(0, left()), DEADLINE_CHECK_MS) : 0);
  }

  /** Clears every deadline (the daemon stops). */
  clear(): void {
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
  }
}
