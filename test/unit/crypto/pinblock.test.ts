import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  aesEcb,
  decodePinBlock,
  decryptPin,
  encodePinBlock,
  encryptPin,
  panField4,
  pinKey,
  toHex,
  xor,
  type PinBlockFormat,
} from '../../../src/crypto/index.js';

interface Row {
  source: string;
  format: PinBlockFormat;
  pin: string;
  pan?: string;
  fill?: string;
  clearBlock: string;
  panField?: string;
}
interface Enciphered extends Row {
  key: string;
  encryptedPinBlock: string;
  intermediateA?: string;
  intermediateB?: string;
}
const V = JSON.parse(readFileSync(new URL('../../vectors/crypto/iso9564-pinblocks.json', import.meta.url), 'utf8')) as {
  rows: Row[];
  enciphered: Enciphered[];
};
const RUNS = 1000;
function seed(name: string): number {
  const s = Date.now() % 2 ** 31;
  console.log(`fast-check seed for "${name}": ${s}`);
  return s;
}
function reasonOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (isOmniposError(e, 'PINBLOCK_INVALID')) return String(e.context.reason);
    throw e;
  }
  return undefined;
}

describe('ISO 9564-1 PIN blocks: published examples', () => {
  describe.each(V.rows)('format $format, PIN $pin ($source)', (row) => {
    it('encodes the clear block', () => {
      const block = encodePinBlock({
        format: row.format,
        pin: row.pin,
        ...(row.pan ? { pan: row.pan } : {}),
        ...(row.fill ? { fill: row.fill } : {}),
      });
      expect(toHex(block)).toBe(row.clearBlock);
    });
    it('decodes it back to the PIN', () => {
      expect(decodePinBlock(row.clearBlock, { format: row.format, ...(row.pan ? { pan: row.pan } : {}) })).toBe(
        row.pin,
      );
    });
    if (row.panField) {
      it('builds the format 4 PAN field', () => {
        expect(toHex(panField4(row.pan!))).toBe(row.panField);
      });
    }
  });
});

describe('ISO 9564-1 PIN blocks: published enciphered examples', () => {
  describe.each(V.enciphered)('format $format, PAN $pan ($source)', (row) => {
    it('enciphers the clear block to the published PIN block and back', () => {
      const fill = row.format === 4 ? row.clearBlock.slice(16) : undefined;
      const out = encryptPin({
        format: row.format,
        pin: row.pin,
        pan: row.pan!,
        key: row.key,
        ...(fill ? { fill } : {}),
      });
      expect(toHex(out.clearBlock)).toBe(row.clearBlock);
      expect(toHex(out.encryptedPinBlock)).toBe(row.encryptedPinBlock);
      expect(decryptPin({ format: row.format, block: row.encryptedPinBlock, pan: row.pan!, key: row.key })).toBe(
        row.pin,
      );
    });
    if (row.intermediateA) {
      it('goes through the published intermediate blocks A = E(PIN field) and B = A xor PAN field', () => {
        const a = aesEcb(Buffer.from(row.key, 'hex'), Buffer.from(row.clearBlock, 'hex'));
        expect(toHex(a)).toBe(row.intermediateA);
        expect(toHex(xor(a, panField4(row.pan!)))).toBe(row.intermediateB);
        expect(toHex(panField4(row.pan!))).toBe(row.panField);
      });
    }
  });
});

describe('PIN block decoding refuses with a reason', () => {
  const pan = '4012345678909';
  it.each([
    ['a control field of another format', '141274EDCBA9876F', 0, 'control'],
    ['a PIN length of 3', '031274EDCBA9876F', 0, 'length'],
    ['a PIN length of 13', '0D1274EDCBA9876F', 0, 'length'],
    ['a non-decimal PIN digit', '04127AEDCBA9876F', 0, 'digit'],
    ['a fill that is not F', '041274EDCBA9876E', 0, 'fill'],
    ['a short block', '041274EDCBA987', 0, 'size'],
    ['non-hex text', '041274EDCBA9876Z', 0, 'size'],
    ['a format 3 block read as format 1', '3412349999999999', 1, 'control'],
    ['a format 4 fill that is not A', '441234AAAAAAAAAB0000000000000000', 4, 'fill'],
    ['format 2 (offline only, not supported)', '241234FFFFFFFFFF', 2, 'format'],
  ])('%s', (_what, block, format, reason) => {
    expect(reasonOf(() => decodePinBlock(block, { format: format as PinBlockFormat, pan }))).toBe(reason);
  });

  it('format 3 with fill digits below A', () => {
    const clear = encodePinBlock({ format: 0, pin: '1234', pan }); // F fill is legal in 3 too; make one fill digit 9
    const b = Buffer.from(clear);
    b[7]! ^= 0x06; // F -> 9 in the last nibble (after un-XOR with the PAN field)
    b[0] = (b[0]! & 0x0f) | 0x30;
    expect(reasonOf(() => decodePinBlock(b, { format: 3, pan }))).toBe('fill');
  });

  it('a PAN that is not 8 to 19 digits', () => {
    expect(reasonOf(() => decodePinBlock('041274EDCBA9876F', { format: 0, pan: '1234567' }))).toBe('pan');
    expect(reasonOf(() => encodePinBlock({ format: 0, pin: '1234', pan: '40123456789O9' }))).toBe('pan');
  });

  it('a PIN that is not 4 to 12 digits, when encoding', () => {
    expect(reasonOf(() => encodePinBlock({ format: 1, pin: '123' }))).toBe('pin');
    expect(reasonOf(() => encodePinBlock({ format: 1, pin: '1234567890123' }))).toBe('pin');
    expect(reasonOf(() => encodePinBlock({ format: 1, pin: '12a4' }))).toBe('pin');
    expect(reasonOf(() => encodePinBlock({ format: 3, pin: '1234', pan, fill: 'ABCDEF12' }))).toBe('fill');
  });
});

