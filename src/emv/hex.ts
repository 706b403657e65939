import { OmniposError } from '../core/index.js';

const HEX_OF_BYTE: readonly string[] = Array.from({ length: 256 }, (_, b) =>
  b.toString(16).toUpperCase().padStart(2, '0'),
);

/** Nibble value of a hex digit's char code, or -1. */
function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** Upper-case hex of `bytes[start, end)`. */
export function toHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = '';
  for (let i = start; i < end; i++) s += HEX_OF_BYTE[bytes[i]!]!;
  return s;
}

/** Upper-case hex of one byte. */
export function byteHex(b: number): string {
  return HEX_OF_BYTE[b & 0xff]!;
}

/**
 * Bytes of a hex string. Spaces, tabs and newlines are ignored (technicians paste dumps);
 * anything else that is not a hex digit, or an odd digit count, is TLV_INVALID naming the offset.
 */
export function fromHex(hex: string, code: 'TLV_INVALID' | 'CODEC_INVALID_INPUT' = 'TLV_INVALID'): Uint8Array {
  const clean = /\s/.test(hex) ? hex.replace(/\s+/g, '') : hex;
  if (clean.length % 2 !== 0) {
    throw new OmniposError(code, `hex: odd number of digits (${clean.length})`, { length: clean.length });
  }
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(clean.charCodeAt(2 * i));
    const lo = nibble(clean.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) {
      const at = hi < 0 ? 2 * i : 2 * i + 1;
      throw new OmniposError(code, `hex: character ${at} is not a hex digit`, { offset: at });
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}
