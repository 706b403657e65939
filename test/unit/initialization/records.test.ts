import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  AID_FIELDS,
  CAPK_FIELDS,
  capkChecksum,
  decodeRecord,
  decodeRecords,
  encodeRecord,
  padField,
} from '../../../src/initialization/index.js';
import vectors from '../../vectors/initialization/abecs-4.1-records.json' with { type: 'json' };
import { seed } from '../../helpers/initialization-tables.js';

describe('§4.1 records: the specification examples (ABECS v2.20 §4.1.1, §4.1.2)', () => {
  for (const name of ['aid340', 'aid314', 'capk'] as const) {
    const v = vectors[name];
    it(`${name}: ${v.source}`, () => {
      const r = decodeRecord(v.record, name);
      expect(r.length).toBe(v.record.length);
      expect(r.raw).toBe(v.record);
      const { TAB_ACQ, TAB_RECIDX, ...fields } = v.expect as Record<string, string>;
      expect(r.acquirer).toBe(TAB_ACQ);
      expect(r.index).toBe(TAB_RECIDX);
      expect(r.fields).toMatchObject(fields);
    });
  }

  it('the 314 record stops at T1_CTLSTACONL (v2.0x); the 340 record carries the v2.20 fields', () => {
    expect(decodeRecord(vectors.aid314.record).fields).not.toHaveProperty('T1_CTLSTRMCP');
    expect(decodeRecord(vectors.aid314.record).fields).toHaveProperty('T1_CTLSTACONL');
    expect(decodeRecord(vectors.aid340.record).fields).toHaveProperty('T1_CTLSISSSCR');
  });

  it('the CA key check sum is the SHA-1 of RID, index, modulus and exponent (§4.1.2 example verifies)', () => {
    const f = decodeRecord(vectors.capk.record).fields;
    expect(capkChecksum(f.T2_RID!, f.T2_CAPKIDX!, f.T2_MOD!.slice(0, 288), f.T2_EXP!.slice(0, 2))).toBe(f.T2_CHECKSUM);
    const bad =
      vectors.capk.record.slice(0, 100) +
      (vectors.capk.record[100] === 'A' ? 'B' : 'A') +
      vectors.capk.record.slice(101);
    expect(() => decodeRecords(bad, 'PublicKeys')).toThrow(/^PublicKeys\[0\]\.T2_CHECKSUM: does not match/);
  });

  it('splits concatenated records, line breaks between them allowed, and names the bad one', () => {
    const text = `${vectors.aid340.record}\r\n${vectors.aid314.record}`;
    expect(decodeRecords(text, 'AidParameters').map((r) => r.index)).toEqual(['MC', '01']);
    const broken = `${vectors.aid340.record}${vectors.aid314.record.replace('A000000004', 'A00000000G')}`;
    expect(() => decodeRecords(broken, 'AidParameters')).toThrow(
      'AidParameters[1].T1_AID: expected 32 upper-case hex digits',
    );
    expect(() => decodeRecords(vectors.aid340.record.slice(0, 300), 'AidParameters')).toThrow(
      'AidParameters[0].TAB_LEN: says 340 characters, only 300 remain',
    );
    expect(() => decodeRecords(vectors.aid340.record.replace('340102MC07', '340102MC04'), 'AidParameters')).toThrow(
      'AidParameters[0].T1_AIDLEN: expected 05 to 16 bytes',
    );
  });

  it('encode → decode gives the fields back (property)', () => {
    const hexChar = fc.constantFrom(...'0123456789ABCDEF');
    const field = (f: { format: string; size: number }) =>
      f.format === 'H'
        ? fc.string({ unit: hexChar, minLength: f.size, maxLength: f.size })
        : f.format === 'N'
          ? fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: f.size, maxLength: f.size })
          : fc.string({ unit: fc.constantFrom(...'ABC xyz019-/'), minLength: f.size, maxLength: f.size });
    const aid = fc
      .record(Object.fromEntries(AID_FIELDS.map((f) => [f.name, field(f)])))
      .map((r): Record<string, string> => ({ ...r, T1_AIDLEN: '07', T1_ICCSTD: '03' }));
    fc.assert(
      fc.property(aid, fc.constantFrom(284, 314, 340), fc.integer({ min: 1, max: 99 }), (fields, length, acq) => {
        const text = encodeRecord({ kind: 'aid', acquirer: String(acq).padStart(2, '0'), index: 'A1', fields, length });
        expect(text.length).toBe(length);
        const back = decodeRecord(text);
        for (const [k, v] of Object.entries(back.fields)) expect(v).toBe(fields[k]);
      }),
      { numRuns: 1000, seed: seed('§4.1 AID encode/decode') },
    );
  });

  it('builds a CA key record whose check sum verifies', () => {
    const mod = 'C6'.repeat(128);
    const fields = Object.fromEntries(CAPK_FIELDS.map((f) => [f.name, '0'.repeat(f.size)]));
    Object.assign(fields, {
      T2_RID: 'A000000003',
      T2_CAPKIDX: '99',
      T2_EXPLEN: '1',
      T2_EXP: padField('03', 6, 'H'),
      T2_MODLEN: '128',
      T2_MOD: padField(mod, 496, 'H'),
      T2_CHKSTAT: '1',
      T2_CHECKSUM: capkChecksum('A000000003', '99', mod, '03'),
    });
    expect(
      decodeRecord(encodeRecord({ kind: 'capk', acquirer: '03', index: '01', fields })).fields.T2_CHECKSUM,
    ).toHaveLength(40);
  });

  it('never throws anything but INIT_RECORD_INVALID and never hangs on junk (fuzz)', () => {
    const base = `${vectors.aid340.record}${vectors.capk.record}`;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 700 }),
          fc
            .tuple(fc.nat(base.length), fc.string({ maxLength: 5 }))
            .map(([i, s]) => base.slice(0, i) + s + base.slice(i + s.length)),
        ),
        (text) => {
          try {
            decodeRecords(text, 'PublicKeys');
          } catch (e) {
            expect(isOmniposError(e, 'INIT_RECORD_INVALID')).toBe(true);
          }
        },
      ),
      { numRuns: 1000, seed: seed('§4.1 records fuzz') },
    );
  });
});
