/**
 * Block-cipher primitives with padding off: callers pad as their standard says. DES and TDES in ECB run on the
 * table-driven des.ts (DUKPT's many one-block operations under fresh keys would spend most of their time in
 * node:crypto's cipher set-up; OpenSSL 3 also leaves single DES to its legacy provider); CBC and AES run on
 * node:crypto.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { OmniposError } from '../core/index.js';
import { desCrypt, desSchedule, tdesCrypt, tdesSchedule } from './des.js';

export const DES_BLOCK = 8;

/** Reused round-key arrays (a fresh Int32Array per key cost more than the schedule itself), wiped after each use. */
const SCHEDULES: readonly [Int32Array, Int32Array, Int32Array] = [
  new Int32Array(32),
  new Int32Array(32),
  new Int32Array(32),
];

function wipeSchedules(): void {
  for (const ks of SCHEDULES) ks.fill(0);
}
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
    throw new OmniposError(
      'CODEC_INVALID_INPUT',
      `${what}: length ${data.length} is not a multiple of ${block} bytes`,
      {
        what,
        length: data.length,
      },
    );
  }
}

function tdesAlgorithm(key: Uint8Array, mode: 'ecb' | 'cbc'): string {
  if (key.length === 16) return `des-ede-${mode}`;
  if (key.length === 24) return `des-ede3-${mode}`;
  throw new OmniposError('CRYPTO_INVALID_KEY', `TDES key: expected 16 or 24 bytes, got ${key.length}`, {
    length: key.length,
  });
}

function aesAlgorithm(key: Uint8Array, mode: 'ecb' | 'cbc'): string {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `AES key: expected 16, 24 or 32 bytes, got ${key.length}`, {
      length: key.length,
    });
  }
  return `aes-${key.length * 8}-${mode}`;
}

/** Single DES, ECB, one or more 8-byte blocks, under an 8-byte key. */
export function desEcb(key8: Uint8Array, data: Uint8Array, encrypt = true): Buffer {
  checkBlocks(data, DES_BLOCK, 'DES data');
  if (key8.length !== 8) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `DES key: expected 8 bytes, got ${key8.length}`, {
      length: key8.length,
    });
  }
  const ks = desSchedule(key8, 0, SCHEDULES[0]);
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i += DES_BLOCK) desCrypt(ks, !encrypt, data, i, out, i);
  wipeSchedules();
  return out;
}

/** TDES (two- or three-key), ECB. */
export function tdesEcb(key: Uint8Array, data: Uint8Array, encrypt = true): Buffer {
  checkBlocks(data, DES_BLOCK, 'TDES data');
  tdesAlgorithm(key, 'ecb');
  const ks = tdesSchedule(key, SCHEDULES);
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i += DES_BLOCK) tdesCrypt(ks, !encrypt, data, i, out, i);
  wipeSchedules();
  return out;
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
    throw new OmniposError('CODEC_INVALID_INPUT', `IV: expected ${size} bytes, got ${iv.length}`, {
      what: 'IV',
      length: iv.length,
    });
  }
}
