import { describe, expect, it } from 'vitest';
import { maskPan, panHash } from '../../../src/crypto/index.js';

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
