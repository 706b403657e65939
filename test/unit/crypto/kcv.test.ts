import { describe, expect, it } from 'vitest';
import { aesCmac, kcv, toHex } from '../../../src/crypto/index.js';

describe('Key check values', () => {
  it('TDES: first 3 bytes of the encryption of zeros (ANSI test key 0123456789ABCDEFFEDCBA9876543210 -> 08D7B4, as EFTlab and HSM vendors publish)', () => {
    expect(kcv('0123456789ABCDEFFEDCBA9876543210', { algorithm: 'tdes' })).toBe('08D7B4');
  });
  it('AES, encrypting zeros: the all-zero AES-128 key encrypts the zero block to 66E94BD4... (FIPS-197 / NIST AESAVS known answer)', () => {
    expect(kcv('00000000000000000000000000000000', { algorithm: 'aes', method: 'zeros' })).toBe('66E94B');
  });
  it('AES, CMAC method: the CMAC of a zero block, 5 bytes when asked', () => {
    const key = '2B7E151628AED2A6ABF7158809CF4F3C';
    expect(kcv(key, { algorithm: 'aes', length: 5 })).toBe(toHex(aesCmac(key, Buffer.alloc(16))).slice(0, 10));
  });
  it('refuses a key of the wrong length', () => {
    expect(() => kcv('0123', { algorithm: 'tdes' })).toThrow(expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }));
  });
});
