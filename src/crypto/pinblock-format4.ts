/**
 * ISO 9564-1:2017 format 4 (AES): the PAN field, and the encipherment that binds the PIN field to it
 * (encrypt the PIN field, XOR the PAN field, encrypt again). Plus one entry point per direction for every format:
 * `encryptPin` and `decryptPin`.
 */
import { OmniposError } from '../core/index.js';
import { toBytes, type BytesLike } from './bytes.js';
import { aesEcb } from './ciphers.js';
import { decryptPinBlock, encryptPinBlock } from './data-cipher.js';
import { decodePinBlock, encodePinBlock, type DecodePinBlockInput, type EncodePinBlockInput } from './pinblock.js';

/**
 * Checks a format 4 PAN: 1 to 19 digits. ISO 9564-1:2017 (9.4.2, the plain text PAN field) sets no minimum: a PAN
 * shorter than 12 digits is right-justified and padded to the left with zeros, M = 0.
 */
export function checkPan4(pan: string | undefined): string {
  if (typeof pan !== 'string' || !/^\d{1,19}$/.test(pan)) {
    throw new OmniposError('PINBLOCK_INVALID', 'PAN: expected 1 to 19 digits (format 4)', {
      reason: 'pan',
      length: typeof pan === 'string' ? pan.length : undefined,
    });
  }
  return pan;
}

/** Format 4's 16-byte PAN field: M (PAN length - 12, 0 when shorter), the PAN (left-padded to 12), zeros. */
export function panField4(pan: string): Buffer {
  const p = checkPan4(pan);
  const m = Math.max(0, p.length - 12);
  return Buffer.from(`${m}${p.padStart(12, '0')}`.padEnd(32, '0'), 'hex');
}

function aesKey(key: BytesLike): Buffer {
  return toBytes(key, { what: 'AES key', lengths: [16, 24, 32], code: 'CRYPTO_INVALID_KEY' });
}

/** Enciphers a format 4 plaintext PIN field under an AES key, bound to the PAN. */
export function encipherFormat4(key: BytesLike, pinField: BytesLike, pan: string): Buffer {
  const k = aesKey(key);
  const field = toBytes(pinField, { what: 'PIN field', lengths: [16], code: 'PINBLOCK_INVALID' });
  const a = aesEcb(k, field, true);
  const p = panField4(pan);
  for (let i = 0; i < 16; i++) a[i]! ^= p[i]!;
  return aesEcb(k, a, true);
}

/** Recovers the plaintext PIN field of a format 4 block. */
export function decipherFormat4(key: BytesLike, block: BytesLike, pan: string): Buffer {
  const k = aesKey(key);
  const b = toBytes(block, { what: 'PIN block', lengths: [16], code: 'PINBLOCK_INVALID' });
  const a = aesEcb(k, b, false);
  const p = panField4(pan);
  for (let i = 0; i < 16; i++) a[i]! ^= p[i]!;
  return aesEcb(k, a, false);
}

export interface EncryptPinInput extends EncodePinBlockInput {
  /** TDES key (16 or 24 bytes) for formats 0, 1 and 3; AES key for format 4. */
  key: BytesLike;
}

export interface EncryptedPin {
  /** The clear block (format 4: the plaintext PIN field). */
  clearBlock: Buffer;
  encryptedPinBlock: Buffer;
}

/** Builds the clear block of any format and encrypts it under a PIN key (format 4: with the PAN binding). */
export function encryptPin(input: EncryptPinInput): EncryptedPin {
  const clearBlock = encodePinBlock(input);
  const encryptedPinBlock =
    input.format === 4
      ? encipherFormat4(input.key, clearBlock, checkPan4(input.pan))
      : encryptPinBlock(input.key, clearBlock, 'tdes');
  return { clearBlock, encryptedPinBlock };
}

export interface DecryptPinInput extends DecodePinBlockInput {
  key: BytesLike;
  block: BytesLike;
}

/** Decrypts an encrypted PIN block of any format and returns the PIN (PINBLOCK_INVALID with a reason otherwise). */
export function decryptPin(input: DecryptPinInput): string {
  const clear =
    input.format === 4
      ? decipherFormat4(input.key, input.block, checkPan4(input.pan))
      : decryptPinBlock(input.key, input.block, 'tdes');
  return decodePinBlock(clear, input);
}
