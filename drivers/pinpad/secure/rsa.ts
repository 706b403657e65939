import { inspect } from 'node:util';
import { createRequire } from 'node:module';
import type forge from 'node-forge';
import { PinpadError } from '../errors.js';
import { KSEC_LENGTH } from './envelope.js';

/** node-forge loads at the first terminal key, not when omnipos starts (fast start). */
const forgeLib = (): typeof forge => createRequire(import.meta.url)('node-forge') as typeof forge;

/** OPN_MODLEN is fixed at "256" (§3.2.2): a 2048-bit modulus. */
export const MODULUS_BYTES = 256;
/** OPN_EXP is at most 3 bytes (H..6, §3.2.2). */
export const MAX_EXPONENT_BYTES = 3;

/**
 * The terminal's RSA key as the secure channel needs it: the public half to send in a secure
 * OPN (KMOD, KPUB) and `unwrap`, which opens the pinpad's CRKSEC (RSA, PKCS#1 v1.5, §5.2.1) and
 * returns KSEC. The private half stays inside the closure: the object prints and serialises as
 * its modulus size only, so a logged or dumped key shows nothing secret.
 */
export interface TerminalKey {
  readonly modulus: Uint8Array;
  readonly publicExponent: Uint8Array;
  unwrap(cryptogram: Uint8Array): Uint8Array;
}

function bytesOf(big: forge.jsbn.BigInteger): Uint8Array {
  let hex = big.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

function big(bytes: Uint8Array): forge.jsbn.BigInteger {
  return new (forgeLib().jsbn.BigInteger)(Buffer.from(bytes).toString('hex') || '0', 16);
}

function fromForge(key: forge.pki.rsa.PrivateKey): TerminalKey {
  const modulus = bytesOf(key.n);
  const publicExponent = bytesOf(key.e);
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
        throw new PinpadError(
          'PINPAD_PROTOCOL',
          `OPN: CRKSEC of ${cryptogram.length} bytes, expected ${MODULUS_BYTES}`,
          { where: 'OPN', field: 'OPN_CRKSEC', length: cryptogram.length },
        );
      }
      let opened: string;
      try {
        opened = key.decrypt(Buffer.from(cryptogram).toString('binary'), 'RSAES-PKCS1-V1_5');
      } catch {
        throw new PinpadError('PINPAD_PROTOCOL', 'OPN: CRKSEC does not open under the terminal key (RSA PKCS#1 v1.5)', {
          where: 'OPN',
          field: 'OPN_CRKSEC',
          reason: 'rsa',
        });
      }
      const ksec = Uint8Array.from(Buffer.from(opened, 'binary'));
      if (ksec.length !== KSEC_LENGTH) {
        ksec.fill(0);
        throw new PinpadError(
          'PINPAD_PROTOCOL',
          `OPN: CRKSEC holds a key of the wrong size, expected ${KSEC_LENGTH} bytes`,
          { where: 'OPN', field: 'OPN_CRKSEC', reason: 'ksec-length' },
        );
      }
      return ksec;
    },
    toJSON: () => shown,
    [inspect.custom]: () => shown,
  } as TerminalKey;
}

/** The terminal key from a PEM private key (PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY"), 2048 bits. */
export function terminalKeyFromPem(pem: string): TerminalKey {
  let key: forge.pki.rsa.PrivateKey;
  try {
    key = forgeLib().pki.privateKeyFromPem(pem);
  } catch {
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'terminal key: not an unencrypted RSA private key in PEM', {});
  }
  return fromForge(key);
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
  const key = forgeLib().pki.setRsaPrivateKey(
    big(c.modulus),
    big(c.publicExponent),
    big(c.privateExponent),
    null as never,
    null as never,
    null as never,
    null as never,
    null as never,
  );
  return fromForge(key);
}
