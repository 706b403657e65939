import { HOST_TIME_ZONE, localTime } from '../core/clock.js';

/**
 * The daily close *(homologation)*: we assume the host confirms every sale still pending at
 * 00:00 America/Sao_Paulo and that an undo by order id works the same day only (README,
 * "Decisions"). Times here are host time: the caller's clock is checked against the host's
 * `Date` header.
 */

/** The first host midnight strictly after `now`. */
export function nextDailyClose(now: Date, timeZone: string = HOST_TIME_ZONE): Date {
  const lt = localTime(now, timeZone);
  const wallNow = Date.UTC(lt.year, lt.month - 1, lt.day) + lt.decisecondsOfDay * 100 + (now.getUTCMilliseconds() % 100);
  const offset = wallNow - now.getTime();
  return new Date(Date.UTC(lt.year, lt.month - 1, lt.day + 1) - offset);
}

/** The host midnight at or before `now`: the close that ended the previous business day. */
export function lastDailyClose(now: Date, timeZone: string = HOST_TIME_ZONE): Date {
  const next = nextDailyClose(now, timeZone);
  return nextDailyClose(new Date(next.getTime() - 25 * 3_600_000), timeZone);
}

/**
 * When the cash register's decision is due: `ecrTimeoutMs` after `now`, but never later than
 * `marginMs` before the next close, so the undo that follows a missing decision is still tried
 * repeatedly before the host confirms the sale on its own.
 */
export function decisionDeadline(now: Date, ecrTimeoutMs: number, marginMs: number, timeZone: string = HOST_TIME_ZONE): Date {
  const close = nextDailyClose(now, timeZone).getTime();
  const wanted = now.getTime() + ecrTimeoutMs;
  return new Date(Math.max(now.getTime(), Math.min(wanted, close - marginMs)));
}
