import { describe, expect, it } from 'vitest';
import { RETURN_CODES, returnCodeName } from '../../../tables/acquirer/return-codes.js';
import { SANDBOX_KEYS } from '../../../tables/sandbox-keys.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import cardOutcomes from '../../../tables/acquirer/card-outcomes.json' with { type: 'json' };

describe('acquirer tables', () => {
  it('test cards: one per last digit 0-9, Luhn-valid, with track 2 and expiry forms', () => {
    const digits = new Set(TEST_CARDS.map((c) => c.lastDigitOutcome));
    expect([...digits].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const c = TEST_CARDS[0];
    expect(c?.track2).toMatch(/^\d{16}=\d{7}\d{10}$/);
    expect(c?.expirationDate).toBe('12/2030');
  });

  it('card outcome table has every digit', () => {
    expect(Object.keys(cardOutcomes.byLastDigit).sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('return codes are unique and match numbers and strings alike', () => {
    expect(new Set(RETURN_CODES.map((r) => r.code)).size).toBe(RETURN_CODES.length);
    expect(new Set(RETURN_CODES.map((r) => r.name)).size).toBe(RETURN_CODES.length);
    expect(returnCodeName('310')).toBe('ALREADY_UNDONE');
    expect(returnCodeName(310)).toBe('ALREADY_UNDONE');
    expect(returnCodeName(5)).toBe('NOT_AUTHORIZED');
    expect(returnCodeName('000')).toBe('APPROVED');
    expect(returnCodeName(0)).toBe('SUCCESS');
    expect(returnCodeName('XYZ')).toBeUndefined();
  });

  it('sandbox keys: the X9.24-1 test BDK', () => {
    expect(SANDBOX_KEYS.bdk).toBe('0123456789ABCDEFFEDCBA9876543210');
    expect(SANDBOX_KEYS.pinInitialKsn.startsWith(`FFFFF${SANDBOX_KEYS.ksi}`)).toBe(true);
  });
});
