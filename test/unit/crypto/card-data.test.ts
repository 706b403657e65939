import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  decryptCardData,
  encryptCardData,
  generateWalletKeyPair,
  walletPublicKey,
  type WalletCardData,
} from '../../../src/crypto/index.js';

const RUNS = 1000;
function seed(name: string): number {
  const s = Date.now() % 2 ** 31;
  console.log(`fast-check seed for "${name}": ${s}`);
  return s;
}

const card: WalletCardData = {
  card_number: '4111111111111111',
  card_cvv: '123',
  card_holder_name: 'JOSE DA SILVA',
  card_expiration_date: '1230',
};

describe('wallet card data (seed 000, RSA 2048 PKCS#1 v1.5, Base64)', () => {
  let keys: { publicKey: string; privateKeyPem: string };
  beforeAll(() => {
    keys = generateWalletKeyPair();
  });

  it('publishes the public key as Base64 DER SubjectPublicKeyInfo of a 2048-bit RSA key', () => {
    const der = Buffer.from(keys.publicKey, 'base64');
    expect(der[0]).toBe(0x30); // DER SEQUENCE
    expect(walletPublicKey(keys.publicKey).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('encrypts with node:crypto and decrypts with node-forge: the JSON object comes back whole', () => {
    const b64 = encryptCardData(keys.publicKey, card);
    expect(Buffer.from(b64, 'base64')).toHaveLength(256);
    expect(decryptCardData(keys.privateKeyPem, b64)).toEqual(card);
  });

  it('is randomised (PKCS#1 v1.5 type 2 padding): two encryptions differ', () => {
    expect(encryptCardData(keys.publicKey, card)).not.toBe(encryptCardData(keys.publicKey, card));
  });

  it('needs node-forge: Node refuses PKCS#1 v1.5 decryption (CVE-2023-46809, Node 20), or with implicit rejection (Node 22 and 24, OpenSSL 3.2+) answers a wrong ciphertext with bytes instead of an error', () => {
    const b64 = encryptCardData(keys.publicKey, card);
    const wrong = Buffer.from(encryptCardData(generateWalletKeyPair().publicKey, card), 'base64');
    let refused = false;
    let fromWrong: Buffer | undefined;
    try {
      privateDecrypt({ key: keys.privateKeyPem, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(b64, 'base64'));
      fromWrong = privateDecrypt({ key: keys.privateKeyPem, padding: constants.RSA_PKCS1_PADDING }, wrong);
    } catch {
      refused = true;
    }
    if (refused) {
      // Node 20.11+ refuses unless started with --security-revert=CVE-2023-46809.
      expect(process.execArgv.some((a) => a.includes('CVE-2023-46809'))).toBe(false);
    } else {
      // Implicit rejection: a ciphertext under another key "decrypts" to random bytes, so Node cannot say
      // "does not decrypt"; node-forge can (the next test) and stays the decryptor.
      expect(fromWrong).toBeInstanceOf(Buffer);
      expect(fromWrong!.toString('latin1')).not.toContain('card_number');
    }
    expect(decryptCardData(keys.privateKeyPem, b64).card_number).toBe(card.card_number);
    expect(() => decryptCardData(keys.privateKeyPem, wrong.toString('base64'))).toThrow(/does not decrypt/);
  });

  it('refuses a key that is not RSA 2048, and text that is not Base64', () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64');
    for (const k of [small, ec, 'not base64!', 'AAAA']) {
      expect(() => encryptCardData(k, card)).toThrow(expect.objectContaining({ code: 'CODEC_INVALID_INPUT' }));
    }
  });

  it('refuses card data with a missing field or a wrong expiry length, naming the field only', () => {
    const bad = { ...card, card_expiration_date: '12/30' };
    expect(() => encryptCardData(keys.publicKey, bad)).toThrow(
      expect.objectContaining({ code: 'CODEC_INVALID_INPUT' }),
    );
    const { card_cvv: _cvv, ...missing } = card;
    try {
      encryptCardData(keys.publicKey, missing as WalletCardData);
      expect.unreachable();
    } catch (e) {
      expect(isOmniposError(e, 'CODEC_INVALID_INPUT')).toBe(true);
      expect(JSON.stringify((e as Error).message)).not.toContain('4111111111111111');
    }
  });

  it('a ciphertext under another key does not decrypt (CODEC_INVALID_INPUT)', () => {
    const other = generateWalletKeyPair();
    const b64 = encryptCardData(other.publicKey, card);
    expect(() => decryptCardData(keys.privateKeyPem, b64)).toThrow(
      expect.objectContaining({ code: 'CODEC_INVALID_INPUT' }),
    );
  });

  it('property: random text or ciphertext-sized bytes into the decryptor give card data or a typed error', () => {
    const s = seed('card data fuzz');
    fc.assert(
      fc.property(
        fc.oneof(
          { arbitrary: fc.string({ maxLength: 400 }), weight: 9 },
          {
            arbitrary: fc.uint8Array({ minLength: 256, maxLength: 256 }).map((b) => Buffer.from(b).toString('base64')),
            weight: 1,
          },
        ),
        (text) => {
          try {
            decryptCardData(keys.privateKeyPem, text);
          } catch (e) {
            expect(isOmniposError(e, 'CODEC_INVALID_INPUT')).toBe(true);
          }
        },
      ),
      { numRuns: RUNS, seed: s },
    );
  });

  it('a private key that is not PEM is CRYPTO_INVALID_KEY', () => {
    expect(() => decryptCardData('nope', 'AAAA')).toThrow(expect.objectContaining({ code: 'CRYPTO_INVALID_KEY' }));
  });
});
