import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  aesCmac,
  decryptData,
  decryptPin,
  deriveAesInitialKey,
  deriveAesKeys,
  deriveAesTransactionKey,
  deriveAesWorkingKey,
  encryptData,
  encryptPin,
  parseAesKsn,
  toHex,
} from '../../../src/crypto/index.js';

interface Row {
  source: string;
  ksn: string;
  transactionKey: string;
  dataSource?: string;
  cmacRequest?: string;
  cmacResponse?: string;
  dataRequest?: string;
  dataResponse?: string;
}
const V = JSON.parse(
  readFileSync(new URL('../../vectors/crypto/x9.24-3-2017-aes-dukpt.json', import.meta.url), 'utf8'),
) as {
  bdk128: string;
  bdk256: string;
  initialKeyId: string;
  initialKey128: string;
  initialKey256: string;
  sampleDataAscii: string;
  rows: Row[];
};
const data = Buffer.from(V.sampleDataAscii, 'ascii');

describe('AES DUKPT, ANSI X9.24-3:2017', () => {
  it('derives the AES-128 and AES-256 initial keys', () => {
    expect(toHex(deriveAesInitialKey(V.bdk128, `${V.initialKeyId}00000000`))).toBe(V.initialKey128);
    expect(toHex(deriveAesInitialKey(V.bdk256, `${V.initialKeyId}00000001`))).toBe(V.initialKey256);
  });

  describe.each(V.rows)('KSN $ksn ($source)', (row) => {
    it('derives the transaction key', () => {
      expect(toHex(deriveAesTransactionKey(V.initialKey128, row.ksn))).toBe(row.transactionKey);
    });
    if (row.dataRequest) {
      it('encrypts the sample data under the data keys and MACs it under the MAC keys', () => {
        const tk = row.transactionKey;
        const enc = deriveAesWorkingKey(tk, row.ksn, 'dataEncrypt');
        const dec = deriveAesWorkingKey(tk, row.ksn, 'dataDecrypt');
        expect(toHex(encryptData(enc, data, { algorithm: 'aes' }))).toBe(row.dataRequest);
        expect(toHex(encryptData(dec, data, { algorithm: 'aes' }))).toBe(row.dataResponse);
        expect(
          decryptData(enc, row.dataRequest!, { algorithm: 'aes' }).subarray(0, data.length).toString('ascii'),
        ).toBe(V.sampleDataAscii);
        expect(toHex(aesCmac(deriveAesWorkingKey(tk, row.ksn, 'macGeneration'), data))).toBe(row.cmacRequest);
        expect(toHex(aesCmac(deriveAesWorkingKey(tk, row.ksn, 'macVerification'), data))).toBe(row.cmacResponse);
      });
      it('deriveAesKeys gives the same keys from the BDK', () => {
        const k = deriveAesKeys(V.bdk128, row.ksn);
        expect(toHex(k.initialKey)).toBe(V.initialKey128);
        expect(toHex(encryptData(k.dataKeyRequest, data, { algorithm: 'aes' }))).toBe(row.dataRequest);
        expect(toHex(aesCmac(k.macKeyResponse, data))).toBe(row.cmacResponse);
      });
    }
  });

  it('refuses a counter with 17 one-bits (0x1FFFF) and a KSN of the wrong size', () => {
    expect(() => parseAesKsn('12345678901234560001FFFF')).toThrow(
      expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }),
    );
    expect(() => parseAesKsn('FFFF9876543210E00001')).toThrow(expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }));
    expect(() => deriveAesInitialKey('0011', '123456789012345600000001')).toThrow(
      expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }),
    );
  });

  it('property: a format 4 PIN block encrypted under the device PIN key decrypts under the host one (seeded)', () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`fast-check seed for "aes dukpt pin round trip": ${seed}`);
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{4,12}$/),
        fc.stringMatching(/^\d{12,19}$/),
        fc.integer({ min: 1, max: 0xffff }),
        (pin, pan, counter) => {
          const ksn = `${V.initialKeyId}${counter.toString(16).padStart(8, '0')}`;
          const device = deriveAesWorkingKey(deriveAesTransactionKey(V.initialKey128, ksn), ksn, 'pinEncryption');
          const { encryptedPinBlock } = encryptPin({ format: 4, pin, pan, key: device });
          const host = deriveAesKeys(V.bdk128, ksn).pinKey;
          expect(decryptPin({ format: 4, block: encryptedPinBlock, pan, key: host })).toBe(pin);
        },
      ),
      { numRuns: 1000, seed },
    );
  });

  it('property: any bytes or text into parseAesKsn give a KSN or CRYPTO_INVALID_KEY', () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`fast-check seed for "aes ksn fuzz": ${seed}`);
    fc.assert(
      fc.property(
        fc.oneof(fc.uint8Array({ maxLength: 14 }), fc.string({ maxLength: 26 }), fc.stringMatching(/^[0-9A-F]{24}$/)),
        (input) => {
          try {
            expect(parseAesKsn(input).bytes).toHaveLength(12);
          } catch (e) {
            expect(isOmniposError(e, 'CRYPTO_INVALID_KEY')).toBe(true);
          }
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
