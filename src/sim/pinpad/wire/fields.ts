import type { FieldFormat } from '../spec/formats.js';

/**
 * The field formats of ABECS 2.20 §1.3, checked byte by byte as the pinpad receives them, and
 * written as the pinpad sends them. A: 20h..7Eh; S: 20h..FFh (§7.3.2); N: 30h..39h; H: 0-9, A-F,
 * a-f; X: a binary number, most significant byte first; B: any byte.
 */
export type FieldValue = string | number | Uint8Array;

/** True when every byte of `bytes` belongs to `format` (`cr` admits 0Dh in S text). */
export function fitsFormat(format: FieldFormat, bytes: Uint8Array, cr = false): boolean {
  for (const b of bytes) {
    switch (format) {
      case 'A':
        if (b < 0x20 || b > 0x7e) return false;
        break;
      case 'S':
        if (b < 0x20 && !(cr && b === 0x0d)) return false;
        break;
      case 'N':
        if (b < 0x30 || b > 0x39) return false;
        break;
      case 'H':
        if (!((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66))) return false;
        break;
      default:
        break;
    }
  }
  return true;
}

/** A received field's value: text for A/S/N/H (as sent, padding kept), a number for X, bytes for B. */
export function readField(format: FieldFormat, bytes: Uint8Array): FieldValue {
  if (format === 'B') return Uint8Array.from(bytes);
  if (format === 'X') {
    let v = 0;
    for (const b of bytes) v = v * 256 + b;
    return v;
  }
  return Buffer.from(bytes).toString('latin1');
}

/** The spec of a field to write: format, (maximum) length, variable or fixed. */
export interface WriteSpec {
  readonly name: string;
  readonly format: FieldFormat;
  readonly length: number;
  readonly variable?: boolean;
}

/**
 * Writes a field the pinpad sends: fixed fields padded as §1.3 says (A/S left aligned with spaces,
 * N/H right aligned with zeros, X as a big-endian number); variable fields at their own length.
 * A value that does not fit its format or length is a bug in the virtual pinpad: it throws.
 */
export function writeField(
  spec: WriteSpec,
  value: FieldValue,
  opts: { cr?: boolean; maskedDigits?: boolean } = {},
): Uint8Array {
  const bad = (why: string): RangeError => new RangeError(`${spec.name}: ${why}`);
  if (spec.format === 'X') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value >= 2 ** (8 * spec.length))
      throw bad(`not an X${spec.length} number`);
    const out = new Uint8Array(spec.length);
    let v = value;
    for (let i = spec.length - 1; i >= 0; i--) {
      out[i] = v % 256;
      v = Math.floor(v / 256);
    }
    return out;
  }
  let bytes: Uint8Array;
  if (value instanceof Uint8Array) bytes = value;
  else {
    const text = String(value);
    bytes = Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
    if ([...text].some((c) => c.charCodeAt(0) > 0xff)) throw bad('not Latin-1');
  }
  // a masked PAN ('*' in an N field, §5.4.1) is the one exception the specification makes to N
  const check =
    opts.maskedDigits && spec.format === 'N'
      ? bytes.every((b) => (b >= 0x30 && b <= 0x39) || b === 0x2a)
      : fitsFormat(spec.format, bytes, opts.cr);
  if (!check) throw bad(`bytes outside format ${spec.format}`);
  if (bytes.length > spec.length) throw bad(`${bytes.length} bytes exceed ${spec.length}`);
  if (spec.variable || bytes.length === spec.length || spec.format === 'B') {
    if (!spec.variable && bytes.length !== spec.length) throw bad(`expected ${spec.length} bytes, got ${bytes.length}`);
    return Uint8Array.from(bytes);
  }
  const out = new Uint8Array(spec.length);
  if (spec.format === 'A' || spec.format === 'S') {
    out.fill(0x20);
    out.set(bytes, 0);
  } else {
    out.fill(0x30);
    out.set(bytes, spec.length - bytes.length);
  }
  return out;
}
