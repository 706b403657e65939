import { HOST_TIME_ZONE, localTime, type Clock } from '../core/index.js';
import type { Db } from './db.js';

/**
 * The host's clock: the base clock plus an offset the tests move (`POST /sandbox/clock`),
 * kept in the database so a restart keeps the host's time.
 */
export class SandboxClock implements Clock {
  readonly #base: Clock;
  readonly #db: Db;
  #offsetMs: number;

  constructor(base: Clock, db: Db) {
    this.#base = base;
    this.#db = db;
    const row = db.prepare(`SELECT value FROM meta WHERE key = 'clock_offset_ms'`).get() as
      { value: string } | undefined;
    this.#offsetMs = row ? Number(row.value) : 0;
  }

  now(): Date {
    return new Date(this.#base.now().getTime() + this.#offsetMs);
  }

  /** Moves the host's time to `at`. */
  set(at: Date): void {
    this.#offsetMs = at.getTime() - this.#base.now().getTime();
    this.#db
      .prepare(
        `INSERT INTO meta (key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      )
      .run(String(this.#offsetMs));
  }
}

/** The business day (host time zone) of an instant, `YYYY-MM-DD`. */
export function businessDay(at: Date): string {
  const t = localTime(at, HOST_TIME_ZONE);
  return `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}