describe('encryptPin and decryptPin', () => {
  it('reproduce the X9.24-1 annex encrypted PIN block for KSN FFFF9876543210E00001', () => {
    const key = pinKey('6AC292FAA1315B4D858AB3A3D7D5933A', 'FFFF9876543210E00001');
    const out = encryptPin({ format: 0, pin: '1234', pan: '4012345678909', key });
    expect(toHex(out.clearBlock)).toBe('041274EDCBA9876F');
    expect(toHex(out.encryptedPinBlock)).toBe('1B9C1845EB993A7A');
    expect(decryptPin({ format: 0, block: '1B9C1845EB993A7A', pan: '4012345678909', key })).toBe('1234');
  });

  it('a wrong PAN makes a format 0 block fail to decode or give another PIN, never the PIN', () => {
    const key = pinKey('6AC292FAA1315B4D858AB3A3D7D5933A', 'FFFF9876543210E00001');
    let pin: string | undefined;
    try {
      pin = decryptPin({ format: 0, block: '1B9C1845EB993A7A', pan: '4012345678917', key });
    } catch (e) {
      expect(isOmniposError(e, 'PINBLOCK_INVALID')).toBe(true);
    }
    expect(pin).not.toBe('1234');
  });
});

const pinArb = fc.stringMatching(/^\d{4,12}$/);
const panArb = fc.stringMatching(/^\d{8,19}$/);
const formatArb = fc.constantFrom<PinBlockFormat>(0, 1, 3, 4);

describe('PIN block properties', () => {
  it('decode(encode(x)) = x for every format, PIN and PAN', () => {
    const s = seed('pinblock round trip');
    fc.assert(
      fc.property(
        formatArb,
        pinArb,
        panArb,
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        (format, pin, pan, rnd) => {
          const block = encodePinBlock({ format, pin, pan, random: (n) => rnd.subarray(0, n) });
          expect(block).toHaveLength(format === 4 ? 16 : 8);
          expect(decodePinBlock(block, { format, pan })).toBe(pin);
        },
      ),
      { numRuns: RUNS, seed: s },
    );
  });

  it('decrypt(encrypt(x)) = x under TDES (formats 0, 1, 3) and AES (format 4) keys', () => {
    const s = seed('pin encryption round trip');
    fc.assert(
      fc.property(
        formatArb,
        pinArb,
        panArb,
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (format, pin, pan, keyBytes) => {
          const key = format === 4 ? keyBytes : keyBytes.subarray(0, 16);
          const { encryptedPinBlock } = encryptPin({ format, pin, pan, key });
          expect(decryptPin({ format, block: encryptedPinBlock, pan, key })).toBe(pin);
        },
      ),
      { numRuns: RUNS, seed: s },
    );
  });

  it('random bytes or text into the decoder give a PIN or PINBLOCK_INVALID, never another exception', () => {
    const s = seed('pinblock fuzz');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 20 }),
          fc.string({ maxLength: 40 }),
          fc.stringMatching(/^[0-9A-F]{16}$/),
          fc.stringMatching(/^[0-9A-F]{32}$/),
        ),
        formatArb,
        fc.oneof(panArb, fc.string({ maxLength: 22 })),
        (block, format, pan) => {
          try {
            const pin = decodePinBlock(block, { format, pan });
            expect(pin).toMatch(/^\d{4,12}$/);
          } catch (e) {
            expect(isOmniposError(e, 'PINBLOCK_INVALID')).toBe(true);
          }
        },
      ),
      { numRuns: RUNS, seed: s },
    );
  });

  it('random encrypted blocks into decryptPin give a PIN or a typed error', () => {
    const s = seed('decryptPin fuzz');
    const key = Buffer.alloc(16, 0x11);
    fc.assert(
      fc.property(
        fc.oneof(fc.uint8Array({ maxLength: 20 }), fc.string({ maxLength: 40 })),
        formatArb,
        panArb,
        (block, format, pan) => {
          try {
            decryptPin({ format, block, pan, key });
          } catch (e) {
            expect(isOmniposError(e)).toBe(true);
          }
        },
      ),
      { numRuns: RUNS, seed: s },
    );
  });
});
