import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  aesDerivationData,
  aesKeyTypeBytes,
  checkAesWorkingKeyType,
  decryptData,
  decryptPin,
  deriveAesInitialKey,
  deriveAesKeys,
  deriveAesTransactionKey,
  deriveAesWorkingKey,
  encryptData,
  encryptPin,
  toHex,
  AES_BDK_TYPES,
  AES_DUKPT_KEY_TYPES,
  AES_KEY_TYPES,
  type AesBdkType,
  type AesKeyType,
  type AesKeyUsage,
} from '../../../src/crypto/index.js';

interface Suite {
  name: string;
  bdk: 'bdk128' | 'bdk256';
  bdkType: AesBdkType;
  keyType: AesKeyType;
  source: string;
  transactionKeys: string[];
  rows: { ksn: string; pinKey: string; macKeyRequest: string; dataKeyRequest: string }[];
}
const V = JSON.parse(
  readFileSync(new URL('../../vectors/crypto/x9.24-3-2017-key-combinations.json', import.meta.url), 'utf8'),
) as {
  bdk128: string;
  bdk256: string;
  suites: Suite[];
  derivationData: { rows: { usage: AesKeyUsage; keyType: AesKeyType; counter: number; block: number; data: string }[] };
  notAllowed: { rows: { bdkType: AesBdkType; keyType: AesKeyType }[] };
  aes256TransactionKeys: { rows: { ksn: string; transactionKey: string }[] };
};
const RUNS = 1000;
function seed(name: string): number {
  const s = Date.now() % 2 ** 31;
  console.log(`fast-check seed for "${name}": ${s}`);
  return s;
}
const bytesOf = (t: AesKeyType): number => aesKeyTypeBytes(t);
const strength = (t: AesKeyType): number => AES_DUKPT_KEY_TYPES[t].strength;
const cipherOf = (t: AesKeyType): 'aes' | 'tdes' => (t.startsWith('tdes') ? 'tdes' : 'aes');

describe('AES DUKPT working key types independent of the BDK (X9.24-3:2017 supplement)', () => {
  describe.each(V.suites)('$name', (suite) => {
    const bdk = V[suite.bdk];
    it.each(suite.rows.map((r, i) => ({ ...r, transactionKey: suite.transactionKeys[i]! })))(
      'KSN $ksn: the published PIN, MAC and data keys',
      (row) => {
        const k = deriveAesKeys(bdk, row.ksn, { bdkType: suite.bdkType, keyType: suite.keyType });
        expect(k.bdkType).toBe(suite.bdkType);
        expect(k.keyType).toBe(suite.keyType);
        expect(toHex(k.transactionKey)).toBe(row.transactionKey);
        expect(toHex(k.pinKey)).toBe(row.pinKey);
        expect(toHex(k.macKeyRequest)).toBe(row.macKeyRequest);
        expect(toHex(k.dataKeyRequest)).toBe(row.dataKeyRequest);
        // the device side: its initial key, then the transaction and working keys, gives the same
        const device = deriveAesTransactionKey(deriveAesInitialKey(bdk, row.ksn), row.ksn);
        expect(toHex(deriveAesWorkingKey(device, row.ksn, 'pinEncryption', suite.keyType))).toBe(row.pinKey);
      },
    );
  });

  it.each(V.aes256TransactionKeys.rows)(
    'AES-256 BDK, KSN $ksn: the published transaction key, and AES-128 keys from it',
    (row) => {
      const k = deriveAesKeys(V.bdk256, row.ksn, 'aes128');
      expect(toHex(k.transactionKey)).toBe(row.transactionKey);
      expect(k.pinKey).toHaveLength(16);
      expect(toHex(deriveAesWorkingKey(row.transactionKey, row.ksn, 'pinEncryption', 'aes128'))).toBe(toHex(k.pinKey));
    },
  );

  it.each(V.derivationData.rows)('derivation data of $keyType $usage (block $block): $data', (row) => {
    const data8 = Buffer.alloc(8);
    Buffer.from('90123456', 'hex').copy(data8, 0);
    data8.writeUInt32BE(row.counter, 4);
    expect(toHex(aesDerivationData(row.usage, row.keyType, data8, row.block))).toBe(row.data);
  });

  it.each(V.notAllowed.rows)(
    'refuses $keyType working keys from an $bdkType BDK (6.1.3), naming both',
    ({ bdkType, keyType }) => {
      const bdk = Buffer.alloc(aesKeyTypeBytes(bdkType), 0x11);
      const ksn = '123456789012345600000001';
      expect(() => deriveAesKeys(bdk, ksn, keyType)).toThrow(
        expect.objectContaining({ code: 'CRYPTO_INVALID_KEY', context: { derivation: bdkType, working: keyType } }),
      );
      const tk = deriveAesTransactionKey(deriveAesInitialKey(bdk, ksn), ksn);
      expect(() => deriveAesWorkingKey(tk, ksn, 'pinEncryption', keyType)).toThrow(
        expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }),
      );
    },
  );

  it('refuses a BDK whose size is not its stated type, and an unknown key type', () => {
    expect(() => deriveAesKeys(V.bdk256, '123456789012345600000001', { bdkType: 'aes128', keyType: 'aes128' })).toThrow(
      expect.objectContaining({ code: 'CRYPTO_INVALID_KEY', message: 'BDK: aes128 expects 16 bytes, got 32 bytes' }),
    );
    expect(() => deriveAesKeys(V.bdk128, '123456789012345600000001', 'des' as AesKeyType)).toThrow(
      expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }),
    );
  });

  it('a 2TDEA PIN key of an AES-128 BDK encrypts a format 0 block that the host decrypts (the supplement key)', () => {
    const ksn = '123456789012345600000001';
    const host = deriveAesKeys(V.bdk128, ksn, 'tdes2').pinKey;
    expect(toHex(host)).toBe('630C706D9546E47D4449313F61C4D4AB');
    const { encryptedPinBlock } = encryptPin({ format: 0, pin: '1234', pan: '4111111111111111', key: host });
    expect(decryptPin({ format: 0, pan: '4111111111111111', block: encryptedPinBlock, key: host })).toBe('1234');
  });
});

