import { localTime, sleep, type Clock, HOST_TIME_ZONE, OmniposError } from '../core/index.js';
import { readCounter, writeCounter } from './counters.js';
import type { Db } from './open.js';

const COUNTER = 'merchant_order_id';

export interface OrderIdOptions {
  /**
   * The id's terminal part, 1..9999 (configuration `terminal.orderIdTerminal`): unique across every
   * terminal of the acquirer client, which keeps order ids per OAuth client, not per merchant.
   */
  ordinal: number;
  clock: Clock;
  /** The host's time zone; the date part and the daily sequence follow it. */
  timeZone?: string;
  /** How far the clock may be behind the last issued id before we give up waiting, in ms. Default 10 s. */
  maxWaitMs?: number;
  /** Injected for tests that move a fake clock; default real sleep. */
  wait?: (ms: number) => Promise<void>;
}

/**
 * Issues `MerchantOrderId`s (and `MerchantVoidId`s): 15 digits (the manual's limit: "valores
 * numéricos de 1 a 15 dígitos e não pode ser duplicado", Conecta pt page line 1396), never repeated
 * for the acquirer client.
 *
 *   YYDDD   host date (year, day of year)
 *   TTTT    this terminal's number, unique across the acquirer client's fleet (not the merchant's
 *           ordinal: every merchant's first terminal is 001, and one client serves many merchants)
 *   SSSSSS  max(last + 1, tenths of a second since host midnight; at most 863999)
 *
 * Two rules make it survive a lost database: an id is never ahead of the clock (when ids are
 * asked faster than ten a second we wait for the clock), and the first id after the counter is
 * found missing is one tenth of a second past the clock. Every id issued before the loss is then
 * at most the clock of that moment, so every later id is greater. The counter is committed
 * (synchronous=FULL) before the id is returned, so an id that went out in a request whose outcome
 * is unknown is never issued again. What this cannot survive is a clock set back past ids already
 * issued together with a lost database: the clock is checked against the host's `Date` header.
 */
export class MerchantOrderIds {
  readonly #db: Db;
  readonly #opts: Required<OrderIdOptions>;

  constructor(db: Db, options: OrderIdOptions) {
    if (!Number.isInteger(options.ordinal) || options.ordinal < 1 || options.ordinal > 9999) {
      throw new OmniposError('INVALID_ARGUMENT', `terminal.orderIdTerminal: must be 1..9999, got ${options.ordinal}`);
    }
    this.#db = db;
    this.#opts = {
      timeZone: HOST_TIME_ZONE,
      maxWaitMs: 10_000,
      wait: (ms) => sleep(ms),
      ...options,
    };
  }

  /** The next id, already committed. */
  async next(): Promise<string> {
    let waited = 0;
    for (;;) {
      const now = localTime(this.#opts.clock.now(), this.#opts.timeZone);
      const prefix = `${String(now.year % 100).padStart(2, '0')}${String(now.dayOfYear).padStart(3, '0')}${String(this.#opts.ordinal).padStart(4, '0')}`;
      const issued = this.#db
        .transaction((): string | number => {
          let last = readCounter(this.#db, COUNTER);
          if (last === undefined) {
            // A fresh (or lost) counter: start one tenth of a second past the clock.
            last = `${prefix}${String(now.decisecondsOfDay).padStart(6, '0')}`;
            writeCounter(this.#db, COUNTER, last);
          }
          if (last.slice(0, 5) > prefix.slice(0, 5)) return Number.POSITIVE_INFINITY;
          // A counter of the older layout (3-digit ordinal, 7-digit sequence) never equals the prefix: the clock starts again.
          const wanted =
            last.length === 15 && last.slice(0, 9) === prefix
              ? Math.max(Number(last.slice(9)) + 1, now.decisecondsOfDay)
              : now.decisecondsOfDay;
          if (wanted > now.decisecondsOfDay) return wanted - now.decisecondsOfDay;
          const id = `${prefix}${String(wanted).padStart(6, '0')}`;
          writeCounter(this.#db, COUNTER, id);
          return id;
        })
        .immediate();
      if (typeof issued === 'string') return issued;
      const ms = Number.isFinite(issued) ? issued * 100 : Number.POSITIVE_INFINITY;
      if (waited + ms > this.#opts.maxWaitMs) {
        throw new OmniposError(
          'CLOCK_BEHIND',
          `the clock is behind the last MerchantOrderId issued (${readCounter(this.#db, COUNTER) ?? '?'}); set the clock before selling`,
          { last: readCounter(this.#db, COUNTER) },
        );
      }
      await this.#opts.wait(ms);
      waited += ms;
    }
  }
}
