import { HOST_TIME_ZONE, localTime, OmniposError } from '../../core/index.js';
import { nextDailyClose } from '../../engine/index.js';

/** A business day, `YYYY-MM-DD` in the host's time zone. */
export type BusinessDate = string;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The business day an instant (host time) belongs to. */
export function businessDateOf(at: Date, timeZone: string = HOST_TIME_ZONE): BusinessDate {
  const t = localTime(at, timeZone);
  return `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

/** Checks a `YYYY-MM-DD` that came from outside; OPERATIONS_INVALID_DATE naming `where` otherwise. */
export function parseBusinessDate(raw: string, where = 'date'): BusinessDate {
  const m = DATE.exec(raw);
  const ok =
    m !== null &&
    (() => {
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      return (
        d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
      );
    })();
  if (!ok)
    throw new OmniposError(
      'OPERATIONS_INVALID_DATE',
      `${where}: expected a date YYYY-MM-DD, got ${JSON.stringify(raw.slice(0, 40))}`,
      { where },
    );
  return raw;
}

/**
 * The instants a business day spans, [from, to): from the daily close that opened it to the one
 * that ends it (00:00 host time, src/engine/daily-close.ts), so a day of 23 or 25 hours is right.
 */
export function businessDayBounds(date: BusinessDate, timeZone: string = HOST_TIME_ZONE): { from: Date; to: Date } {
  const [y, m, d] = parseBusinessDate(date).split('-').map(Number) as [number, number, number];
  // Noon UTC of a calendar date is inside that local day for every zone within ±11 h; the day
  // begins at the close after the previous day's noon (lastDailyClose would step 25 h back, which
  // lands on the close itself on a 25-hour day).
  const inside = (day: number): Date => new Date(Date.UTC(y, m - 1, day, 12));
  return { from: nextDailyClose(inside(d - 1), timeZone), to: nextDailyClose(inside(d), timeZone) };
}
