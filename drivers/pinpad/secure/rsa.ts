import { constants, createHash, createHmac, createPrivateKey, privateDecrypt, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import { PinpadError } from '../errors.js';
import { KSEC_LENGTH } from './envelope.js';

/** OPN_MODLEN is fixed at "256" (§3.2.2): a 2048-bit modulus. */
export const MODULUS_BYTES = 256;
/** OPN_EXP is at most 3 bytes (H..6, §3.2.2). */
export const MAX_EXPONENT_BYTES = 3;

/**
 * The terminal's RSA key as the secure channel needs it: the public half to send in a secure
 * OPN (KMOD, KPUB) and `unwrap`, which opens the pinpad's CRKSEC (RSA, PKCS#1 v1.5, §5.2.1) and
 * returns KSEC (a spoiled CRKSEC: a key that opens nothing, see `decode`). The private half stays inside the closure: the object prints and serialises as
 * its modulus size only, so a logged or dumped key shows nothing secret.
 */
export interface TerminalKey {
  readonly modulus: Uint8Array;
  readonly publicExponent: Uint8Array;
  unwrap(cryptogram: Uint8Array): Uint8Array;
}

const bytesOfBig = (n: bigint): Uint8Array => {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Uint8Array.from(Buffer.from(hex, 'hex'));
};
const bigOf = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);

/** c^d mod n, square and multiply (the components-only key of the §3.2.2 example: no CRT factors). */
function modPow(c: bigint, d: bigint, n: bigint): bigint {
  let result = 1n;
  let base = c % n;
  for (let e = d; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % n;
    base = (base * base) % n;
  }
  return result;
}

/**
 * EME-PKCS1-v1_5 decoding (RFC 8017 §7.2.2 step 3: 00 02, at least 8 non-zero padding bytes, 00,
 * the message) with implicit rejection (draft-irtf-cfrg-rsa-guidance, as OpenSSL 3.2 does for
 * its own PKCS#1 v1.5): whatever is wrong with the block (its head, its padding, no separator, a
 * message that is not a KSEC of {@link KSEC_LENGTH} bytes), the answer is a key derived from the
 * cryptogram and a secret of the terminal key, of the right size, never an error that says why.
 * The pinpad's next sealed answer then fails to open, one failure for every bad block: no padding
 * oracle (Bleichenbacher) through the error's reason nor its path. The whole block is scanned
 * and both keys made every time. Node's own PKCS#1 v1.5 decryption is refused (CVE-2023-46809),
 * so the raw RSA is OpenSSL's (RSA_NO_PADDING) and the padding is read here.
 */
function decode(em: Uint8Array | undefined, synthetic: Uint8Array): Uint8Array {
  let bad = em === undefined || em.length !== MODULUS_BYTES ? 1 : 0;
  const block = em?.length === MODULUS_BYTES ? em : new Uint8Array(MODULUS_BYTES);
  bad |= block[0]! | (block[1]! ^ 0x02);
  // The first 00 after the head, found without stopping at it.
  let sep = 0;
  for (let i = 2; i < MODULUS_BYTES; i++) {
    const zeroHere = block[i] === 0 ? 1 : 0;
    const first = zeroHere & (sep === 0 ? 1 : 0);
    sep = first ? i : sep;
  }
  bad |= sep === 0 ? 1 : 0;
  bad |= sep - 2 < 8 ? 1 : 0;
  bad |= MODULUS_BYTES - sep - 1 !== KSEC_LENGTH ? 1 : 0;
  const message = block.slice(MODULUS_BYTES - KSEC_LENGTH);
  const out = new Uint8Array(KSEC_LENGTH);
  const mask = -bad & 0xff;
  for (let i = 0; i < KSEC_LENGTH; i++) out[i] = (message[i]! & ~mask) | (synthetic[i]! & mask);
  message.fill(0);
  return out;
}

