import type { FieldFormat, FieldSpec } from '../../../tables/pinpad/formats.js';
import { PinpadError } from '../errors.js';

/** A field's value: text for A/S/N/H, a number for X, bytes for B. */
export type FieldValue = string | number | Uint8Array;

function invalid(spec: Pick<FieldSpec, 'name'>, reason: string, extra: Record<string, unknown> = {}): PinpadError {
  return new PinpadError('PINPAD_INVALID_ARGUMENT', `${spec.name}: ${reason}`, { field: spec.name, ...extra });
}

/** Encodes text as ISO 8859-1 (§7.3.2); `allowCr` admits 0Dh (DEX_MSG, SPE_DSPMSG). Rejects what Latin-1 lacks. */
export function latin1(spec: Pick<FieldSpec, 'name' | 'format'>, text: string, allowCr = false): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const max = spec.format === 'A' ? 0x7e : 0xff;
    if ((c < 0x20 && !(allowCr && c === 0x0d)) || c > max) {
      throw invalid(spec, `character ${JSON.stringify(text[i])} at ${i} is outside format ${spec.format}`, {
        position: i,
      });
    }
    out[i] = c;
  }
  return out;
}

/**
 * Encodes one field to exactly its length (or its own length, for a variable field), padding as
 * §1.3 says: A/S left aligned with spaces, N/H/X right aligned with zeros.
 */
export function encodeField(spec: FieldSpec, value: FieldValue, opts: { allowCr?: boolean } = {}): Uint8Array {
  const fmt: FieldFormat = spec.format;
  let bytes: Uint8Array;
  if (fmt === 'B') {
    if (!(value instanceof Uint8Array)) throw invalid(spec, 'expected bytes');
    bytes = value;
  } else if (fmt === 'X') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      throw invalid(spec, 'expected a non-negative integer');
    if (value >= 2 ** (8 * spec.length)) throw invalid(spec, `${value} does not fit in ${spec.length} bytes`);
    bytes = new Uint8Array(spec.length);
    let v = value;
    for (let i = spec.length - 1; i >= 0; i--) {
      bytes[i] = v % 256;
      v = Math.floor(v / 256);
    }
    return bytes;
  } else {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string') throw invalid(spec, 'expected text');
    if (fmt === 'N' && !/^\d*$/.test(text)) throw invalid(spec, `expected digits, got ${JSON.stringify(text)}`);
    if (fmt === 'H' && !/^[0-9A-Fa-f]*$/.test(text)) throw invalid(spec, 'expected hex digits');
    bytes = latin1(spec, text, opts.allowCr);
  }
  if (bytes.length > spec.length)
    throw invalid(spec, `${bytes.length} bytes exceed ${spec.variable ? 'at most ' : ''}${spec.length}`, {
      length: bytes.length,
    });
  if (spec.variable || bytes.length === spec.length) return bytes;
  const out = new Uint8Array(spec.length);
  if (fmt === 'A' || fmt === 'S') {
    out.fill(0x20);
    out.set(bytes, 0);
  } else if (fmt === 'B') {
    throw invalid(spec, `expected ${spec.length} bytes, got ${bytes.length}`);
  } else {
    out.fill(0x30);
    out.set(bytes, spec.length - bytes.length);
  }
  return out;
}

/**
 * Decodes one field. Lenient where pinpads differ in the wild: text is read as Latin-1 whatever
 * its bytes (A/S trimmed of trailing spaces); only lengths are strict (the caller checks them).
 */
export function decodeField(spec: FieldSpec, bytes: Uint8Array): FieldValue {
  switch (spec.format) {
    case 'B':
      return Uint8Array.from(bytes);
    case 'X': {
      let v = 0;
      for (const b of bytes) v = v * 256 + b;
      return v;
    }
    case 'A':
    case 'S':
      return Buffer.from(bytes).toString('latin1').replace(/ +$/, '');
    default:
      return Buffer.from(bytes).toString('latin1');
  }
}
