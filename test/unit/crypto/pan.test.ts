import { describe, expect, it } from 'vitest';
import { aesCmac, kcv, maskPan, panHash, toHex } from '../../../src/crypto/index.js';

describe('PAN masking and hashing', () => {
  it.each([
    ['4111111111111111', '411111******1111'],
    ['4012345678909', '401234***8909'],
    ['5067230000000000001', '506723*********0001'],
    ['12345678****1234', '123456******1234'],
    ['123456789012', '********9012'],
  ])('%s -> %s', (pan, masked) => {
    expect(maskPan(pan)).toBe(masked);
  });

  it('refuses what is not a PAN', () => {
    expect(() => maskPan('4111-1111-1111-1111')).toThrow(expect.objectContaining({ code: 'CODEC_INVALID_INPUT' }));
    expect(() => maskPan('1234567')).toThrow(expect.objectContaining({ code: 'CODEC_INVALID_INPUT' }));
  });

  it('hashes with a key: the same key and PAN give the same hash, another key or PAN another one', () => {
    const key = '0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B';
    const a = panHash(key, '4111111111111111');
    expect(a).toMatch(/^[0-9A-F]{64}$/);
    expect(panHash(key, '4111111111111111')).toBe(a);
    expect(panHash('0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C', '4111111111111111')).not.toBe(a);
    expect(panHash(key, '4111111111111112')).not.toBe(a);
    expect(() => panHash('0011', '4111111111111111')).toThrow(expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }));
  });
});

describe('AES-CMAC (RFC 4493 section 4 examples)', () => {
  const key = '2B7E151628AED2A6ABF7158809CF4F3C';
  it.each([
    ['example 1, empty message', '', 'BB1D6929E95937287FA37D129B756746'],
    ['example 2, 16 bytes', '6BC1BEE22E409F96E93D7E117393172A', '070A16B46B4D4144F79BDD9DD04A287C'],
    [
      'example 3, 40 bytes',
      '6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E5130C81C46A35CE411',
      'DFA66747DE9AE63030CA32611497C827',
    ],
    [
      'example 4, 64 bytes',
      '6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E5130C81C46A35CE411E5FBC1191A0A52EFF69F2445DF4F9B17AD2B417BE66C3710',
      '51F0BEBF7E3B9D92FC49741779363CFE',
    ],
  ])('%s', (_what, message, mac) => {
    expect(toHex(aesCmac(key, message))).toBe(mac);
  });
});

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
