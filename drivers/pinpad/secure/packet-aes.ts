import { createCipheriv, createDecipheriv, type Cipher, type Decipher } from 'node:crypto';
import { PinpadError } from '../errors.js';

/** KSEC is 16 bytes (AES-128), §5.2.1. */
export const KSEC_LENGTH = 16;
const BLOCK = 16;
const ZERO_IV = Buffer.alloc(BLOCK);

/** Refuses a KSEC that is not 16 bytes. */
export function checkKsec(key: Uint8Array): void {
  if (key.length !== KSEC_LENGTH)
    throw new PinpadError(
      'PINPAD_INVALID_ARGUMENT',
      `secure channel: KSEC must be ${KSEC_LENGTH} bytes, got ${key.length}`,
      { length: key.length },
    );
}

/** AES-128-CBC, zero IV, no padding, on cipher objects made for this one packet (key schedule and all). */
export function aesCbcOnce(decrypt: boolean, key: Uint8Array, data: Uint8Array): Buffer {
  const c = decrypt ? createDecipheriv('aes-128-cbc', key, ZERO_IV) : createCipheriv('aes-128-cbc', key, ZERO_IV);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]);
}

function xorBlockInto(target: Uint8Array, mask: Uint8Array): void {
  for (let i = 0; i < BLOCK; i++) target[i]! ^= mask[i]!;
}

/** With padding off, OpenSSL holds nothing back: every block comes out of `update` (checked, never assumed). */
function whole(out: Buffer, length: number): Buffer {
  if (out.length !== length)
    throw new PinpadError('PINPAD_PROTOCOL', `secure channel: AES gave ${out.length} bytes for ${length}`, {
      where: 'secure channel',
    });
  return out;
}

/**
 * The AES-128-CBC of one secure session (§5.2.2: every packet under KSEC with a zero IV), with one encryptor and one
 * decryptor made when the session starts: the key schedule is expanded once, not per packet (a node:crypto cipher
 * object costs more to make than a short packet costs to encrypt). Each object runs one long CBC chain, whose next
 * IV is the last ciphertext block it saw; a packet starts from a zero IV by XORing that block into its first
 * plaintext block (encrypting) or its first output block (decrypting). Same bytes as `aesCbcOnce`, packet by packet.
 */
export class SessionAes {
  private readonly encryptor: Cipher;
  private readonly decryptor: Decipher;
  /** The IV the encryptor and decryptor will use next: their last ciphertext block (zero at first). */
  private readonly encryptChain = Buffer.alloc(BLOCK);
  private readonly decryptChain = Buffer.alloc(BLOCK);

  constructor(key: Uint8Array) {
    checkKsec(key);
    this.encryptor = createCipheriv('aes-128-cbc', key, ZERO_IV).setAutoPadding(false);
    this.decryptor = createDecipheriv('aes-128-cbc', key, ZERO_IV).setAutoPadding(false);
  }

  /** Encrypts `plain` (a positive multiple of 16 bytes; its first block is overwritten) as from a zero IV. */
  encrypt(plain: Uint8Array): Buffer {
    xorBlockInto(plain, this.encryptChain);
    const out = whole(this.encryptor.update(plain), plain.length);
    out.copy(this.encryptChain, 0, out.length - BLOCK);
    return out;
  }

  /** Decrypts `cipher` (a positive multiple of 16 bytes) as from a zero IV. */
  decrypt(cipher: Uint8Array): Buffer {
    const out = whole(this.decryptor.update(cipher), cipher.length);
    xorBlockInto(out, this.decryptChain);
    this.decryptChain.set(cipher.subarray(cipher.length - BLOCK));
    return out;
  }
}
