/**
 * AES DUKPT per ANSI X9.24-3:2017: 12-byte KSN (8-byte initial key ID + 32-bit counter with at most 16 one-bits),
 * keys derived by AES-ECB over 16-byte derivation data (version, block counter, key usage, algorithm, length,
 * then the initial key ID or the derivation ID and counter).
 */
import { OmniposError } from '../core/index.js';
import { toBytes, toHex, type BytesLike } from './bytes.js';
import { AES_BLOCK, aesEcb } from './ciphers.js';
import type { Direction } from './dukpt-tdes.js';
import { countOnes } from './ksn.js';

/**
 * Key types X9.24-3 derives: the derivation data's algorithm indicator and length in bits (6.3.2), and the
 * security strength in bits (NIST SP 800-57 Part 1, table 2: 2TDEA 80, 3TDEA 112, AES its key length) that
 * decides which working keys a derivation key may give (6.1.3: the same strength or weaker).
 */
export const AES_DUKPT_KEY_TYPES = {
  tdes2: { algorithm: 0x0000, bits: 128, strength: 80 },
  tdes3: { algorithm: 0x0001, bits: 192, strength: 112 },
  aes128: { algorithm: 0x0002, bits: 128, strength: 128 },
  aes192: { algorithm: 0x0003, bits: 192, strength: 192 },
  aes256: { algorithm: 0x0004, bits: 256, strength: 256 },
} as const;
export type AesKeyType = keyof typeof AES_DUKPT_KEY_TYPES;
/** The types a BDK, initial key or derivation key can be: AES only (X9.24-3 6.3.1). */
export type AesBdkType = 'aes128' | 'aes192' | 'aes256';
export const AES_BDK_TYPES: readonly AesBdkType[] = ['aes128', 'aes192', 'aes256'];
export const AES_KEY_TYPES = Object.keys(AES_DUKPT_KEY_TYPES) as readonly AesKeyType[];

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

/** The AES type of a BDK or derivation key of 16, 24 or 32 bytes. */
export function aesBdkTypeOf(length: number): AesBdkType {
  return length === 32 ? 'aes256' : length === 24 ? 'aes192' : 'aes128';
}

/** The bytes of a key of `type` (TDES 16 or 24, AES 16, 24 or 32). */
export function aesKeyTypeBytes(type: AesKeyType): number {
  return AES_DUKPT_KEY_TYPES[type].bits / 8;
}

function aesKey(value: BytesLike, what: string): Buffer {
  return toBytes(value, { what, lengths: [16, 24, 32], code: 'CRYPTO_INVALID_KEY' });
}

function checkKeyType(type: unknown, what: string): AesKeyType {
  if (typeof type !== 'string' || !(type in AES_DUKPT_KEY_TYPES)) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `${what}: expected ${AES_KEY_TYPES.join(', ')}; got ${String(type)}`, {
      type,
    });
  }
  return type as AesKeyType;
}

/**
 * Refuses (CRYPTO_INVALID_KEY) a working key type stronger than the key it is derived from: X9.24-3:2017 6.1.3
 * allows the same strength or weaker (an AES-128 BDK gives 2TDEA, 3TDEA and AES-128 keys; AES-192 adds AES-192;
 * AES-256 gives every type).
 */
export function checkAesWorkingKeyType(derivation: AesBdkType, working: AesKeyType, what = 'derivation key'): void {
  const from = AES_DUKPT_KEY_TYPES[derivation].strength;
  const to = AES_DUKPT_KEY_TYPES[checkKeyType(working, 'working key type')].strength;
  if (to > from) {
    throw new OmniposError(
      'CRYPTO_INVALID_KEY',
      `an ${derivation} ${what} cannot give ${working} working keys: X9.24-3 6.1.3 allows keys of the same strength or weaker`,
      { derivation, working },
    );
  }
}

/**
 * One 16-byte block of X9.24-3 derivation data (6.3.2): version 01, the block counter, the key usage, the derived
 * key's algorithm and length in bits, then 8 bytes (the initial key ID, or the derivation ID and counter).
 */
export function aesDerivationData(usage: AesKeyUsage, type: AesKeyType, data8: Uint8Array, block = 1): Buffer {
  const { algorithm, bits } = AES_DUKPT_KEY_TYPES[checkKeyType(type, 'key type')];
  const dd = Buffer.alloc(AES_BLOCK);
  dd[0] = 0x01;
  dd[1] = block;
  dd.writeUInt16BE(AES_DUKPT_USAGE[usage], 2);
  dd.writeUInt16BE(algorithm, 4);
  dd.writeUInt16BE(bits, 6);
  dd.set(data8, 8);
  return dd;
}

