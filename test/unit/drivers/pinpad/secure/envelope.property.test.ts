import { createCipheriv, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16, decodeResponse, isPinpadError } from '../../../../../drivers/pinpad/index.js';
import {
  MAX_CLRDATA,
  OPN_SECURE,
  decodeSecureOpnBlock,
  encodeSecureOpnAnswer,
  encodeSecureOpnBlock,
  openPacket,
  sealPacket,
} from '../../../../../drivers/pinpad/secure/index.js';
import { fcSeed } from '../../../../helpers/fc-seed.js';

const RUNS = 1000;
const key = fc.uint8Array({ minLength: 16, maxLength: 16 });
const clr = fc.uint8Array({ minLength: 0, maxLength: MAX_CLRDATA });

/** Only a PinpadError escapes, never another throw. */
function onlyPinpadErrors(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    expect(isPinpadError(e)).toBe(true);
    return e;
  }
}

describe('secure packet (§5.2.2) properties', () => {
  it('seal then open gives CLRDATA back; the packet is DC2 + a multiple of 16, the smallest that holds DATALEN, DATACRC and CLRDATA', () => {
    fc.assert(
      fc.property(key, clr, (k, c) => {
        const p = sealPacket(k, c);
        expect(p[0]).toBe(0x12);
        expect((p.length - 1) % 16).toBe(0);
        expect(p.length - 1).toBe(Math.ceil((4 + c.length) / 16) * 16);
        expect(p.length).toBeLessThanOrEqual(2049);
        expect(openPacket(k, p)).toEqual(c);
      }),
      { numRuns: RUNS, seed: fcSeed('seal/open round trip') },
    );
  });

  it('one flipped ciphertext bit never opens to the original CLRDATA: it fails a §5.2.2.2 check (PINPAD_PROTOCOL) or opens to other bytes', () => {
    fc.assert(
      fc.property(
        key,
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        (k, c, at, bit) => {
          const p = sealPacket(k, c);
          const i = 1 + (at % (p.length - 1));
          p[i] = p[i]! ^ (1 << bit);
          const r = onlyPinpadErrors(() => openPacket(k, p));
          if (isPinpadError(r)) expect(r.code).toBe('PINPAD_PROTOCOL');
          else expect(r).not.toEqual(c);
        },
      ),
      { numRuns: RUNS, seed: fcSeed('tamper') },
    );
  });

  it('a wrong key does not open to the original CLRDATA', () => {
    fc.assert(
      fc.property(key, key, fc.uint8Array({ minLength: 1, maxLength: 100 }), (k1, k2, c) => {
        fc.pre(!Buffer.from(k1).equals(Buffer.from(k2)));
        const r = onlyPinpadErrors(() => openPacket(k2, sealPacket(k1, c)));
        if (!isPinpadError(r)) expect(r).not.toEqual(c);
      }),
      { numRuns: RUNS, seed: fcSeed('wrong key') },
    );
  });

  it('any bytes given to open: CLRDATA that passes DATALEN and DATACRC, or a PinpadError; never another throw', () => {
    fc.assert(
      fc.property(key, fc.uint8Array({ minLength: 0, maxLength: 200 }), fc.boolean(), (k, body, dc2) => {
        const p = dc2 ? Uint8Array.from([0x12, ...body]) : body;
        const r = onlyPinpadErrors(() => openPacket(k, p));
        if (!isPinpadError(r)) {
          const out = r as Uint8Array;
          expect(out.length).toBeLessThanOrEqual(p.length - 5);
        }
      }),
      { numRuns: RUNS, seed: fcSeed('open fuzz') },
    );
  });

  it('names the failed check: length, DATALEN, DATACRC', () => {
    const k = Uint8Array.from(randomBytes(16));
    const fail = (p: Uint8Array): unknown => onlyPinpadErrors(() => openPacket(k, p));
    expect(fail(Uint8Array.of(0x12, 1, 2, 3))).toMatchObject({
      code: 'PINPAD_PROTOCOL',
      context: { reason: 'length' },
    });
    expect(fail(Uint8Array.of(0x47, 0x49, 0x58))).toMatchObject({ context: { reason: 'not-sealed' } });
    // one block encrypted by hand: DATALEN claiming more than follows, then a DATACRC that does not match
    const encrypt = (plain: Buffer): Uint8Array => {
      const c = createCipheriv('aes-128-cbc', k, Buffer.alloc(16)).setAutoPadding(false);
      return Uint8Array.from([0x12, ...Buffer.concat([c.update(plain), c.final()])]);
    };
    const plain = Buffer.alloc(16);
    plain.writeUInt16BE(13, 0);
    plain.writeUInt16BE(crc16(new Uint8Array(12)), 2);
    expect(fail(encrypt(plain))).toMatchObject({ context: { reason: 'datalen' } });
    plain.writeUInt16BE(12, 0);
    expect(openPacket(k, encrypt(plain))).toEqual(new Uint8Array(12));
    plain.writeUInt16BE(crc16(new Uint8Array(12)) ^ 1, 2);
    expect(fail(encrypt(plain))).toMatchObject({ context: { reason: 'datacrc' } });
  });

  it('refuses more than 2044 bytes of CLRDATA and keys that are not 16 bytes', () => {
    expect(() => sealPacket(new Uint8Array(16), new Uint8Array(MAX_CLRDATA + 1))).toThrow(/2044/);
    expect(() => sealPacket(new Uint8Array(24), new Uint8Array(1))).toThrow(/16 bytes/);
  });
});

