import { describe, expect, it } from 'vitest';
import { businessDay } from '../../../src/sandbox/clock.js';
import { qrInstant } from '../../../src/sandbox/wallet-keys.js';
import { centsBand } from '../../../src/sandbox/cents.js';

describe('sandbox time and cents rules', () => {
  it('the business day turns at 00:00 America/Sao_Paulo (UTC-3, no daylight saving since 2019)', () => {
    expect(businessDay(new Date('2027-03-11T02:59:59.999Z'))).toBe('2027-03-10');
    expect(businessDay(new Date('2027-03-11T03:00:00.000Z'))).toBe('2027-03-11');
    expect(businessDay(new Date('2026-12-31T23:00:00-03:00'))).toBe('2026-12-31');
    expect(businessDay(new Date('2027-01-01T00:00:00-03:00'))).toBe('2027-01-01');
  });

  it('81.01 DDMMYYHHmmss is host time', () => {
    expect(qrInstant('110327000005')).toBe(Date.parse('2027-03-11T00:00:05-03:00'));
    expect(qrInstant('311226235959')).toBe(Date.parse('2026-12-31T23:59:59-03:00'));
    expect(qrInstant('1103270000')).toBeUndefined();
    expect(qrInstant('aa0327000005')).toBeUndefined();
  });

  it('cents bands: 10–19 sale, 20–29 undo/confirm, 30–39 confirm of a denied sale, 40–49 void, 50–59 void confirm', () => {
    expect([1009, 1010, 1019, 1020, 1039, 1049, 1059, 1060, 5].map(centsBand)).toEqual([
      undefined,
      10,
      10,
      20,
      30,
      40,
      50,
      undefined,
      undefined,
    ]);
  });
});
