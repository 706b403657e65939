import { constants, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { terminalKeyFromPem } from '../../drivers/pinpad/secure/index.js';
import { wrapSessionKey } from '../../src/sim/pinpad/secure/index.js';

/**
 * The pinpad's key exchange as an attacker on the serial line sees it (issue 31): CRKSEC blocks
 * spoiled in every way PKCS#1 v1.5 can be (RFC 8017 §7.2.2) must all end the same way, with a key
 * of the right size that opens nothing, never an error that tells one fault from another (the
 * padding oracle of Bleichenbacher's attack under a long-lived terminal key).
 */
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
const key = terminalKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
const raw = (b: Buffer): Uint8Array => publicEncrypt({ key: publicKey, padding: constants.RSA_NO_PADDING }, b);

/** What unwrap gives: the key's hex, or the error's message and details (an oracle shows here). */
function outcome(c: Uint8Array): string {
  try {
    return `key of ${key.unwrap(c).length} bytes`;
  } catch (e) {
    return `error: ${(e as Error).message} ${JSON.stringify((e as { details?: unknown }).details ?? {})}`;
  }
}

describe('the secure channel’s RSA: implicit rejection', () => {
  it('every spoiled CRKSEC gives the same kind of answer, a 16-byte key, never a reason', () => {
    const ksec = randomBytes(16);
    const good = wrapSessionKey(key.modulus, key.publicExponent, Uint8Array.from(ksec));
    const flipped = Uint8Array.from(good);
    flipped[200] = (flipped[200] ?? 0) ^ 0x01;
    const pad = (ps: number, msg: number): Buffer =>
      Buffer.concat([Buffer.from([0x00, 0x02]), Buffer.alloc(ps, 0xa5), Buffer.from([0]), Buffer.alloc(msg, 0x11)]);
    const spoiled: Record<string, Uint8Array> = {
      'a bit flipped': flipped,
      'type 1': raw(Buffer.concat([Buffer.from([0x00, 0x01]), Buffer.alloc(237, 0xff), Buffer.from([0]), ksec])),
      'no separator': raw(Buffer.concat([Buffer.from([0x00, 0x02]), Buffer.alloc(254, 0xa5)])),
      'seven padding bytes': raw(pad(7, 256 - 10)),
      'a 32-byte message (ksec-length)': raw(pad(256 - 3 - 32, 32)),
      'a 15-byte message': raw(pad(256 - 3 - 15, 15)),
      'not below the modulus': new Uint8Array(256).fill(0xff),
    };
    const outcomes = Object.fromEntries(Object.entries(spoiled).map(([k, c]) => [k, outcome(c)]));
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(spoiled).map((k) => [k, 'key of 16 bytes'])));
    // None opens to what was inside, and the same cryptogram always opens to the same key.
    for (const c of Object.values(spoiled)) {
      expect(Buffer.from(key.unwrap(c))).not.toEqual(ksec);
      expect(key.unwrap(c)).toEqual(key.unwrap(c));
    }
    expect(Buffer.from(key.unwrap(good))).toEqual(ksec);
  });
});
