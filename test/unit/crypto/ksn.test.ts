import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { countOnes, formatKsn, isValidCounter, nextCounter, parseKsn, withCounter } from '../../../src/crypto/index.js';

const RUNS = 1000;
function seed(name: string): number {
  const s = Date.now() % 2 ** 31;
  console.log(`fast-check seed for "${name}": ${s}`);
  return s;
}

describe('KSN', () => {
  it('reads the acquirer layout: FFFFF + 5-digit KSI + device id + 21-bit counter (docs/acquirer.md example)', () => {
    const k = parseKsn('FFFFF030331234500012', { acquirer: true });
    expect(k.prefix).toBe('FFFFF');
    expect(k.ksi).toBe('03033');
    // low 40 bits 0x1234500012: counter = low 21 bits, device id = the 19 above
    expect(k.counter).toBe(0x100012);
    expect(k.deviceId).toBe(0x91a2);
    expect(k.hex).toBe('FFFFF030331234500012');
    expect(k.initial.toString('hex').toUpperCase()).toBe('FFFFF030331234400000');
    expect(formatKsn({ ksi: '03033', deviceId: 0x91a2, counter: 0x100012 })).toBe('FFFFF030331234500012');
  });

  it('reads the X9.24-1 annex KSN (counter in the low 21 bits)', () => {
    const k = parseKsn('FFFF9876543210E00015');
    expect(k.counter).toBe(0x15);
    expect(k.initial.toString('hex').toUpperCase()).toBe('FFFF9876543210E00000');
    expect(parseKsn('FFFF9876543210EFFC00').counter).toBe(0xffc00);
  });

  it('refuses the annex KSN when the acquirer layout is required', () => {
    expect(() => parseKsn('FFFF9876543210E00015', { acquirer: true })).toThrow(
      expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }),
    );
  });

  it.each([
    ['an 11-bit counter', { ksi: '03033', deviceId: 1, counter: 0x7ff }],
    ['a 22-bit counter', { ksi: '03033', deviceId: 1, counter: 0x200000 }],
    ['a 20-bit device id', { ksi: '03033', deviceId: 0x80000, counter: 1 }],
    ['a KSI with a letter', { ksi: '0303A', deviceId: 1, counter: 1 }],
    ['a 4-digit KSI', { ksi: '0303', deviceId: 1, counter: 1 }],
  ])('formatKsn refuses %s', (_what, fields) => {
    expect(() => formatKsn(fields)).toThrow(expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }));
  });

  it('counts one-bits and skips counters with more than ten (X9.24-1)', () => {
    expect(countOnes(0x1ffc00)).toBe(11);
    expect(isValidCounter(0x3ff)).toBe(true);
    expect(isValidCounter(0x7ff)).toBe(false);
    expect(nextCounter(0x3fe)).toBe(0x3ff);
    expect(nextCounter(0x3ff)).toBe(0x400);
    expect(nextCounter(0x1ffc00)).toBeUndefined();
  });

  it('walks the rollover KSN series of X9.24-1:2009 A.4.3 (EFF800 ... EFFC00, F00000)', () => {
    const expected = [
      'EFF800',
      'EFF801',
      'EFF802',
      'EFF804',
      'EFF808',
      'EFF810',
      'EFF820',
      'EFF840',
      'EFF880',
      'EFF900',
      'EFFA00',
      'EFFC00',
      'F00000',
    ];
    let k = parseKsn('FFFF9876543210EFF800');
    const seen = [k.hex.slice(14)];
    while (seen.length < expected.length) {
      k = withCounter(k, nextCounter(k.counter)!);
      seen.push(k.hex.slice(14));
    }
    expect(seen).toEqual(expected);
  });

  it('property: formatKsn and parseKsn are inverse for every valid field set', () => {
    const s = seed('ksn round trip');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99999 }),
        fc.integer({ min: 0, max: 0x7ffff }),
        fc.integer({ min: 0, max: 0x1fffff }).filter(isValidCounter),
        (ksi, deviceId, counter) => {
          const text = formatKsn({ ksi: String(ksi).padStart(5, '0'), deviceId, counter });
          const k = parseKsn(text, { acquirer: true });
          expect([k.ksi, k.deviceId, k.counter]).toEqual([String(ksi).padStart(5, '0'), deviceId, counter]);
          expect(withCounter(k, 0).hex).toBe(k.initial.toString('hex').toUpperCase());
        },
      ),
      { numRuns: RUNS, seed: s },
    );
  });

  it('property: any bytes or text into parseKsn give a KSN or CRYPTO_INVALID_KEY, nothing else', () => {
    const s = seed('ksn fuzz');
    fc.assert(
      fc.property(
        fc.oneof(fc.uint8Array({ maxLength: 12 }), fc.string({ maxLength: 24 }), fc.stringMatching(/^[0-9A-F]{20}$/)),
        (input) => {
          try {
            const k = parseKsn(input);
            expect(k.bytes).toHaveLength(10);
            expect(countOnes(k.counter)).toBeLessThanOrEqual(10);
          } catch (e) {
            expect(isOmniposError(e, 'CRYPTO_INVALID_KEY')).toBe(true);
          }
        },
      ),
      { numRuns: RUNS, seed: s },
    );
  });
});
