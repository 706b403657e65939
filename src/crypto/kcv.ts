/**
 * Key check values: the first bytes of a key's encryption of zeros (TDES and legacy AES), or of its AES-CMAC over
 * a zero block (ANSI X9.24-1:2017 / TR-31 for AES keys). A KCV identifies a key without revealing it.
 */
import { toBytes, toHex, type BytesLike } from './bytes.js';
import { aesEcb, tdesEcb } from './ciphers.js';
import { aesCmac } from './cmac.js';

export interface KcvOptions {
  algorithm: 'tdes' | 'aes';
  /** `zeros` (encrypt a zero block; the only method for TDES) or `cmac` (AES only). Default `zeros` for TDES, `cmac` for AES. */
  method?: 'zeros' | 'cmac';
  /** Bytes kept: 3 by default (5 is usual for CMAC). */
  length?: number;
}

/** The KCV of a TDES (16 or 24 bytes) or AES (16, 24 or 32 bytes) key, as upper-case hex. */
export function kcv(key: BytesLike, options: KcvOptions): string {
  const length = options.length ?? 3;
  if (options.algorithm === 'tdes') {
    const k = toBytes(key, { what: 'TDES key', lengths: [16, 24], code: 'CRYPTO_INVALID_KEY' });
    return toHex(tdesEcb(k, Buffer.alloc(8)).subarray(0, length));
  }
  const k = toBytes(key, { what: 'AES key', lengths: [16, 24, 32], code: 'CRYPTO_INVALID_KEY' });
  const full = (options.method ?? 'cmac') === 'cmac' ? aesCmac(k, Buffer.alloc(16)) : aesEcb(k, Buffer.alloc(16));
  return toHex(full.subarray(0, length));
}
