import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  unattendedTerminalData,
  unattendedTerminalType,
  withoutSignature,
} from '../../../src/adapters/pinpad-terminal-emv.js';
import { decodeRecords } from '../../../src/initialization/records/index.js';
import { chooseChipCvm } from '../../../src/sim/pinpad/card/emv.js';
import { sandboxTables } from '../../../tables/initialization/sandbox-tables.js';

const seed = Date.now() % 2 ** 31;
console.log(`kiosk terminal EMV properties, fast-check seed ${seed}`);

describe('the kiosk terminal data, derived from the attended values (EMV Book 4 Annex A1, A2)', () => {
  it.each([
    // Book 4 A1: operator digit kept (1 financial institution, 2 merchant, 3 cardholder), environment 4 = unattended, online only
    ['22', '24'],
    ['21', '24'],
    ['23', '24'],
    ['12', '14'],
    ['34', '34'],
    [undefined, '24'],
    ['99', '24'],
  ])('terminal type %s → %s', (attended, kiosk) => {
    expect(unattendedTerminalType(attended)).toBe(kiosk);
  });

  it.each([
    // Book 4 A2 byte 2: b8 plaintext PIN, b7 online PIN, b6 signature (0x20), b5 offline enciphered PIN, b4 no CVM
    ['E0F0C8', 'E0D8C8'],
    ['E0F8C8', 'E0D8C8'],
    ['E0B8C8', 'E098C8'],
    ['E0D8C8', 'E0D8C8'],
    ['E06008', 'E04808'],
    ['E0F0', undefined],
  ])('capabilities %s → %s', (attended, kiosk) => {
    expect(withoutSignature(attended)).toBe(kiosk);
  });

  it('from the sandbox AID records (T1_TRMTYP 22, T1_TRMCAPAB E0F0C8): 9F35 24 and 9F33 E0D8C8, as TLV', () => {
    const records = decodeRecords(
      (sandboxTables() as unknown as { AidParameters: string }).AidParameters,
      'AidParameters',
    );
    expect(records[0]!.fields.T1_TRMTYP).toBe('22');
    expect(unattendedTerminalData(records, '03')).toBe('9F3501249F3303E0D8C8');
    expect(unattendedTerminalData([], '03')).toBe('9F350124');
  });

  it('property: only byte 2 b6 and b4 change: b6 always clear, b4 always set (1000 runs)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 3, maxLength: 3 }), (b) => {
        const hex = Buffer.from(b).toString('hex').toUpperCase();
        const out = Buffer.from(withoutSignature(hex)!, 'hex');
        expect(out[0]).toBe(b[0]);
        expect(out[2]).toBe(b[2]);
        expect(out[1]! & 0x20).toBe(0);
        expect(out[1]! & 0x08).toBe(0x08);
        expect(out[1]! & ~0x28).toBe(b[1]! & ~0x28);
      }),
      { numRuns: 1000, seed },
    );
  });
});

describe('the virtual pinpad’s CVM list processing (EMV Book 3 §10.5, Annex C3) against 9F33', () => {
  const zeros = '0000000000000000';
  it('a card whose list puts signature first (1E 03 signature if supported, then 1F 03 no CVM): signature at a counter, no CVM at a kiosk', () => {
    expect(chooseChipCvm(`${zeros}1E031F03`, 'E0F0C8', 1000)).toEqual({ cvm: 'signature', results: '1E0300' });
    expect(chooseChipCvm(`${zeros}1E031F03`, 'E0D8C8', 1000)).toEqual({ cvm: 'none', results: '1F0302' });
  });
  it('signature then online PIN (5E 03, 42 03): online PIN at a kiosk', () => {
    expect(chooseChipCvm(`${zeros}5E0342031F03`, 'E0D8C8', 1000).cvm).toBe('online');
    expect(chooseChipCvm(`${zeros}5E0342031F03`, 'E0F0C8', 1000).cvm).toBe('signature');
  });
  it('the test cards’ lists (42 03 first) verify online on both', () => {
    for (const caps of ['E0F0C8', 'E0D8C8'])
      expect(chooseChipCvm(`${zeros}42031E0342035E031F03`, caps, 1000)).toEqual({ cvm: 'online', results: '420300' });
  });
  it('"always" signature (1E 00) with no b7 at a kiosk: CVM failed, no signature', () => {
    expect(chooseChipCvm(`${zeros}1E001F03`, 'E0D8C8', 1000)).toEqual({ cvm: 'none', results: '3F0001' });
  });
  it('at a counter (E0F0C8, no b4) signature then no CVM is signature; without signature nor b4 it would fail', () => {
    expect(chooseChipCvm(`${zeros}1E031F03`, 'E0D0C8', 1000)).toEqual({ cvm: 'none', results: '3F0001' });
  });
  it('property: terminal capabilities without b6 never end in signature, whatever the list (1000 runs)', () => {
    const rule = fc.tuple(
      fc.constantFrom(0x02, 0x42, 0x1e, 0x5e, 0x1f, 0x5f, 0x01, 0x41, 0x04),
      fc.constantFrom(0x00, 0x02, 0x03, 0x06, 0x07, 0x08, 0x09, 0x01),
    );
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 255 }),
        fc.nat(100_000),
        fc.nat(100_000),
        fc.nat(200_000),
        (rules, b2, x, y, amount) => {
          const list =
            x.toString(16).padStart(8, '0') +
            y.toString(16).padStart(8, '0') +
            rules.map(([c, k]) => c.toString(16).padStart(2, '0') + k.toString(16).padStart(2, '0')).join('');
          const caps = `E0${(b2 & ~0x20).toString(16).padStart(2, '0')}C8`;
          expect(chooseChipCvm(list, caps, amount).cvm).not.toBe('signature');
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