function makeKey(
  modulus: Uint8Array,
  publicExponent: Uint8Array,
  rawDecrypt: (c: Uint8Array) => Uint8Array,
  rejectionSecret: Uint8Array,
): TerminalKey {
  if (modulus.length !== MODULUS_BYTES) {
    throw new PinpadError(
      'PINPAD_INVALID_ARGUMENT',
      `terminal key: the modulus must be ${MODULUS_BYTES} bytes (§3.2.2), got ${modulus.length}`,
      { modulusBytes: modulus.length },
    );
  }
  if (publicExponent.length > MAX_EXPONENT_BYTES) {
    throw new PinpadError(
      'PINPAD_INVALID_ARGUMENT',
      `terminal key: the public exponent must fit ${MAX_EXPONENT_BYTES} bytes (§3.2.2), got ${publicExponent.length}`,
      {
        exponentBytes: publicExponent.length,
      },
    );
  }
  const shown = { kind: 'rsa terminal key', modulusBits: MODULUS_BYTES * 8 };
  return {
    modulus,
    publicExponent,
    unwrap(cryptogram: Uint8Array): Uint8Array {
      if (cryptogram.length !== MODULUS_BYTES) {
        // The frame's length, public on the wire: no secret of the key in it.
        throw new PinpadError(
          'PINPAD_PROTOCOL',
          `OPN: CRKSEC of ${cryptogram.length} bytes, expected ${MODULUS_BYTES}`,
          { where: 'OPN', field: 'OPN_CRKSEC', length: cryptogram.length },
        );
      }
      const synthetic = Uint8Array.from(
        createHmac('sha256', rejectionSecret).update(cryptogram).digest().subarray(0, KSEC_LENGTH),
      );
      let em: Uint8Array | undefined;
      try {
        em = rawDecrypt(cryptogram);
      } catch {
        em = undefined;
      }
      try {
        return decode(em, synthetic);
      } finally {
        em?.fill(0);
        synthetic.fill(0);
      }
    },
    toJSON: () => shown,
    [inspect.custom]: () => shown,
  } as TerminalKey;
}

/** The implicit rejection's secret: a hash of the private key, so a bad cryptogram always opens to the same key. */
const rejectionSecretOf = (privateBytes: Uint8Array): Uint8Array =>
  Uint8Array.from(createHash('sha256').update('omnipos CRKSEC implicit rejection').update(privateBytes).digest());

/** The terminal key from a PEM private key (PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY"), 2048 bits. */
export function terminalKeyFromPem(pem: string): TerminalKey {
  let key: KeyObject;
  let jwk: { n?: string; e?: string };
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not rsa');
    jwk = key.export({ format: 'jwk' });
  } catch {
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'terminal key: not an unencrypted RSA private key in PEM', {});
  }
  const modulus = Uint8Array.from(Buffer.from(jwk.n ?? '', 'base64url'));
  const publicExponent = Uint8Array.from(Buffer.from(jwk.e ?? '', 'base64url'));
  return makeKey(
    modulus,
    publicExponent,
    (c) => Uint8Array.from(privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, c)),
    rejectionSecretOf(key.export({ type: 'pkcs8', format: 'der' })),
  );
}

/**
 * The terminal key from its modulus, public exponent and private exponent alone (no CRT
 * factors): how §3.2.2 publishes its example key (KMOD, KPUB = 0Dh, KPRV). For vectors and tests.
 */
export function terminalKeyFromComponents(c: {
  modulus: Uint8Array;
  publicExponent: Uint8Array;
  privateExponent: Uint8Array;
}): TerminalKey {
  const n = bigOf(c.modulus);
  const d = bigOf(c.privateExponent);
  return makeKey(
    bytesOfBig(n),
    bytesOfBig(bigOf(c.publicExponent)),
    (crk) => {
      const m = bigOf(crk);
      if (m >= n) throw new Error('cryptogram out of range');
      const out = bytesOfBig(modPow(m, d, n));
      const em = new Uint8Array(MODULUS_BYTES);
      em.set(out, MODULUS_BYTES - out.length);
      return em;
    },
    rejectionSecretOf(c.privateExponent),
  );
}
