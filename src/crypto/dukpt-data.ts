/**
 * One-call DUKPT data encryption for the two sides of `Dukpt3DesCBC` (docs/acquirer.md, "The sale request"): the pinpad
 * (holding its initial key) encrypts track 2 or a typed card number; the host (holding the BDK) decrypts it with
 * the KSN and IV sent beside it. TDES-CBC under the request data key, zero padding.
 */
import type { BytesLike } from './bytes.js';
import { decryptData, encryptData } from './data-cipher.js';
import { dataKey, deriveIpek, type Direction } from './dukpt-tdes.js';
import { parseKsn, type KsnLike } from './ksn.js';

/** Where the keys come from: the BDK (host side) or the device's initial key (pinpad side). */
export type DukptKeySource = { bdk: BytesLike } | { ipek: BytesLike };

export interface DukptDataOptions {
  /** 8-byte IV; zeros when omitted. */
  iv?: BytesLike;
  /** `request` (terminal to host, the default) or `response`. */
  direction?: Direction;
}

function ipekOf(source: DukptKeySource, ksn: KsnLike): BytesLike {
  return 'bdk' in source ? deriveIpek(source.bdk, ksn) : source.ipek;
}

/** Encrypts data under the DUKPT data key of a KSN (TDES-CBC, zero-padded). */
export function dukptEncryptData(
  source: DukptKeySource,
  ksn: KsnLike,
  data: BytesLike,
  options: DukptDataOptions = {},
): Buffer {
  const k = parseKsn(ksn);
  const key = dataKey(ipekOf(source, k), k, options.direction ?? 'request');
  return encryptData(key, data, options.iv === undefined ? {} : { iv: options.iv });
}

/** Decrypts data under the DUKPT data key of a KSN; the zero padding stays (see `stripZeroPadding`). */
export function dukptDecryptData(
  source: DukptKeySource,
  ksn: KsnLike,
  ciphertext: BytesLike,
  options: DukptDataOptions = {},
): Buffer {
  const k = parseKsn(ksn);
  const key = dataKey(ipekOf(source, k), k, options.direction ?? 'request');
  return decryptData(key, ciphertext, options.iv === undefined ? {} : { iv: options.iv });
}
