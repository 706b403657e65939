import { createDecipheriv } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPinpadError } from '../../../../../drivers/pinpad/index.js';
import { MAX_CLRDATA, SessionAes, openPacket, sealPacket } from '../../../../../drivers/pinpad/secure/index.js';
import { fcSeed } from '../../../../helpers/fc-seed.js';

const key = fc.uint8Array({ minLength: 16, maxLength: 16 });
const packets = fc.array(fc.uint8Array({ minLength: 0, maxLength: MAX_CLRDATA }), { minLength: 1, maxLength: 12 });

/** Each packet on its own, as §5.2.2.1 defines it: AES-128-CBC from a zero IV, the chain never carried over. */
function decryptAlone(k: Uint8Array, packet: Uint8Array): Buffer {
  const d = createDecipheriv('aes-128-cbc', k, Buffer.alloc(16)).setAutoPadding(false);
  return Buffer.concat([d.update(packet.subarray(1)), d.final()]);
}

describe("a session's AES (the key schedule made once, issue 37)", () => {
  it('seals every packet of a session to the bytes of a fresh zero-IV cipher, whatever came before', () => {
    fc.assert(
      fc.property(key, packets, (k, clrs) => {
        const session = new SessionAes(k);
        for (const c of clrs) {
          const p = sealPacket(session, c);
          expect(Buffer.from(p)).toEqual(Buffer.from(sealPacket(k, c)));
          expect(decryptAlone(k, p).subarray(4, 4 + c.length)).toEqual(Buffer.from(c));
        }
      }),
      { numRuns: 200, seed: fcSeed('session seal = one-shot seal') },
    );
  });

  it('opens every packet of a session as a fresh cipher does, also after one that failed its checks', () => {
    fc.assert(
      fc.property(key, packets, fc.nat(), (k, clrs, spoil) => {
        const session = new SessionAes(k);
        const bad = spoil % clrs.length;
        clrs.forEach((c, i) => {
          const p = sealPacket(k, c);
          if (i === bad) {
            p[p.length - 1]! ^= 1; // the last block's bytes: DATACRC or DATALEN no longer holds, or other bytes
            let fresh: unknown, ours: unknown;
            try {
              fresh = openPacket(k, p);
            } catch (e) {
              fresh = isPinpadError(e) ? e.context.reason : e;
            }
            try {
              ours = openPacket(session, p);
            } catch (e) {
              ours = isPinpadError(e) ? e.context.reason : e;
            }
            expect(ours).toEqual(fresh);
          } else expect(openPacket(session, p)).toEqual(c);
        });
      }),
      { numRuns: 200, seed: fcSeed('session open = one-shot open') },
    );
  });

  it('refuses a KSEC that is not 16 bytes, as sealPacket does', () => {
    expect(() => new SessionAes(new Uint8Array(15))).toThrow(/KSEC must be 16 bytes/);
  });
});
