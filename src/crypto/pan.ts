/**
 * Card numbers shown and stored: masking (at most the first 6 and last 4, PCI DSS 3.4.1) and a keyed hash
 * (HMAC-SHA256) that lets records be matched without holding the PAN.
 */
import { createHmac } from 'node:crypto';
import { OmniposError } from '../core/index.js';
import { toBytes, type BytesLike } from './bytes.js';

/** Characters a pinpad uses for digits it hides (`SPE_PANMASK`). */
const MASKED = /^[0-9*Xx#]+$/;

/**
 * The PAN with every digit hidden but the first 6 and last 4 (`411111******1111`); numbers shorter than 13
 * characters keep only the last 4. Accepts a PAN the pinpad already masked (first 8, last 4).
 */
export function maskPan(pan: string, mask = '*'): string {
  if (typeof pan !== 'string' || !MASKED.test(pan) || pan.length < 8 || pan.length > 19) {
    throw new OmniposError('CODEC_INVALID_INPUT', 'PAN: expected 8 to 19 digits (or mask characters)', {
      what: 'PAN',
      length: typeof pan === 'string' ? pan.length : undefined,
    });
  }
  const head = pan.length >= 13 ? 6 : 0;
  return pan.slice(0, head) + mask.repeat(pan.length - head - 4) + pan.slice(-4);
}

/** HMAC-SHA256 of the PAN's digits under a key of at least 16 bytes, as upper-case hex. */
export function panHash(key: BytesLike, pan: string): string {
  const k = toBytes(key, { what: 'PAN hash key', code: 'CRYPTO_INVALID_KEY' });
  if (k.length < 16) {
    throw new OmniposError('CRYPTO_INVALID_KEY', `PAN hash key: expected at least 16 bytes, got ${k.length}`, {
      length: k.length,
    });
  }
  if (typeof pan !== 'string' || !/^\d{8,19}$/.test(pan)) {
    throw new OmniposError('CODEC_INVALID_INPUT', 'PAN: expected 8 to 19 digits', { what: 'PAN' });
  }
  return createHmac('sha256', k).update(pan, 'ascii').digest('hex').toUpperCase();
}
