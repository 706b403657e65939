import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextTryAt } from '../../../src/engine/backoff.js';
import { decisionDeadline, lastDailyClose, nextDailyClose } from '../../../src/engine/daily-close.js';

describe('daily close (00:00 America/Sao_Paulo, UTC-3 without daylight saving since 2019)', () => {
  it.each([
    ['2026-11-22T13:00:00.000Z', '2026-11-23T03:00:00.000Z'],
    ['2026-11-23T02:59:59.999Z', '2026-11-23T03:00:00.000Z'],
    ['2026-11-23T03:00:00.000Z', '2026-11-24T03:00:00.000Z'],
    ['2026-12-31T23:00:00.000Z', '2027-01-01T03:00:00.000Z'],
    ['2028-02-28T12:00:00.000Z', '2028-02-29T03:00:00.000Z'],
  ])('after %s the next close is %s', (now, close) => {
    expect(nextDailyClose(new Date(now)).toISOString()).toBe(close);
  });

  it('the last close is the midnight that started the business day', () => {
    expect(lastDailyClose(new Date('2026-11-22T13:00:00.000Z')).toISOString()).toBe('2026-11-22T03:00:00.000Z');
    expect(lastDailyClose(new Date('2026-11-23T03:00:00.000Z')).toISOString()).toBe('2026-11-23T03:00:00.000Z');
  });

  it("caps the cash register's deadline before the close, and never before now", () => {
    const hour = 3_600_000;
    expect(decisionDeadline(new Date('2026-11-22T13:00:00Z'), hour, 30 * 60_000).toISOString()).toBe(
      '2026-11-22T14:00:00.000Z',
    );
    expect(decisionDeadline(new Date('2026-11-23T02:00:00Z'), 2 * hour, 30 * 60_000).toISOString()).toBe(
      '2026-11-23T02:30:00.000Z',
    );
    expect(decisionDeadline(new Date('2026-11-23T02:50:00Z'), 2 * hour, 30 * 60_000).toISOString()).toBe(
      '2026-11-23T02:50:00.000Z',
    );
  });
});

describe('outbox backoff', () => {
  const close = new Date('2026-11-23T03:00:00Z');

  it('grows exponentially with jitter between half and all of the step, up to the maximum', () => {
    const now = new Date('2026-11-22T13:00:00Z');
    const delay = (attempts: number, r: number) => nextTryAt(attempts, now, close, r).getTime() - now.getTime();
    expect(delay(0, 0)).toBe(500);
    expect(delay(0, 0.999)).toBe(999);
    expect(delay(3, 0)).toBe(4000);
    expect(delay(20, 0.5)).toBe(225_000);
  });

  it('always leaves room for several more tries before the close (property)', () => {
    const seed = Date.now();
    console.log(`backoff property seed ${seed}`);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 4_000, max: 86_400_000 }),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        (attempts, untilClose, r) => {
          const now = new Date(close.getTime() - untilClose);
          const next = nextTryAt(attempts, now, close, r).getTime();
          return next > now.getTime() && next - now.getTime() <= untilClose / 4;
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
