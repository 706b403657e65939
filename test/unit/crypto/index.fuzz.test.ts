/** Every decoder and key-taking entry of src/crypto, fed random bytes and text: a value or a typed error, nothing else. */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  aesCmac,
  decipherFormat4,
  decryptData,
  decryptPinBlock,
  deriveIpek,
  deriveTransactionKey,
  dukptDecryptData,
  kcv,
  maskPan,
  panField,
  panHash,
  retailMac,
  toBytes,
} from '../../../src/crypto/index.js';

const RUNS = 1000;
const input = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc.string({ maxLength: 70 }),
  fc.stringMatching(/^[0-9A-F]{0,64}$/),
  fc.constantFrom('', ' ', '00', 'ZZ', '0123456789ABCDEFFEDCBA9876543210', 'FFFF9876543210E00001'),
);

const targets: [string, (a: string | Uint8Array, b: string | Uint8Array) => unknown][] = [
  ['toBytes', (a) => toBytes(a, { what: 'x', lengths: [8, 16] })],
  ['deriveIpek', (a, b) => deriveIpek(a, b)],
  ['deriveTransactionKey', (a, b) => deriveTransactionKey(a, b)],
  ['decryptData (TDES)', (a, b) => decryptData(a, b)],
  ['decryptData (AES)', (a, b) => decryptData(a, b, { algorithm: 'aes', iv: b })],
  ['dukptDecryptData', (a, b) => dukptDecryptData({ bdk: a }, 'FFFF9876543210E00001', b, { iv: a })],
  ['decryptPinBlock', (a, b) => decryptPinBlock(a, b)],
  ['decipherFormat4', (a, b) => decipherFormat4(a, b, '4111111111111111')],
  ['retailMac', (a, b) => retailMac(a, b)],
  ['aesCmac', (a, b) => aesCmac(a, b)],
  ['kcv', (a) => kcv(a, { algorithm: 'tdes' })],
  ['maskPan', (a) => maskPan(typeof a === 'string' ? a : Buffer.from(a).toString('latin1'))],
  ['panHash', (a, b) => panHash(a, typeof b === 'string' ? b : '4111111111111111')],
  ['panField', (a) => panField(typeof a === 'string' ? a : '')],
];

describe('fuzz: random input gives a value or an OmniposError', () => {
  it.each(targets)('%s', (name, f) => {
    const seed = Date.now() % 2 ** 31;
    console.log(`fast-check seed for "fuzz ${name}": ${seed}`);
    fc.assert(
      fc.property(input, input, (a, b) => {
        try {
          f(a, b);
        } catch (e) {
          if (!isOmniposError(e)) throw e;
        }
      }),
      { numRuns: RUNS, seed },
    );
  });
});