/** X9.24-3 key derivation: AES-ECB of the derivation data, one block per 128 bits of the derived key. */
export function deriveAesDukptKey(key: Uint8Array, usage: AesKeyUsage, type: AesKeyType, data8: Uint8Array): Buffer {
  const { bits } = AES_DUKPT_KEY_TYPES[checkKeyType(type, 'key type')];
  const blocks = Math.ceil(bits / 128);
  const out = Buffer.alloc(blocks * AES_BLOCK);
  for (let i = 1; i <= blocks; i++) out.set(aesEcb(key, aesDerivationData(usage, type, data8, i)), (i - 1) * AES_BLOCK);
  return out.subarray(0, bits / 8);
}

/** The initial key of a device from an AES BDK (16, 24 or 32 bytes) and its KSN's initial key ID. */
export function deriveAesInitialKey(bdk: BytesLike, ksn: AesKsnLike): Buffer {
  const k = aesKey(bdk, 'BDK');
  return deriveAesDukptKey(k, 'initialKey', aesBdkTypeOf(k.length), parseAesKsn(ksn).initialKeyId);
}

/** The transaction (derivation) key for the KSN's counter: one derivation per one-bit, from the highest. */
export function deriveAesTransactionKey(initialKey: BytesLike, ksn: AesKsnLike): Buffer {
  const k = parseAesKsn(ksn);
  let key = aesKey(initialKey, 'initial key');
  const type = aesBdkTypeOf(key.length);
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

/**
 * A working key (PIN, MAC, data) of a transaction key, for the KSN's counter: of `type` (the transaction key's own
 * AES type by default), which may be any type no stronger than the transaction key (CRYPTO_INVALID_KEY otherwise).
 */
export function deriveAesWorkingKey(
  transactionKey: BytesLike,
  ksn: AesKsnLike,
  usage: AesKeyUsage,
  type?: AesKeyType,
): Buffer {
  const k = parseAesKsn(ksn);
  const key = aesKey(transactionKey, 'transaction key');
  const own = aesBdkTypeOf(key.length);
  const working = type ?? own;
  checkAesWorkingKeyType(own, working);
  const data = Buffer.alloc(8);
  data.set(k.derivationId, 0);
  data.writeUInt32BE(k.counter, 4);
  return deriveAesDukptKey(key, usage, working, data);
}

/** Every key of one AES DUKPT transaction, as a host holding the BDK derives them. */
export interface AesDukptKeys {
  ksn: AesKsn;
  /** The BDK's (and so the initial and transaction keys') type. */
  bdkType: AesBdkType;
  /** The working keys' type: their algorithm and length, written in their derivation data. */
  keyType: AesKeyType;
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

/** What `deriveAesKeys` may be told beside the BDK and KSN. */
export interface AesKeysOptions {
  /** The BDK's type; when given, the BDK must be of its size (CRYPTO_INVALID_KEY otherwise). Default: from its size. */
  bdkType?: AesBdkType;
  /** The working keys' type (X9.24-3 6.1.3: no stronger than the BDK). Default: the BDK's type. */
  keyType?: AesKeyType;
}

/**
 * All keys of a transaction from the BDK and KSN. The working keys' type is independent of the BDK's: `type` (or
 * `options.keyType`) is any of tdes2, tdes3, aes128, aes192, aes256 no stronger than the BDK.
 */
export function deriveAesKeys(bdk: BytesLike, ksn: AesKsnLike, type?: AesKeyType | AesKeysOptions): AesDukptKeys {
  const options: AesKeysOptions = typeof type === 'object' ? type : type === undefined ? {} : { keyType: type };
  const k = parseAesKsn(ksn);
  const bdkBytes = aesKey(bdk, 'BDK');
  const bdkType = aesBdkTypeOf(bdkBytes.length);
  if (options.bdkType !== undefined && options.bdkType !== bdkType) {
    const expected = AES_BDK_TYPES.includes(options.bdkType)
      ? `${aesKeyTypeBytes(options.bdkType)} bytes`
      : `one of ${AES_BDK_TYPES.join(', ')}`;
    throw new OmniposError(
      'CRYPTO_INVALID_KEY',
      `BDK: ${String(options.bdkType)} expects ${expected}, got ${bdkBytes.length} bytes`,
      {
        bdkType: options.bdkType,
        length: bdkBytes.length,
      },
    );
  }
  const keyType = checkKeyType(options.keyType ?? bdkType, 'working key type');
  checkAesWorkingKeyType(bdkType, keyType, 'BDK');
  const initialKey = deriveAesInitialKey(bdkBytes, k);
  const transactionKey = deriveAesTransactionKey(initialKey, k);
  const w = (usage: AesKeyUsage): Buffer => deriveAesWorkingKey(transactionKey, k, usage, keyType);
  return {
    ksn: k,
    bdkType,
    keyType,
    initialKey,
    transactionKey,
    pinKey: w('pinEncryption'),
    dataKeyRequest: w(aesUsageOf('data', 'request')),
    dataKeyResponse: w(aesUsageOf('data', 'response')),
    macKeyRequest: w(aesUsageOf('mac', 'request')),
    macKeyResponse: w(aesUsageOf('mac', 'response')),
  };
}
