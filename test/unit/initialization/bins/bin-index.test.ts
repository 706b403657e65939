import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../../src/core/errors/index.js';
import {
  BinIndex,
  linearLookup,
  normaliseHigh,
  normaliseLow,
  type BinRangeRow,
} from '../../../../src/initialization/index.js';
import { seed } from '../../../helpers/initialization-tables.js';

interface Row extends BinRangeRow {
  name: string;
}
const row = (name: string, InitialBin: string, FinalBin: string, Type: 0 | 1 = 0): Row => ({
  name,
  InitialBin,
  FinalBin,
  Type,
});
const winner = (index: BinIndex<Row>, digits: string) => index.lookup(digits)?.rows.map((r) => r.name);

describe('BIN ranges normalised to 19 digits', () => {
  it('pads the start with 0s and the end with 9s', () => {
    expect(normaliseLow('476173')).toBe('4761730000000000000');
    expect(normaliseHigh('47617399')).toBe('4761739999999999999');
  });
});

describe('BIN index', () => {
  const index = BinIndex.build<Row>([
    row('visa generic', '400000', '499999', 1),
    row('elo generic', '4000', '4999', 1), // the same span as visa generic once normalised: one group, both rows
    row('visa credit', '476173', '476173'),
    row('visa debit', '476173', '476173'),
    row('visa 8-digit', '47617310', '47617319'),
    row('wide specific', '470000', '479999'),
    row('master 8-digit', '54133300', '54133349'),
    row('partial overlap a', '520000', '529999'),
    row('partial overlap b', '525000', '535999'),
  ]);

  it('a specific range beats a generic one that also holds the card', () => {
    expect(winner(index, '47617300')).toEqual(['visa credit', 'visa debit']);
    expect(winner(index, '41000000')).toEqual(['visa generic', 'elo generic']);
  });

  it('a specific range beats a narrower generic one; among specific ones the narrowest wins', () => {
    expect(winner(index, '47000000')).toEqual(['wide specific']);
    expect(winner(index, '47617315')).toEqual(['visa 8-digit']);
    expect(winner(index, '47617320')).toEqual(['visa credit', 'visa debit']);
  });

  it('8-digit BINs: the first 8 digits pick the 8-digit range; 6 digits cannot, and get the 6-digit one', () => {
    expect(winner(index, '54133312')).toEqual(['master 8-digit']);
    expect(winner(index, '541333')).toBeUndefined();
    expect(winner(index, '476173')).toEqual(['visa credit', 'visa debit']);
    expect(winner(index, '4761732')).toEqual(['visa credit', 'visa debit']);
    expect(winner(index, '5413330000000001')).toEqual(['master 8-digit']);
  });

  it('partially overlapping ranges: each card gets the narrowest range that holds it', () => {
    expect(winner(index, '52400000')).toEqual(['partial overlap a']);
    expect(winner(index, '52600000')).toEqual(['partial overlap a']);
    expect(winner(index, '53000000')).toEqual(['partial overlap b']);
  });

  it('misses below, between and above every range', () => {
    expect(index.lookup('10000000')).toBeUndefined();
    expect(index.lookup('36000000')).toBeUndefined();
    expect(index.lookup('99999999')).toBeUndefined();
    expect(() => index.lookup('4761a300')).toThrow(/expected 1 to 19 digits/);
  });

  it('the bounds of the number space', () => {
    const edge = BinIndex.build<Row>([
      row('all', '0', '9', 1),
      row('top', '9999999999999999999', '9999999999999999999'),
    ]);
    expect(winner(edge, '9999999999999999999')).toEqual(['top']);
    expect(winner(edge, '0000000000000000000')).toEqual(['all']);
  });

  it('answers as a scan of every range would, on random overlapping tables (property)', () => {
    const bin = fc.oneof(
      fc.integer({ min: 100000, max: 999999 }).map(String),
      fc.integer({ min: 10000000, max: 99999999 }).map(String),
      fc.integer({ min: 1, max: 9 }).map(String),
    );
    const range = fc.tuple(bin, bin, fc.constantFrom<0 | 1>(0, 1)).map(([a, b, t]): Row => {
      const [lo, hi] = normaliseLow(a) <= normaliseHigh(b) ? [a, b] : [b, a];
      return row(`${lo}-${hi}/${t}`, lo, normaliseHigh(hi) >= normaliseLow(lo) ? hi : lo, t);
    });
    const query = fc.oneof(
      fc.integer({ min: 100000, max: 999999 }).map(String),
      fc.integer({ min: 10000000, max: 99999999 }).map(String),
      fc.integer({ min: 1e15, max: 9e15 }).map(String),
    );
    fc.assert(
      fc.property(
        fc.array(range, { minLength: 1, maxLength: 40 }),
        fc.array(query, { minLength: 1, maxLength: 30 }),
        (rows, queries) => {
          const idx = BinIndex.build(rows);
          for (const q of [...queries, ...rows.map((r) => r.InitialBin.padEnd(8, '5'))]) {
            expect(idx.lookup(q)?.rank).toBe(linearLookup(idx.groups, q)?.rank);
          }
        },
      ),
      { numRuns: 1000, seed: seed('BIN index vs linear scan') },
    );
  });

  it('refuses anything but 1 to 19 digits with INVALID_ARGUMENT, whatever the string (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 25 }), (q) => {
        try {
          const got = index.lookup(q);
          expect(/^\d{1,19}$/.test(q)).toBe(true);
          expect(got?.rank).toBe(linearLookup(index.groups, q)?.rank);
        } catch (e) {
          expect(isOmniposError(e, 'INVALID_ARGUMENT')).toBe(true);
          expect(/^\d{1,19}$/.test(q)).toBe(false);
        }
      }),
      { numRuns: 1000, seed: seed('BIN lookup fuzz') },
    );
    expect(() => index.lookup('')).toThrow(/expected 1 to 19 digits/);
    expect(() => index.lookup('1'.repeat(20))).toThrow(/expected 1 to 19 digits/);
  });
});
