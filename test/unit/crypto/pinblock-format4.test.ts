import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { decipherFormat4, decryptPin, encryptPin, panField4, toHex } from '../../../src/crypto/index.js';

const V = JSON.parse(
  readFileSync(new URL('../../vectors/crypto/iso9564-format4-pan.json', import.meta.url), 'utf8'),
) as {
  panFields: { rows: { pan: string; panField: string }[] };
  refused: { rows: string[] };
  enciphered: { key: string; rows: { pin: string; pan: string; fill?: string; encryptedPinBlock: string }[] };
};
const KEY = V.enciphered.key;
function seed(name: string): number {
  const s = Date.now() % 2 ** 31;
  console.log(`fast-check seed for "${name}": ${s}`);
  return s;
}

describe('ISO 9564-1 format 4: the PAN field for PANs of 1 to 19 digits (published)', () => {
  it.each(V.panFields.rows)('PAN $pan -> $panField', ({ pan, panField }) => {
    expect(toHex(panField4(pan))).toBe(panField);
  });

  it.each(V.refused.rows)('refuses PAN %j with PINBLOCK_INVALID (reason pan)', (pan) => {
    expect(() => panField4(pan)).toThrow(
      expect.objectContaining({ code: 'PINBLOCK_INVALID', context: expect.objectContaining({ reason: 'pan' }) }),
    );
  });

  it.each(V.enciphered.rows)(
    'PIN $pin, PAN $pan: $encryptedPinBlock deciphers to the PIN (and enciphers to it with the fill)',
    (row) => {
      expect(decryptPin({ format: 4, block: row.encryptedPinBlock, pan: row.pan, key: KEY })).toBe(row.pin);
      if (row.fill) {
        expect(
          toHex(encryptPin({ format: 4, pin: row.pin, pan: row.pan, key: KEY, fill: row.fill }).encryptedPinBlock),
        ).toBe(row.encryptedPinBlock);
      }
    },
  );

  it('a PAN of 7, 4 and 1 digits is encoded and decoded, not refused (it was refused below 8 digits)', () => {
    for (const pan of ['1234567', '1234', '1']) {
      const { encryptedPinBlock } = encryptPin({ format: 4, pin: '1234', pan, key: KEY, fill: '0123456789ABCDEF' });
      expect(decryptPin({ format: 4, block: encryptedPinBlock, pan, key: KEY })).toBe('1234');
      // the PAN binds: the same block under the zero-padded 12-digit PAN field gives the same clear field
      expect(toHex(decipherFormat4(KEY, encryptedPinBlock, pan.padStart(12, '0')))).toBe(
        toHex(decipherFormat4(KEY, encryptedPinBlock, pan)),
      );
    }
  });
});

describe('ISO 9564-1 format 4 with short PANs: properties', () => {
  it('any PIN and any PAN of 1 to 19 digits: encrypt then decrypt gives the PIN; another PAN field does not', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{4,12}$/),
        fc.stringMatching(/^\d{1,19}$/),
        fc.stringMatching(/^\d{1,19}$/),
        fc.uint8Array({ minLength: 16, maxLength: 32 }),
        (pin, pan, other, keyBytes) => {
          const key = Buffer.from(keyBytes.subarray(0, keyBytes.length >= 32 ? 32 : keyBytes.length >= 24 ? 24 : 16));
          const { encryptedPinBlock } = encryptPin({ format: 4, pin, pan, key });
          expect(decryptPin({ format: 4, block: encryptedPinBlock, pan, key })).toBe(pin);
          if (toHex(panField4(other)) !== toHex(panField4(pan))) {
            let read: string | undefined;
            try {
              read = decryptPin({ format: 4, block: encryptedPinBlock, pan: other, key });
            } catch (e) {
              expect(isOmniposError(e, 'PINBLOCK_INVALID')).toBe(true);
            }
            if (read !== undefined) expect(read).not.toBe(pin);
          }
        },
      ),
      { numRuns: 1000, seed: seed('format 4 short pan round trip') },
    );
  });
});
