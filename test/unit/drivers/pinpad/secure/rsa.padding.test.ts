import { constants, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { terminalKeyFromPem } from '../../../../../drivers/pinpad/secure/index.js';

/**
 * The CRKSEC's PKCS#1 v1.5 padding (§5.2.1; RFC 8017 §7.2.2 step 3: 00 02, at least eight non-zero
 * padding bytes, 00, the message), checked by the driver on OpenSSL's raw RSA. Each block here is
 * built by hand and encrypted with Node's raw RSA (RSA_NO_PADDING), not by the code under test.
 */
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
const key = terminalKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);

/** 256 bytes: `head`, `ps` non-zero padding bytes, the 00 separator (unless `sep` is false), the message. */
function block(o: { head?: number[]; ps: number; sep?: boolean }): Buffer {
  const head = Buffer.from(o.head ?? [0x00, 0x02]);
  const sep = o.sep === false ? 0 : 1;
  const msg = randomBytes(256 - head.length - o.ps - sep).fill(0x11);
  return Buffer.concat([head, Buffer.alloc(o.ps, 0xa5), Buffer.alloc(sep, 0x00), msg]);
}
const raw = (b: Buffer): Uint8Array => publicEncrypt({ key: publicKey, padding: constants.RSA_NO_PADDING }, b);

describe('CRKSEC padding on the raw RSA (§5.2.1, RFC 8017 §7.2.2)', () => {
  it('opens a good block: KSEC back', () => {
    const ksec = randomBytes(16);
    const good = Buffer.concat([Buffer.from([0x00, 0x02]), Buffer.alloc(256 - 3 - 16, 0x5a), Buffer.from([0]), ksec]);
    expect(Buffer.from(key.unwrap(raw(good)))).toEqual(ksec);
  });

  it('takes eight padding bytes before a KSEC; seven, or a message of another size, open to a key that is not the message', () => {
    const ksec = randomBytes(16);
    const eight = Buffer.concat([Buffer.from([0x00, 0x02]), Buffer.alloc(8, 0x5a), Buffer.from([0]), ksec]);
    // 2 + 8 + 1 + 16 = 27 bytes: the block is 256, so the head is padded out with leading non-zero bytes below.
    const good = Buffer.concat([Buffer.from([0x00, 0x02]), Buffer.alloc(256 - 3 - 16, 0x5a), Buffer.from([0]), ksec]);
    expect(eight.length).toBe(27);
    expect(Buffer.from(key.unwrap(raw(good)))).toEqual(ksec);
    for (const bad of [block({ ps: 8 }), block({ ps: 7 })]) {
      const opened = Buffer.from(key.unwrap(raw(bad)));
      expect(opened.length).toBe(16);
      expect(opened).not.toEqual(bad.subarray(256 - 16));
    }
  });

  it('a type 1 block, no separator, a leading non-zero byte, a cryptogram not below the modulus: a key, the same for the same cryptogram', () => {
    const spoiled = [
      raw(block({ head: [0x00, 0x01], ps: 237 })),
      raw(block({ ps: 254, sep: false })),
      raw(block({ head: [0x01, 0x02], ps: 237 })),
      new Uint8Array(256).fill(0xff),
    ];
    const opened = spoiled.map((c) => Buffer.from(key.unwrap(c)).toString('hex'));
    expect(opened.every((k) => k.length === 32)).toBe(true);
    expect(new Set(opened).size).toBe(4);
    expect(spoiled.map((c) => Buffer.from(key.unwrap(c)).toString('hex'))).toEqual(opened);
  });
});
