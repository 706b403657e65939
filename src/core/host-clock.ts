import { systemClock, type Clock } from './clock.js';

/**
 * The host's time, as the terminal best knows it: its own clock plus an offset learnt from the
 * acquirer's `Date` headers. Business dates, the daily close and MerchantOrderIds follow the
 * host's day, not a terminal clock that drifted. `Date` has one-second resolution, so the
 * offset only moves when the two clocks disagree by more than `toleranceMs`.
 */
export class HostClock implements Clock {
  readonly #base: Clock;
  readonly #toleranceMs: number;
  #offsetMs = 0;

  constructor(base: Clock = systemClock, toleranceMs = 2000) {
    this.#base = base;
    this.#toleranceMs = toleranceMs;
  }

  now(): Date {
    return new Date(this.#base.now().getTime() + this.#offsetMs);
  }

  /** How far the host is ahead of the terminal's own clock, ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** A `Date` header just received. Returns true when the offset moved. */
  observe(hostDate: Date): boolean {
    const own = this.#base.now().getTime();
    // The header is truncated to the second: the host's true time is within [date, date + 1 s).
    const mid = hostDate.getTime() + 500;
    if (Math.abs(own + this.#offsetMs - mid) <= this.#toleranceMs) return false;
    this.#offsetMs = mid - own;
    return true;
  }
}
