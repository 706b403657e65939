import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOpaqueEmvField } from '../../../src/core/log/index.js';
import { assertNoCardData } from '../../../src/store/no-card-data.js';

/** Luhn check digit appended to `body` (ISO/IEC 7812-1). */
function withLuhn(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    sum += d > 9 ? d - 9 : d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

describe('assertNoCardData and EMV tags', () => {
  // The CI run that found it: an application cryptogram (9F26, 8 bytes) whose 16 hex digits were all
  // decimal and Luhn-valid was refused as a card number, and the refusal killed the daemon mid-sale.
  it('lets any cryptogram, TVR, IAD or counter through under its tag, even one that reads as a Luhn-valid PAN (1000 runs, seed printed)', () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`opaque EMV seed ${seed}`);
    fc.assert(
      fc.property(
        fc.constantFrom('9F26', '9F10', '9F36', '9F37', '95', '9B', '8A', '9F5B', '9f26'),
        fc.stringMatching(/^[0-9]{15}$/),
        (tag, body) => {
          const value = withLuhn(body);
          expect(() => assertNoCardData({ emv: { [tag]: value } }, 'journal.data')).not.toThrow();
        },
      ),
      { numRuns: 1000, seed },
    );
  });

  it('still refuses a PAN under the tags that carry one (5A, 57, 9F6B), under any other key, and in a non-hex value', () => {
    const pan = withLuhn('476173000000006');
    for (const tag of ['5A', '57', '9F6B', '9F20', 'note']) {
      expect(() => assertNoCardData({ emv: { [tag]: pan } }, 'journal.data'), tag).toThrow(
        /holds a card number|sensitive/,
      );
    }
    expect(() => assertNoCardData({ emv: { '9F26': `PAN ${pan}` } }, 'journal.data')).toThrow(/holds a card number/);
    expect(isOpaqueEmvField('9F26', `${pan}Z`)).toBe(false);
    expect(isOpaqueEmvField('9F26', 42)).toBe(false);
  });
});

describe('assertNoCardData and the webservice 1.5 TID', () => {
  // The chaos run that found it (29 Nov 2026, --cnp webservice15): a phone order's TID whose digits before
  // its first letter were a Luhn-valid 13 could not be journaled, so the approved sale went to the undo
  // race, was voided, and its outbox task could never record that (`undoing` for good).
  it("journals the manual's own TIDs as a PaymentId, one of whose digit runs reads as a card number", () => {
    for (const tid of ['10069930690360EF1001', '100699306903609A1001', '10069930690101012005']) {
      expect(() => assertNoCardData({ paymentId: tid }, 'outbox.payload'), tid).not.toThrow();
      expect(() => assertNoCardData({ sale: { paymentId: tid } }, 'journal.data'), tid).not.toThrow();
    }
  });

  it('still refuses a PAN under paymentId, and the TID shape under any other key', () => {
    expect(() => assertNoCardData({ paymentId: withLuhn('476173000000006') }, 'journal.data')).toThrow(
      /holds a card number/,
    );
    expect(() => assertNoCardData({ note: '10069930690360EF1001' }, 'journal.data')).toThrow(/holds a card number/);
  });
});
