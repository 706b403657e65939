/**
 * Block-cipher primitives over node:crypto, with padding off: callers pad as their standard says.
 * OpenSSL 3 leaves single DES to its legacy provider, so single DES runs as two-key EDE with both halves equal
 * (E(K1) D(K1) E(K1) = E(K1)).
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { OmniposError } from '../core/errors/index.js';

export const DES_BLOCK = 8;
export const AES_BLOCK = 16;

function run(algorithm: string, key: Uint8Array, iv: Uint8Array | null, data: Uint8Array, encrypt: boolean): Buffer {
  const c = encrypt ? createCipheriv(algorithm, key, iv) : createDecipheriv(algorithm, key, iv);
  c.setAutoPadding(false);
  const first = c.update(data);
  const last = c.final();
  return last.length === 0 ? first : Buffer.concat([first, last]);
}

function checkBlocks(data: Uint8Array, block: number, what: string): void {
  if (data.length % block !== 0) {
    throw new OmniposError('CODEC_INVALID_INPUT', `${what}: length ${data.length} is not a multiple of ${block} bytes`, {
      what,
      length: data.length,
    });
  }
}

function tdesAlgorithm(key: Uint8Array, mode: 'ecb' | 'cbc'): string {
  if (key.length === 16) return `des-ede-${mode}`;
  if (key.length === 24) return `des-ede3-${mode}`;
  throw new OmniposError('CRYPTO_INVALID_KEY', `TDES key: expected 16 or 24 bytes, got ${key.length}`, { length: key.length });
}

function aesAlgorithm(key: Uint8Array, mode: 'ecb' | 'cbc'): string {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `AES key: expected 16, 24 or 32 bytes, got ${key.length}`, { length: key.length });
  }
  return `aes-${key.length * 8}-${mode}`;
}

/** Single DES, ECB, one or more 8-byte blocks, under an 8-byte key. */
export function desEcb(key8: Uint8Array, data: Uint8Array, encrypt = true): Buffer {
  checkBlocks(data, DES_BLOCK, 'DES data');
  const k = Buffer.allocUnsafe(16);
  k.set(key8, 0);
  k.set(key8, 8);
  return run('des-ede-ecb', k, null, data, encrypt);
}

/** TDES (two- or three-key), ECB. */
export function tdesEcb(key: Uint8Array, data: Uint8Array, encrypt = true): Buffer {
  checkBlocks(data, DES_BLOCK, 'TDES data');
  return run(tdesAlgorithm(key, 'ecb'), key, null, data, encrypt);
}

/** TDES (two- or three-key), CBC with an 8-byte IV. */
export function tdesCbc(key: Uint8Array, iv: Uint8Array, data: Uint8Array, encrypt = true): Buffer {
  checkBlocks(data, DES_BLOCK, 'TDES data');
  checkIv(iv, DES_BLOCK);
  return run(tdesAlgorithm(key, 'cbc'), key, iv, data, encrypt);
}

/** AES (128, 192 or 256), ECB. */
export function aesEcb(key: Uint8Array, data: Uint8Array, encrypt = true): Buffer {
  checkBlocks(data, AES_BLOCK, 'AES data');
  return run(aesAlgorithm(key, 'ecb'), key, null, data, encrypt);
}

/** AES (128, 192 or 256), CBC with a 16-byte IV. */
export function aesCbc(key: Uint8Array, iv: Uint8Array, data: Uint8Array, encrypt = true): Buffer {
  checkBlocks(data, AES_BLOCK, 'AES data');
  checkIv(iv, AES_BLOCK);
  return run(aesAlgorithm(key, 'cbc'), key, iv, data, encrypt);
}

function checkIv(iv: Uint8Array, size: number): void {
  if (iv.length !== size) {
    throw new OmniposError('CODEC_INVALID_INPUT', `IV: expected ${size} bytes, got ${iv.length}`, { what: 'IV', length: iv.length });
  }
}
