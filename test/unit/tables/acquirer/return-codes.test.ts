import { describe, expect, it } from 'vitest';
import { RETURN_CODES, codeMeaning, publishedCode, returnCodeRows } from '../../../../tables/acquirer/return-codes.js';
import returnCodes from '../../../../tables/acquirer/return-codes.json' with { type: 'json' };
import { SANDBOX_KEYS } from '../../../../tables/sandbox-keys.js';
import { TEST_CARDS } from '../../../../tables/test-cards.js';
import cardOutcomes from '../../../../tables/sandbox/card-outcomes.json' with { type: 'json' };

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

  it('return codes: only published ones, each with its source, matched exactly (no numeric folding)', () => {
    expect(new Set(RETURN_CODES.map((r) => r.code)).size).toBe(RETURN_CODES.length);
    expect(new Set(RETURN_CODES.map((r) => r.name)).size).toBe(RETURN_CODES.length);
    for (const r of RETURN_CODES)
      expect(r.source).toMatch(/cielo-conecta\.md:\d+|cielo-ecommerce\.md:\d+|seeds\/002_21be35c8be2de648\.txt:\d+/);
    // The sandbox-invented meanings are gone: 310 is the published "payment method does not support this operation".
    expect(publishedCode('310')?.name).toBe('OPERATION_NOT_SUPPORTED');
    expect(codeMeaning('310')).toBe('informational');
    for (const code of ['313', '314', '315', '316', '317']) expect(publishedCode(code)).toBeUndefined();
    expect(publishedCode('0310')).toBeUndefined();
    expect(publishedCode(5)).toBeUndefined();
    expect(publishedCode('05')?.name).toBe('NOT_AUTHORIZED');
    expect(publishedCode('000')?.name).toBe('APPROVED');
    expect(publishedCode(0)?.name).toBe('SUCCESS');
    expect(publishedCode(307)?.meaning).toBe('not-found');
    expect(publishedCode('302')?.meaning).toBe('duplicate-order-id');
    expect(publishedCode('XYZ')).toBeUndefined();
  });

  it('sandbox keys: the X9.24-1 test BDK', () => {
    expect(SANDBOX_KEYS.bdk).toBe('0123456789ABCDEFFEDCBA9876543210');
    expect(SANDBOX_KEYS.pinInitialKsn.startsWith(`FFFFF${SANDBOX_KEYS.ksi}`)).toBe(true);
  });
});

describe('RETURN_CODES against its schema (checked here, not at every start)', () => {
  it('the JSON passes its schema, and the table is what the schema reads from it (keys in order)', () => {
    const parsed = returnCodeRows().parse(returnCodes.codes);
    expect(RETURN_CODES).toStrictEqual(parsed);
    expect(JSON.stringify(RETURN_CODES)).toBe(JSON.stringify(parsed));
  });

  it('the schema refuses a bad row', () => {
    expect(returnCodeRows().safeParse([{ ...returnCodes.codes[0], code: '0x1' }]).success).toBe(false);
    expect(returnCodeRows().safeParse([{ ...returnCodes.codes[0], extra: 1 }]).success).toBe(false);
  });
});