describe('AES DUKPT key combinations: properties', () => {
  const allowed = AES_BDK_TYPES.flatMap((b) =>
    AES_KEY_TYPES.filter((w) => strength(w) <= strength(b)).map((w) => [b, w] as const),
  );

  it('every allowed combination (12 of 15): host keys equal device keys, of the working type size, and data round-trips', () => {
    expect(allowed).toHaveLength(12);
    fc.assert(
      fc.property(
        fc.constantFrom(...allowed),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 8, maxLength: 8 }),
        fc.integer({ min: 1, max: 0xffff }),
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        ([bdkType, keyType], bdkBytes, ikid, counter, data) => {
          const bdk = Buffer.from(bdkBytes).subarray(0, aesKeyTypeBytes(bdkType));
          const ksn = `${toHex(ikid)}${counter.toString(16).padStart(8, '0')}`;
          const host = deriveAesKeys(bdk, ksn, { bdkType, keyType });
          const tk = deriveAesTransactionKey(deriveAesInitialKey(bdk, ksn), ksn);
          expect(tk).toHaveLength(aesKeyTypeBytes(bdkType));
          const device = deriveAesWorkingKey(tk, ksn, 'dataEncrypt', keyType);
          expect(device).toHaveLength(bytesOf(keyType));
          expect(toHex(device)).toBe(toHex(host.dataKeyRequest));
          const algorithm = cipherOf(keyType);
          const enc = encryptData(device, data, { algorithm });
          expect(decryptData(host.dataKeyRequest, enc, { algorithm }).subarray(0, data.length)).toEqual(
            Buffer.from(data),
          );
        },
      ),
      { numRuns: RUNS, seed: seed('aes dukpt key combinations') },
    );
  });

  it('any BDK type and working key type: derived when no stronger, else CRYPTO_INVALID_KEY', () => {
    fc.assert(
      fc.property(fc.constantFrom(...AES_BDK_TYPES), fc.constantFrom(...AES_KEY_TYPES), (bdkType, keyType) => {
        try {
          checkAesWorkingKeyType(bdkType, keyType);
          expect(strength(keyType)).toBeLessThanOrEqual(strength(bdkType));
        } catch (e) {
          expect(isOmniposError(e, 'CRYPTO_INVALID_KEY')).toBe(true);
          expect(strength(keyType)).toBeGreaterThan(strength(bdkType));
        }
      }),
      { numRuns: RUNS, seed: seed('aes dukpt key table') },
    );
  });
});
