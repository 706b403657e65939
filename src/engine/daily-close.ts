import { HOST_TIME_ZONE, localTime } from '../core/index.js';

/**
 * The daily close *(homologation)*: we assume the host confirms every sale still pending at
 * 00:00 America/Sao_Paulo and that an undo by order id works the same day only (docs/decisions.md,
 * "The daily close"). Times here are host time: the caller's clock is checked against the host's
 * `Date` header.
 *
 * A "close" is the first instant of a local day: local midnight, or, where a daylight-saving
 * change skips midnight (Sao Paulo until 2019 moved 00:00 to 01:00), the first local time that
 * exists on that day. Days are 23, 24 or 25 hours long; nothing here assumes 24.
 */

const HOUR_MS = 3_600_000;

/** The local calendar day of `at` as a day number (days since 1970-01-01 in local time). */
function localDay(at: number, timeZone: string): number {
  const lt = localTime(new Date(at), timeZone);
  return Math.round(Date.UTC(lt.year, lt.month - 1, lt.day) / 86_400_000);
}

/** How far local wall time is ahead of UTC at `at`, ms (whole seconds). */
function offsetAt(at: number, timeZone: string): number {
  const lt = localTime(new Date(at), timeZone);
  const wall = Date.UTC(lt.year, lt.month - 1, lt.day) + Math.floor(lt.decisecondsOfDay / 10) * 1000;
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The first instant whose local day is `day` (a day number as `localDay` gives). Local midnight
 * found from the offset in force around it, checked, and, when a change of offset at midnight
 * defeats that guess, found by bisection (the local day never goes back as time goes on).
 */
function startOfLocalDay(day: number, timeZone: string): number {
  const wallMidnight = day * 86_400_000;
  const first = wallMidnight - offsetAt(wallMidnight, timeZone);
  const guess = wallMidnight - offsetAt(first, timeZone);
  if (localDay(guess, timeZone) >= day && localDay(guess - 1, timeZone) < day) return guess;
  // Offsets lie within UTC-12..UTC+14: the start is within these bounds.
  let lo = wallMidnight - 15 * HOUR_MS; // local day < `day`
  let hi = wallMidnight + 13 * HOUR_MS; // local day >= `day`
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDay(mid, timeZone) >= day) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The first host midnight strictly after `now`: the close that ends the current business day. */
export function nextDailyClose(now: Date, timeZone: string = HOST_TIME_ZONE): Date {
  return new Date(startOfLocalDay(localDay(now.getTime(), timeZone) + 1, timeZone));
}

/** The host midnight at or before `now`: the close that ended the previous business day. */
export function lastDailyClose(now: Date, timeZone: string = HOST_TIME_ZONE): Date {
  return new Date(startOfLocalDay(localDay(now.getTime(), timeZone), timeZone));
}

/**
 * When the cash register's decision is due: `ecrTimeoutMs` after `now`, but never later than
 * `marginMs` before the next close, so the undo that follows a missing decision is still tried
 * repeatedly before the host confirms the sale on its own.
 */
export function decisionDeadline(
  now: Date,
  ecrTimeoutMs: number,
  marginMs: number,
  timeZone: string = HOST_TIME_ZONE,
): Date {
  const close = nextDailyClose(now, timeZone).getTime();
  const wanted = now.getTime() + ecrTimeoutMs;
  return new Date(Math.max(now.getTime(), Math.min(wanted, close - marginMs)));
}
