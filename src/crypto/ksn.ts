/**
 * DUKPT key serial numbers (ANSI X9.24-1:2009, 10 bytes): the low 21 bits are the transaction counter, the rest
 * identifies the initial key. The acquirer lays the 20 hex digits out as `FFFFF` + 5-digit KSI + device id
 * (19 bits) + counter (21 bits), e.g. `FFFFF030331234500012` (docs/acquirer.md, "Key serial numbers").
 */
import { OmniposError } from '../core/index.js';
import { toBytes, toHex, type BytesLike } from './bytes.js';

export const KSN_BYTES = 10;
export const COUNTER_BITS = 21;
export const COUNTER_MAX = 0x1fffff;
/** X9.24-1: a transaction counter never has more than ten one-bits. */
export const MAX_COUNTER_ONES = 10;
export const DEVICE_ID_MAX = 0x7ffff;

/** A parsed key serial number. */
export interface Ksn {
  /** The 10 bytes. */
  readonly bytes: Buffer;
  /** The 20 upper-case hex digits. */
  readonly hex: string;
  /** The transaction counter (low 21 bits). */
  readonly counter: number;
  /** The initial KSN: these bytes with the counter cleared (the input of the initial key's derivation). */
  readonly initial: Buffer;
  /** Hex digits 1–5 (`FFFFF` in the acquirer's layout). */
  readonly prefix: string;
  /** Hex digits 6–10: the acquirer's 5-digit key set identifier. */
  readonly ksi: string;
  /** The 19 bits between the KSI and the counter. */
  readonly deviceId: number;
}

/** A KSN as bytes, hex text or already parsed. */
export type KsnLike = BytesLike | Ksn;

export interface ParseKsnOptions {
  /** Require the acquirer's layout: `FFFFF` then a 5-digit decimal KSI. */
  acquirer?: boolean;
}

/** Number of one-bits in a counter. */
export function countOnes(counter: number): number {
  let n = 0;
  for (let c = counter; c !== 0; c &= c - 1) n++;
  return n;
}

/** Whether a counter can occur: 21 bits with at most ten of them set. */
export function isValidCounter(counter: number): boolean {
  return Number.isInteger(counter) && counter >= 0 && counter <= COUNTER_MAX && countOnes(counter) <= MAX_COUNTER_ONES;
}

function checkCounter(counter: number, where: Record<string, unknown>): void {
  if (!Number.isInteger(counter) || counter < 0 || counter > COUNTER_MAX) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `KSN counter ${counter} does not fit in 21 bits`, {
      ...where,
      counter,
    });
  }
  const ones = countOnes(counter);
  if (ones > MAX_COUNTER_ONES) {
    throw new OmniposError(
      'CRYPTO_INVALID_KEY',
      `KSN counter 0x${counter.toString(16).toUpperCase()} has ${ones} one-bits; DUKPT allows at most ${MAX_COUNTER_ONES}`,
      { ...where, counter, ones },
    );
  }
}

function isKsn(value: KsnLike): value is Ksn {
  return typeof value === 'object' && !(value instanceof Uint8Array) && 'counter' in value;
}

/** Parses 10 bytes or 20 hex digits; a counter with more than ten one-bits is refused (CRYPTO_INVALID_KEY). */
export function parseKsn(value: KsnLike, options: ParseKsnOptions = {}): Ksn {
  if (isKsn(value)) return value;
  const bytes = toBytes(value, { what: 'KSN', lengths: [KSN_BYTES], code: 'CRYPTO_INVALID_KEY' });
  const hex = toHex(bytes);
  const counter = ((bytes[7]! & 0x1f) << 16) | (bytes[8]! << 8) | bytes[9]!;
  checkCounter(counter, { ksn: hex });
  const initial = Buffer.from(bytes);
  initial[7]! &= 0xe0;
  initial[8] = 0;
  initial[9] = 0;
  const prefix = hex.slice(0, 5);
  const ksi = hex.slice(5, 10);
  if (options.acquirer && (prefix !== 'FFFFF' || !/^\d{5}$/.test(ksi))) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `KSN ${hex}: expected FFFFF followed by a 5-digit KSI`, { ksn: hex });
  }
  const low40 = bytes.readUIntBE(5, 5);
  const deviceId = Math.floor(low40 / 2 ** COUNTER_BITS);
  return { bytes, hex, counter, initial, prefix, ksi, deviceId };
}

/** The fields of the acquirer's KSN layout. */
export interface KsnFields {
  /** 5 decimal digits, as registered at the acquirer. */
  ksi: string;
  /** 0 to 2^19 - 1. */
  deviceId: number;
  /** 0 to 2^21 - 1, at most ten one-bits. */
  counter: number;
}

/** `FFFFF` + KSI + device id + counter, as 20 upper-case hex digits. */
export function formatKsn(fields: KsnFields): string {
  if (!/^\d{5}$/.test(fields.ksi)) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `KSI "${fields.ksi}": expected 5 digits`, { ksi: fields.ksi });
  }
  if (!Number.isInteger(fields.deviceId) || fields.deviceId < 0 || fields.deviceId > DEVICE_ID_MAX) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `device id ${fields.deviceId} does not fit in 19 bits`, {
      deviceId: fields.deviceId,
    });
  }
  checkCounter(fields.counter, { ksi: fields.ksi });
  const low40 = fields.deviceId * 2 ** COUNTER_BITS + fields.counter;
  return `FFFFF${fields.ksi}${low40.toString(16).toUpperCase().padStart(10, '0')}`;
}

/** The same initial KSN with another counter. */
export function withCounter(ksn: KsnLike, counter: number): Ksn {
  const k = parseKsn(ksn);
  checkCounter(counter, { ksn: k.hex });
  const bytes = Buffer.from(k.initial);
  bytes[7]! |= (counter >>> 16) & 0x1f;
  bytes[8] = (counter >>> 8) & 0xff;
  bytes[9] = counter & 0xff;
  return parseKsn(bytes);
}

/**
 * The counter a device uses after `counter` (X9.24-1: add one, then skip any value with more than ten one-bits by
 * adding its lowest one-bit), or undefined when the 21 bits are exhausted and the device needs a new initial key.
 */
export function nextCounter(counter: number): number | undefined {
  let c = counter + 1;
  while (c <= COUNTER_MAX && countOnes(c) > MAX_COUNTER_ONES) c += c & -c;
  return c > COUNTER_MAX ? undefined : c;
}
