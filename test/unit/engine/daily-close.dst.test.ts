import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localTime } from '../../../src/core/clock.js';
import { decisionDeadline, lastDailyClose, nextDailyClose } from '../../../src/engine/daily-close.js';

/**
 * Day bounds in zones with daylight saving. Sao Paulo had it until February 2019, changing at
 * midnight itself (00:00 → 01:00 in spring, 00:00 → 23:00 back in autumn); New York and London
 * change at 02:00 / 01:00 local, so the offset differs between a day's start and its end.
 * Transition dates: IANA tz database (northamerica, europe, southamerica files).
 */
const ZONES = [
  'America/Sao_Paulo',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'UTC',
];

const dayOf = (at: number, tz: string): number => {
  const lt = localTime(new Date(at), tz);
  return Date.UTC(lt.year, lt.month - 1, lt.day) / 86_400_000;
};

describe('daily close across daylight-saving changes', () => {
  it.each([
    // 25-hour days (the clocks go back): the close that started the day, not the next one.
    ['America/New_York', '2026-11-01T12:00:00.000Z', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z'],
    ['Europe/London', '2026-10-25T12:00:00.000Z', '2026-10-24T23:00:00.000Z', '2026-10-26T00:00:00.000Z'],
    ['America/Sao_Paulo', '2019-02-16T12:00:00.000Z', '2019-02-16T02:00:00.000Z', '2019-02-17T03:00:00.000Z'],
    // 23-hour days (the clocks go forward); Sao Paulo 2018-11-04 had no midnight: it began at 01:00 (03:00Z).
    ['America/New_York', '2026-03-08T12:00:00.000Z', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'],
    ['America/Sao_Paulo', '2018-11-04T12:00:00.000Z', '2018-11-04T03:00:00.000Z', '2018-11-05T02:00:00.000Z'],
    // Early on the 25-hour day, before the change at 02:00: the next close is still the next day's midnight.
    ['America/New_York', '2026-11-01T04:30:00.000Z', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z'],
  ])('in %s at %s the day runs from %s to %s', (tz, now, last, next) => {
    expect(lastDailyClose(new Date(now), tz).toISOString()).toBe(last);
    expect(nextDailyClose(new Date(now), tz).toISOString()).toBe(next);
  });

  it.each(ZONES)('in %s: last <= t < next, both start a local day, and they are consecutive (property)', (tz) => {
    const seed = Date.now();
    console.log(`daily-close ${tz} property seed ${seed}`);
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.integer({ min: 0, max: 4 * 3_600_000 }),
        (t, margin) => {
          const last = lastDailyClose(new Date(t), tz).getTime();
          const next = nextDailyClose(new Date(t), tz).getTime();
          const day = dayOf(t, tz);
          expect(last).toBeLessThanOrEqual(t);
          expect(t).toBeLessThan(next);
          // Each is the first instant of its local day.
          expect(dayOf(last, tz)).toBe(day);
          expect(dayOf(last - 1, tz)).toBeLessThan(day);
          expect(dayOf(next, tz)).toBe(day + 1);
          expect(dayOf(next - 1, tz)).toBe(day);
          // Consecutive: no close between them, and they chain.
          expect(next - last).toBeGreaterThanOrEqual(22 * 3_600_000);
          expect(next - last).toBeLessThanOrEqual(26 * 3_600_000);
          expect(lastDailyClose(new Date(next), tz).getTime()).toBe(next);
          expect(nextDailyClose(new Date(last), tz).getTime()).toBe(next);
          expect(lastDailyClose(new Date(next - 1), tz).getTime()).toBe(last);
          // The cash register's deadline never passes margin before the close.
          const deadline = decisionDeadline(new Date(t), 86_400_000, margin, tz).getTime();
          expect(deadline).toBeLessThanOrEqual(Math.max(t, next - margin));
        },
      ),
      { numRuns: 1000, seed },
    );
  });

  it('the transition instants themselves, and the milliseconds around them (property)', () => {
    const seed = Date.now();
    console.log(`daily-close transitions property seed ${seed}`);
    const changes = [
      ['America/New_York', '2026-11-01T06:00:00Z'],
      ['America/New_York', '2026-03-08T07:00:00Z'],
      ['Europe/London', '2026-10-25T01:00:00Z'],
      ['Europe/London', '2026-03-29T01:00:00Z'],
      ['America/Sao_Paulo', '2019-02-17T02:00:00Z'],
      ['America/Sao_Paulo', '2018-11-04T03:00:00Z'],
    ] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...changes),
        fc.integer({ min: -26 * 3_600_000, max: 26 * 3_600_000 }),
        ([tz, at], d) => {
          const t = Date.parse(at) + d;
          const last = lastDailyClose(new Date(t), tz).getTime();
          const next = nextDailyClose(new Date(t), tz).getTime();
          return (
            last <= t &&
            t < next &&
            dayOf(last, tz) === dayOf(t, tz) &&
            dayOf(next, tz) === dayOf(t, tz) + 1 &&
            dayOf(last - 1, tz) < dayOf(t, tz)
          );
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
