import { TallyLog, tallyText, type Logger } from '../core/index.js';

export interface CommandRefusalsOptions {
  log: Logger;
  now?: () => number;
  /** Refused commands answered in a burst (default 10). */
  burst?: number;
  /** One more refused command answered per this, ms (default 6 s: 10 a minute). */
  refillMs?: number;
  /** One log line per this, ms (default 60 s). */
  intervalMs?: number;
  /** Where the counts go (the fleet client's own stats); default a new object. */
  stats?: { refused: number; unanswered: number };
}

/**
 * What a flood of refused commands from the broker costs the terminal: a few microseconds each,
 * never a log line each nor an answer each. The refusals are told in one `warn` line per minute
 * (how many of each code, the last command's name: never its payload); answers go out to the
 * first 10, then one per 6 s (a token bucket), so an operator who mistypes a command is told why,
 * while 10,000 bad commands neither fill the log and the disk nor queue 10,000 answers ahead of a
 * good command's. Good commands never pass through here: they are always answered.
 */
export class CommandRefusals {
  /** Counters for the status and the tests: refused in all, and refused without an answer. */
  readonly stats: { refused: number; unanswered: number };
  readonly #now: () => number;
  readonly #burst: number;
  readonly #refillMs: number;
  readonly #tally: TallyLog;
  #tokens: number;
  #filledAt: number;
  #unansweredSinceLine = 0;

  constructor(o: CommandRefusalsOptions) {
    this.#now = o.now ?? Date.now;
    this.stats = o.stats ?? { refused: 0, unanswered: 0 };
    this.#burst = o.burst ?? 10;
    this.#refillMs = o.refillMs ?? 6000;
    this.#tokens = this.#burst;
    this.#filledAt = this.#now();
    this.#tally = new TallyLog({
      now: this.#now,
      ...(o.intervalMs !== undefined ? { intervalMs: o.intervalMs } : {}),
      tell: ({ counts, last, perSeconds }) => {
        const unanswered = this.#unansweredSinceLine;
        this.#unansweredSinceLine = 0;
        o.log.warn(
          { refused: counts, lastCommand: last, unanswered, perSeconds },
          `fleet commands refused: ${tallyText(counts)}${unanswered > 0 ? `, ${unanswered} of them unanswered` : ''} (one line per ${perSeconds} s)`,
        );
      },
    });
  }

  /** A command refused with `code`; true when it gets an answer, false when it is dropped unanswered. */
  refused(command: string, code: string): boolean {
    this.stats.refused++;
    const answer = this.#take();
    if (!answer) {
      this.stats.unanswered++;
      this.#unansweredSinceLine++;
    }
    this.#tally.note('broker', code, command.slice(0, 64));
    return answer;
  }

  /** The refusals not told yet, once their minute has passed (called on a timer). */
  flushDue(): void {
    this.#tally.flushDue();
  }

  /** Every refusal not told yet (at stop). */
  flushAll(): void {
    this.#tally.flushAll();
  }

  #take(): boolean {
    const now = this.#now();
    const earned = Math.floor((now - this.#filledAt) / this.#refillMs);
    if (earned > 0) {
      this.#tokens = Math.min(this.#burst, this.#tokens + earned);
      this.#filledAt = this.#tokens === this.#burst ? now : this.#filledAt + earned * this.#refillMs;
    }
    if (this.#tokens < 1) return false;
    this.#tokens--;
    return true;
  }
}
