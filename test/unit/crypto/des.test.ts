import { createCipheriv } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { desEcb, tdesEcb, toHex } from '../../../src/crypto/index.js';

/** Encryption by OpenSSL through node:crypto, the reference. */
function openssl(algorithm: string, key: Uint8Array, block: Uint8Array): string {
  const c = createCipheriv(algorithm, key, null);
  c.setAutoPadding(false);
  return toHex(Buffer.concat([c.update(block), c.final()]));
}

describe('table-driven DES', () => {
  it('known answer: key 133457799BBCDFF1, 0123456789ABCDEF -> 85E813540F0AB405 (J. Orlin Grabbe, "The DES Algorithm Illustrated")', () => {
    expect(toHex(desEcb(Buffer.from('133457799BBCDFF1', 'hex'), Buffer.from('0123456789ABCDEF', 'hex')))).toBe(
      '85E813540F0AB405',
    );
    expect(toHex(desEcb(Buffer.from('133457799BBCDFF1', 'hex'), Buffer.from('85E813540F0AB405', 'hex'), false))).toBe(
      '0123456789ABCDEF',
    );
  });

  it('known answer: NBS/NIST variable-plaintext test, key 0101010101010101, 8000000000000000 -> 95F8A5E5DD31D900 (SP 800-17 table A.1)', () => {
    expect(toHex(desEcb(Buffer.from('0101010101010101', 'hex'), Buffer.from('8000000000000000', 'hex')))).toBe(
      '95F8A5E5DD31D900',
    );
  });

  it('property: equals OpenSSL (single DES as EDE with equal halves; two- and three-key TDES), both directions', () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`fast-check seed for "des vs openssl": ${seed}`);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 24, maxLength: 24 }),
        fc.uint8Array({ minLength: 8, maxLength: 24 }).map((b) => b.subarray(0, b.length - (b.length % 8))),
        (key, data) => {
          const k8 = key.subarray(0, 8);
          const single = Buffer.concat([k8, k8]);
          expect(toHex(desEcb(k8, data))).toBe(openssl('des-ede-ecb', single, data));
          expect(toHex(tdesEcb(key.subarray(0, 16), data))).toBe(openssl('des-ede-ecb', key.subarray(0, 16), data));
          expect(toHex(tdesEcb(key, data))).toBe(openssl('des-ede3-ecb', key, data));
          expect(toHex(tdesEcb(key, tdesEcb(key, data), false))).toBe(toHex(data));
          expect(toHex(desEcb(k8, desEcb(k8, data), false))).toBe(toHex(data));
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
