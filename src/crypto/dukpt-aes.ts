/**
 * AES DUKPT per ANSI X9.24-3:2017: 12-byte KSN (8-byte initial key ID + 32-bit counter with at most 16 one-bits),
 * keys derived by AES-ECB over 16-byte derivation data (version, block counter, key usage, algorithm, length,
 * then the initial key ID or the derivation ID and counter).
 */
import { OmniposError } from '../core/errors/index.js';
import { toBytes, toHex, type BytesLike } from './bytes.js';
import { AES_BLOCK, aesEcb } from './ciphers.js';
import type { Direction } from './dukpt-tdes.js';
import { countOnes } from './ksn.js';

/** Key types X9.24-3 derives (algorithm indicator and length in bits). */
export const AES_DUKPT_KEY_TYPES = {
  tdes2: { algorithm: 0x0000, bits: 128 },
  tdes3: { algorithm: 0x0001, bits: 192 },
  aes128: { algorithm: 0x0002, bits: 128 },
  aes192: { algorithm: 0x0003, bits: 192 },
  aes256: { algorithm: 0x0004, bits: 256 },
} as const;
export type AesKeyType = keyof typeof AES_DUKPT_KEY_TYPES;

/** Key usage indicators of the derivation data (X9.24-3:2017 6.3.2). */
export const AES_DUKPT_USAGE = {
  keyEncryption: 0x0002,
  pinEncryption: 0x1000,
  macGeneration: 0x2000,
  macVerification: 0x2001,
  macBoth: 0x2002,
  dataEncrypt: 0x3000,
  dataDecrypt: 0x3001,
  dataBoth: 0x3002,
  keyDerivation: 0x8000,
  initialKey: 0x8001,
} as const;
export type AesKeyUsage = keyof typeof AES_DUKPT_USAGE;

export const AES_KSN_BYTES = 12;
export const AES_MAX_COUNTER_ONES = 16;

/** A parsed AES DUKPT key serial number. */
export interface AesKsn {
  readonly bytes: Buffer;
  readonly hex: string;
  /** Bytes 0–7: BDK ID (4) and derivation ID (4). */
  readonly initialKeyId: Buffer;
  /** Bytes 4–7. */
  readonly derivationId: Buffer;
  /** Bytes 8–11, big-endian. */
  readonly counter: number;
}
export type AesKsnLike = BytesLike | AesKsn;

function isAesKsn(value: AesKsnLike): value is AesKsn {
  return typeof value === 'object' && !(value instanceof Uint8Array) && 'initialKeyId' in value;
}

/** Parses 12 bytes or 24 hex digits; a counter with more than 16 one-bits is CRYPTO_INVALID_KEY. */
export function parseAesKsn(value: AesKsnLike): AesKsn {
  if (isAesKsn(value)) return value;
  const bytes = toBytes(value, { what: 'AES KSN', lengths: [AES_KSN_BYTES], code: 'CRYPTO_INVALID_KEY' });
  const counter = bytes.readUInt32BE(8);
  const ones = countOnes(counter);
  if (ones > AES_MAX_COUNTER_ONES) {
    throw new OmniposError(
      'CRYPTO_INVALID_KEY',
      `AES KSN counter 0x${counter.toString(16).toUpperCase()} has ${ones} one-bits; X9.24-3 allows at most ${AES_MAX_COUNTER_ONES}`,
      { ksn: toHex(bytes), counter, ones },
    );
  }
  return { bytes, hex: toHex(bytes), initialKeyId: bytes.subarray(0, 8), derivationId: bytes.subarray(4, 8), counter };
}

function keyTypeOfLength(length: number): AesKeyType {
  return length === 32 ? 'aes256' : length === 24 ? 'aes192' : 'aes128';
}

function aesKey(value: BytesLike, what: string): Buffer {
  return toBytes(value, { what, lengths: [16, 24, 32], code: 'CRYPTO_INVALID_KEY' });
}

