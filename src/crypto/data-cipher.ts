/**
 * Encryption of data under a DUKPT data key (CBC with an IV, zero padding, as the pinpad's `GTK`/`EBX` method 51
 * and the acquirer's `Dukpt3DesCBC` use), PIN-block encryption (ECB, one block) and the retail MAC
 * (ISO 9797-1 algorithm 3, as in X9.24-1:2009 annex A).
 */
import { OmniposError } from '../core/index.js';
import { toBytes, type BytesLike } from './bytes.js';
import { AES_BLOCK, DES_BLOCK, aesCbc, aesEcb, desEcb, tdesCbc, tdesEcb } from './ciphers.js';

/** The block cipher a key belongs to: TDES (16 or 24 bytes) or AES (16, 24 or 32 bytes). */
export type CipherAlgorithm = 'tdes' | 'aes';

export interface DataCipherOptions {
  /** The IV (8 bytes for TDES, 16 for AES); zeros when omitted. */
  iv?: BytesLike;
  /** `tdes` by default. */
  algorithm?: CipherAlgorithm;
}

function blockOf(algorithm: CipherAlgorithm): number {
  return algorithm === 'aes' ? AES_BLOCK : DES_BLOCK;
}

function keyOf(key: BytesLike, algorithm: CipherAlgorithm): Buffer {
  const lengths = algorithm === 'aes' ? [16, 24, 32] : [16, 24];
  return toBytes(key, { what: `${algorithm.toUpperCase()} key`, lengths, code: 'CRYPTO_INVALID_KEY' });
}

function ivOf(iv: BytesLike | undefined, block: number): Buffer {
  return iv === undefined ? Buffer.alloc(block) : toBytes(iv, { what: 'IV', lengths: [block] });
}

/** Pads with zero bytes to a whole number of blocks (nothing added when already whole). */
export function zeroPad(data: Uint8Array, block: number): Buffer {
  const size = Math.ceil(data.length / block) * block;
  const out = Buffer.alloc(size);
  out.set(data);
  return out;
}

/** Encrypts data in CBC under a data key; the data is zero-padded to the block size. */
export function encryptData(key: BytesLike, data: BytesLike, options: DataCipherOptions = {}): Buffer {
  const algorithm = options.algorithm ?? 'tdes';
  const block = blockOf(algorithm);
  const k = keyOf(key, algorithm);
  const iv = ivOf(options.iv, block);
  const plain = zeroPad(toBytes(data, { what: 'data' }), block);
  return algorithm === 'aes' ? aesCbc(k, iv, plain, true) : tdesCbc(k, iv, plain, true);
}

/**
 * Decrypts CBC data under a data key. The ciphertext must be whole blocks (CODEC_INVALID_INPUT otherwise); the
 * padding stays: strip it with `stripZeroPadding` when the content cannot end in zero bytes.
 */
export function decryptData(key: BytesLike, ciphertext: BytesLike, options: DataCipherOptions = {}): Buffer {
  const algorithm = options.algorithm ?? 'tdes';
  const block = blockOf(algorithm);
  const k = keyOf(key, algorithm);
  const iv = ivOf(options.iv, block);
  const c = toBytes(ciphertext, { what: 'ciphertext' });
  if (c.length === 0 || c.length % block !== 0) {
    throw new OmniposError(
      'CODEC_INVALID_INPUT',
      `ciphertext: ${c.length} bytes is not a whole number of ${block}-byte blocks`,
      {
        what: 'ciphertext',
        length: c.length,
      },
    );
  }
  return algorithm === 'aes' ? aesCbc(k, iv, c, false) : tdesCbc(k, iv, c, false);
}

/** The data without its trailing zero bytes. */
export function stripZeroPadding(data: Uint8Array): Buffer {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  return Buffer.from(data.subarray(0, end));
}

/** Encrypts one clear PIN block (8 bytes under TDES, 16 under AES) in ECB. */
export function encryptPinBlock(key: BytesLike, clearBlock: BytesLike, algorithm: CipherAlgorithm = 'tdes'): Buffer {
  const block = toBytes(clearBlock, { what: 'PIN block', lengths: [blockOf(algorithm)], code: 'PINBLOCK_INVALID' });
  const k = keyOf(key, algorithm);
  return algorithm === 'aes' ? aesEcb(k, block, true) : tdesEcb(k, block, true);
}

/** Decrypts one encrypted PIN block in ECB. */
export function decryptPinBlock(
  key: BytesLike,
  encryptedBlock: BytesLike,
  algorithm: CipherAlgorithm = 'tdes',
): Buffer {
  const block = toBytes(encryptedBlock, { what: 'PIN block', lengths: [blockOf(algorithm)], code: 'PINBLOCK_INVALID' });
  const k = keyOf(key, algorithm);
  return algorithm === 'aes' ? aesEcb(k, block, false) : tdesEcb(k, block, false);
}

/**
 * Retail MAC (ISO 9797-1 MAC algorithm 3, padding method 1): single-DES CBC under the left half, then decrypt
 * with the right half and encrypt with the left. Returns all 8 bytes; X9.24-1 transmits the left 4.
 */
export function retailMac(key: BytesLike, data: BytesLike): Buffer {
  const k = toBytes(key, { what: 'MAC key', lengths: [16], code: 'CRYPTO_INVALID_KEY' });
  const d = zeroPad(toBytes(data, { what: 'data' }), DES_BLOCK);
  const left = k.subarray(0, 8);
  let chain: Buffer = Buffer.alloc(DES_BLOCK);
  for (let i = 0; i < d.length; i += DES_BLOCK) {
    for (let j = 0; j < DES_BLOCK; j++) chain[j]! ^= d[i + j]!;
    chain = desEcb(left, chain);
  }
  return desEcb(left, desEcb(k.subarray(8, 16), chain, false));
}
