/**
 * The secure channel's cost (ABECS 2.20 §5.2): sealing and opening a packet (ours: node:crypto
 * AES-128-CBC as the channel runs it, the session's cipher objects made once per KSEC; peer:
 * node-forge's AES-CBC doing the same DATALEN/DATACRC/filler block, a cipher per packet), and
 * unwrapping CRKSEC (node-forge RSA 2048, PKCS#1 v1.5 — once per connection). For scale: a 20-byte
 * command costs 13 more bytes on the wire with the channel, 6.8 ms at 19200 bps.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { bench, describe } from 'vitest';
import { crc16 } from '../../drivers/pinpad/index.js';
import { SessionAes, openPacket, sealPacket, terminalKeyFromPem } from '../../drivers/pinpad/secure/index.js';
import { wrapSessionKey } from '../../src/sim/pinpad/secure/index.js';

const ksec = Uint8Array.from(randomBytes(16));
const session = new SessionAes(ksec);
const small = Uint8Array.from(randomBytes(20));
const large = Uint8Array.from(randomBytes(2044));

/** forge's finish(pad) takes a padding function; its typings leave the argument out. */
interface NoPad {
  finish(pad: () => boolean): boolean;
}

function forgeSealOpen(clr: Uint8Array): Uint8Array {
  const plain = Buffer.alloc(Math.ceil((4 + clr.length) / 16) * 16);
  plain.writeUInt16BE(clr.length, 0);
  plain.writeUInt16BE(crc16(clr), 2);
  plain.set(clr, 4);
  const key = Buffer.from(ksec).toString('binary');
  const iv = '\0'.repeat(16);
  const c = forge.cipher.createCipher('AES-CBC', key);
  c.start({ iv });
  c.update(forge.util.createBuffer(plain.toString('binary')));
  (c as unknown as NoPad).finish(() => true); // no PKCS#7 padding: the block is already a multiple of 16
  const d = forge.cipher.createDecipher('AES-CBC', key);
  d.start({ iv });
  d.update(c.output);
  (d as unknown as NoPad).finish(() => true);
  const out = Buffer.from(d.output.getBytes(), 'binary');
  return out.subarray(4, 4 + out.readUInt16BE(0));
}

if (!Buffer.from(openPacket(session, sealPacket(session, large))).equals(Buffer.from(large)))
  throw new Error('the session cipher does not round-trip');
if (!Buffer.from(forgeSealOpen(large)).equals(Buffer.from(large)))
  throw new Error('the forge peer does not round-trip');

describe('secure packet, 20 bytes of CLRDATA (a GIX command)', () => {
  bench('ours: sealPacket + openPacket (node:crypto, the session cipher)', () => {
    openPacket(session, sealPacket(session, small));
  });
  bench('peer: node-forge AES-CBC, same block', () => {
    forgeSealOpen(small);
  });
});

describe('secure packet, 2044 bytes of CLRDATA (the largest)', () => {
  bench('ours: sealPacket + openPacket (node:crypto, the session cipher)', () => {
    openPacket(session, sealPacket(session, large));
  });
  bench('peer: node-forge AES-CBC, same block', () => {
    forgeSealOpen(large);
  });
});

describe('CRKSEC unwrap (once per secure OPN)', () => {
  const key = terminalKeyFromPem(
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  );
  const crk = wrapSessionKey(key.modulus, key.publicExponent, ksec);
  bench(
    'ours: node-forge RSA 2048 PKCS#1 v1.5 decrypt',
    () => {
      key.unwrap(crk);
    },
    { iterations: 20 },
  );
});