/** X9.24-3 key derivation: AES-ECB of the derivation data, one block per 128 bits of the derived key. */
export function deriveAesDukptKey(key: Uint8Array, usage: AesKeyUsage, type: AesKeyType, data8: Uint8Array): Buffer {
  const { algorithm, bits } = AES_DUKPT_KEY_TYPES[type];
  const blocks = Math.ceil(bits / 128);
  const out = Buffer.alloc(blocks * AES_BLOCK);
  const dd = Buffer.alloc(AES_BLOCK);
  dd[0] = 0x01;
  dd.writeUInt16BE(AES_DUKPT_USAGE[usage], 2);
  dd.writeUInt16BE(algorithm, 4);
  dd.writeUInt16BE(bits, 6);
  dd.set(data8, 8);
  for (let i = 1; i <= blocks; i++) {
    dd[1] = i;
    out.set(aesEcb(key, dd), (i - 1) * AES_BLOCK);
  }
  return out.subarray(0, bits / 8);
}

/** The initial key of a device from an AES BDK (16, 24 or 32 bytes) and its KSN's initial key ID. */
export function deriveAesInitialKey(bdk: BytesLike, ksn: AesKsnLike): Buffer {
  const k = aesKey(bdk, 'BDK');
  return deriveAesDukptKey(k, 'initialKey', keyTypeOfLength(k.length), parseAesKsn(ksn).initialKeyId);
}

/** The transaction (derivation) key for the KSN's counter: one derivation per one-bit, from the highest. */
export function deriveAesTransactionKey(initialKey: BytesLike, ksn: AesKsnLike): Buffer {
  const k = parseAesKsn(ksn);
  let key = aesKey(initialKey, 'initial key');
  const type = keyTypeOfLength(key.length);
  const data = Buffer.alloc(8);
  data.set(k.derivationId, 0);
  let working = 0;
  for (let bit = 31; bit >= 0; bit--) {
    const mask = 2 ** bit;
    if (Math.floor(k.counter / mask) % 2 === 0) continue;
    working += mask;
    data.writeUInt32BE(working, 4);
    key = deriveAesDukptKey(key, 'keyDerivation', type, data);
  }
  return key;
}

/** A working key (PIN, MAC, data) of a transaction key, for the KSN's counter. */
export function deriveAesWorkingKey(transactionKey: BytesLike, ksn: AesKsnLike, usage: AesKeyUsage, type?: AesKeyType): Buffer {
  const k = parseAesKsn(ksn);
  const key = aesKey(transactionKey, 'transaction key');
  const data = Buffer.alloc(8);
  data.set(k.derivationId, 0);
  data.writeUInt32BE(k.counter, 4);
  return deriveAesDukptKey(key, usage, type ?? keyTypeOfLength(key.length), data);
}

/** Every key of one AES DUKPT transaction, as a host holding the BDK derives them. */
export interface AesDukptKeys {
  ksn: AesKsn;
  initialKey: Buffer;
  transactionKey: Buffer;
  pinKey: Buffer;
  dataKeyRequest: Buffer;
  dataKeyResponse: Buffer;
  macKeyRequest: Buffer;
  macKeyResponse: Buffer;
}

/** The data or MAC usage of a direction: the device encrypts and generates on requests, the host on responses. */
export function aesUsageOf(kind: 'data' | 'mac', direction: Direction): AesKeyUsage {
  if (kind === 'data') return direction === 'request' ? 'dataEncrypt' : 'dataDecrypt';
  return direction === 'request' ? 'macGeneration' : 'macVerification';
}

/** All keys of a transaction from the BDK and KSN; working keys are of `type` (the BDK's by default). */
export function deriveAesKeys(bdk: BytesLike, ksn: AesKsnLike, type?: AesKeyType): AesDukptKeys {
  const k = parseAesKsn(ksn);
  const initialKey = deriveAesInitialKey(bdk, k);
  const transactionKey = deriveAesTransactionKey(initialKey, k);
  const w = (usage: AesKeyUsage): Buffer => deriveAesWorkingKey(transactionKey, k, usage, type);
  return {
    ksn: k,
    initialKey,
    transactionKey,
    pinKey: w('pinEncryption'),
    dataKeyRequest: w(aesUsageOf('data', 'request')),
    dataKeyResponse: w(aesUsageOf('data', 'response')),
    macKeyRequest: w(aesUsageOf('mac', 'request')),
    macKeyResponse: w(aesUsageOf('mac', 'response')),
  };
}
