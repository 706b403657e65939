/**
 * TDES DUKPT per ANSI X9.24-1:2009 (annex A): the initial key from the BDK and KSN, the transaction key for any
 * counter, and its variants for PIN (`Dukpt3Des`), data (with the 2009 one-way step; `Dukpt3DesCBC`) and MAC.
 * Keys are 16-byte (double-length) TDES keys.
 */
import { toBytes, wipe, xor, type BytesLike } from './bytes.js';
import { tdesEcb } from './ciphers.js';
import { desEncryptInPlace } from './des.js';
import { COUNTER_BITS, parseKsn, type Ksn, type KsnLike } from './ksn.js';

/** Which way a data or MAC key protects: terminal to host (`request`) or host to terminal (`response`). */
export type Direction = 'request' | 'response';

const TDES_KEY = [16] as const;
/** X9.24-1 key register mask for the right half of the initial key and of each non-reversible step. */
const C0_MASK = Buffer.from('C0C0C0C000000000C0C0C0C000000000', 'hex');

/** The variant masks of X9.24-1:2009 A.4.1 table A-1 (which bytes of each half are XORed with FF). */
const VARIANT_BYTE = {
  pin: 7,
  macRequest: 6,
  macResponse: 4,
  dataRequest: 5,
  dataResponse: 3,
} as const;

function key16(value: BytesLike, what: string): Buffer {
  return toBytes(value, { what, lengths: TDES_KEY, code: 'CRYPTO_INVALID_KEY' });
}

/** The initial key (IPEK) of a device: the BDK and the KSN with its counter cleared. */
export function deriveIpek(bdk: BytesLike, ksn: KsnLike): Buffer {
  const k = key16(bdk, 'BDK');
  const block = parseKsn(ksn).initial.subarray(0, 8);
  const left = tdesEcb(k, block);
  const right = tdesEcb(xor(k, C0_MASK), block);
  return Buffer.concat([left, right]);
}

/** X9.24-1 non-reversible key generation: a new 16-byte key from a key and the 8-byte KSN register. */
function nonReversible(key: Buffer, register: Buffer): Buffer {
  const out = Buffer.allocUnsafe(16);
  nonReversibleHalf(key, register, out, 8);
  const masked = xor(key, C0_MASK);
  nonReversibleHalf(masked, register, out, 0);
  wipe(masked);
  return out;
}

/** One half of the step, into `out` at `at`: (register XOR right) DES-encrypted under left, XOR right. */
function nonReversibleHalf(key: Uint8Array, register: Uint8Array, out: Uint8Array, at: number): void {
  for (let i = 0; i < 8; i++) out[at + i] = register[i]! ^ key[8 + i]!;
  desEncryptInPlace(key, 0, out, at);
  for (let i = 0; i < 8; i++) out[at + i]! ^= key[8 + i]!;
}

/**
 * The transaction ("current") key for the KSN's counter, before any variant: one non-reversible step per one-bit
 * of the counter, from the highest. The counter must have at most ten one-bits (CRYPTO_INVALID_KEY otherwise).
 */
export function deriveTransactionKey(ipek: BytesLike, ksn: KsnLike): Buffer {
  const k: Ksn = parseKsn(ksn);
  let key = key16(ipek, 'IPEK');
  const register = Buffer.from(k.initial.subarray(2, 10));
  for (let bit = 1 << (COUNTER_BITS - 1); bit > 0; bit >>>= 1) {
    if ((k.counter & bit) === 0) continue;
    register[5]! |= (bit >>> 16) & 0x1f;
    register[6]! |= (bit >>> 8) & 0xff;
    register[7]! |= bit & 0xff;
    key = nonReversible(key, register);
  }
  return key;
}

function variant(transactionKey: BytesLike, byte: number): Buffer {
  const key = key16(transactionKey, 'transaction key');
  key[byte]! ^= 0xff;
  key[byte + 8]! ^= 0xff;
  return key;
}

/** The PIN encryption key of a transaction key (variant `..FF..FF` on the last byte of each half). */
export function pinVariant(transactionKey: BytesLike): Buffer {
  return variant(transactionKey, VARIANT_BYTE.pin);
}

/** The MAC key of a transaction key, for requests or responses. */
export function macVariant(transactionKey: BytesLike, direction: Direction = 'request'): Buffer {
  return variant(transactionKey, direction === 'request' ? VARIANT_BYTE.macRequest : VARIANT_BYTE.macResponse);
}

/**
 * The data encryption key of a transaction key: the data variant, then (X9.24-1:2009) each half TDES-encrypted
 * under the variant itself. This is the key of `Dukpt3DesCBC` track and card-number encryption.
 */
export function dataVariant(transactionKey: BytesLike, direction: Direction = 'request'): Buffer {
  const v = variant(transactionKey, direction === 'request' ? VARIANT_BYTE.dataRequest : VARIANT_BYTE.dataResponse);
  return tdesEcb(v, v);
}

/** The PIN key for a KSN, from the device's initial key. */
export function pinKey(ipek: BytesLike, ksn: KsnLike): Buffer {
  return pinVariant(deriveTransactionKey(ipek, ksn));
}

/** The data key for a KSN, from the device's initial key. */
export function dataKey(ipek: BytesLike, ksn: KsnLike, direction: Direction = 'request'): Buffer {
  return dataVariant(deriveTransactionKey(ipek, ksn), direction);
}

/** The MAC key for a KSN, from the device's initial key. */
export function macKey(ipek: BytesLike, ksn: KsnLike, direction: Direction = 'request'): Buffer {
  return macVariant(deriveTransactionKey(ipek, ksn), direction);
}

/** Every key of one TDES DUKPT transaction, as a host holding the BDK derives them. */
export interface TdesDukptKeys {
  ksn: Ksn;
  ipek: Buffer;
  transactionKey: Buffer;
  pinKey: Buffer;
  dataKeyRequest: Buffer;
  dataKeyResponse: Buffer;
  macKeyRequest: Buffer;
  macKeyResponse: Buffer;
}

/** All keys of a transaction from the BDK and the KSN the device sent. */
export function deriveTdesKeys(bdk: BytesLike, ksn: KsnLike): TdesDukptKeys {
  const k = parseKsn(ksn);
  const ipek = deriveIpek(bdk, k);
  const transactionKey = deriveTransactionKey(ipek, k);
  return {
    ksn: k,
    ipek,
    transactionKey,
    pinKey: pinVariant(transactionKey),
    dataKeyRequest: dataVariant(transactionKey, 'request'),
    dataKeyResponse: dataVariant(transactionKey, 'response'),
    macKeyRequest: macVariant(transactionKey, 'request'),
    macKeyResponse: macVariant(transactionKey, 'response'),
  };
}