describe('secure OPN codec (§3.2.2) properties', () => {
  const pub = fc.record({
    modulus: fc.uint8Array({ minLength: 256, maxLength: 256 }),
    publicExponent: fc.uint8Array({ minLength: 1, maxLength: 3 }),
  });

  it('command block: encode then decode gives the key back; CMD_LEN = 1 + 3 + 512 + 1 + 2 x EXPLEN', () => {
    fc.assert(
      fc.property(pub, (k) => {
        const b = encodeSecureOpnBlock(k);
        expect(b.length).toBe(517 + 2 * k.publicExponent.length);
        expect(decodeSecureOpnBlock(b)).toEqual({ opMode: 0, ...k });
      }),
      { numRuns: RUNS, seed: fcSeed('opn command') },
    );
  });

  it('answer: CRKSEC round trip; any other bytes decode or fail as PINPAD_PROTOCOL, never another throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 256, maxLength: 256 }), fc.uint8Array({ maxLength: 600 }), (crk, junk) => {
        const rsp = decodeResponse(
          Uint8Array.from(Buffer.concat([Buffer.from('OPN000515'), encodeSecureOpnAnswer(crk)])),
        );
        expect(OPN_SECURE.decode(rsp, { modulus: crk, publicExponent: Uint8Array.of(3) })).toEqual({
          kind: 'abecs',
          cryptogram: crk,
        });
        onlyPinpadErrors(() =>
          OPN_SECURE.decode(
            { id: 'OPN', status: 0, blocks: [junk] },
            { modulus: crk, publicExponent: Uint8Array.of(3) },
          ),
        );
        onlyPinpadErrors(() => decodeSecureOpnBlock(junk));
      }),
      { numRuns: RUNS, seed: fcSeed('opn answer') },
    );
  });

  it('refuses a modulus other than 256 bytes and an exponent over 3 bytes', () => {
    expect(() => encodeSecureOpnBlock({ modulus: new Uint8Array(128), publicExponent: Uint8Array.of(3) })).toThrow(
      /OPN_MOD/,
    );
    expect(() => encodeSecureOpnBlock({ modulus: new Uint8Array(256), publicExponent: new Uint8Array(4) })).toThrow(
      /OPN_EXP/,
    );
  });
});
