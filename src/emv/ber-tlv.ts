import { OmniposError } from '../core/index.js';
import { byteHex, fromHex } from './hex.js';

/**
 * One BER-TLV data object as decoded. `value` is a view into the decoded buffer (no copy);
 * a constructed object (bit 6 of the first tag byte set) also carries its decoded `children`.
 */
export interface TlvObject {
  /** Upper-case hex of the tag bytes, e.g. `9F02`. */
  readonly tag: string;
  readonly value: Uint8Array;
  readonly children?: readonly TlvObject[];
}

/** What `encodeTlv` takes: a primitive with `value` (bytes or hex), or a constructed object with `children`. */
export interface TlvInput {
  readonly tag: string;
  readonly value?: Uint8Array | string;
  readonly children?: readonly TlvInput[];
}

/** Tags longer than this are refused (EMV uses at most 3 bytes). */
export const MAX_TAG_BYTES = 4;
/** Length fields longer than 1 + this are refused (4 bytes of length is 4 GiB). */
export const MAX_LENGTH_BYTES = 4;
/** Constructed objects nested deeper than this are refused (EMV nests 3 or 4 deep). */
export const MAX_DEPTH = 32;

function invalid(message: string, context: Record<string, unknown>): OmniposError {
  return new OmniposError('TLV_INVALID', message, context);
}

function decodeRange(bytes: Uint8Array, start: number, end: number, depth: number): TlvObject[] {
  if (depth > MAX_DEPTH) throw invalid(`offset ${start}: objects nested deeper than ${MAX_DEPTH}`, { offset: start });
  const out: TlvObject[] = [];
  let i = start;
  while (i < end) {
    const first = bytes[i]!;
    // '00' and 'FF' are not tags: padding and fill between objects (ISO 7816-4 5.2.2, EMV Book 3 Annex B).
    if (first === 0x00 || first === 0xff) {
      i++;
      continue;
    }
    const at = i;
    let tag = byteHex(first);
    i++;
    if ((first & 0x1f) === 0x1f) {
      let more = true;
      while (more) {
        if (i >= end) throw invalid(`offset ${at}: tag ${tag}… runs past the end`, { offset: at });
        const b = bytes[i++]!;
        tag += byteHex(b);
        if (tag.length > 2 * MAX_TAG_BYTES) {
          throw invalid(`offset ${at}: tag ${tag}… is longer than ${MAX_TAG_BYTES} bytes`, { offset: at });
        }
        more = (b & 0x80) !== 0;
      }
    }
    if (i >= end) throw invalid(`offset ${at} (tag ${tag}): length missing at the end`, { offset: at, tag });
    let length = bytes[i++]!;
    if (length === 0x80) {
      throw invalid(`offset ${i - 1} (tag ${tag}): indefinite length (80) is not allowed`, { offset: i - 1, tag });
    }
    if (length > 0x80) {
      const n = length & 0x7f;
      if (n > MAX_LENGTH_BYTES) {
        throw invalid(
          `offset ${i - 1} (tag ${tag}): length field of ${n} bytes is too long (at most ${MAX_LENGTH_BYTES})`,
          {
            offset: i - 1,
            tag,
          },
        );
      }
      if (i + n > end)
        throw invalid(`offset ${i - 1} (tag ${tag}): length field runs past the end`, { offset: i - 1, tag });
      length = 0;
      for (let k = 0; k < n; k++) length = length * 256 + bytes[i++]!;
    }
    if (length > end - i) {
      throw invalid(`offset ${at} (tag ${tag}): length ${length} exceeds the ${end - i} bytes left`, {
        offset: at,
        tag,
        length,
        available: end - i,
      });
    }
    const value = bytes.subarray(i, i + length);
    if ((first & 0x20) !== 0) {
      out.push({ tag, value, children: decodeRange(bytes, i, i + length, depth + 1) });
    } else {
      out.push({ tag, value });
    }
    i += length;
  }
  return out;
}

/**
 * Decodes a sequence of BER-TLV objects (EMV Book 3 Annex B): multi-byte tags, short and long
 * lengths, constructed objects decoded recursively. `00` padding and `FF` fill between objects
 * are skipped. Indefinite lengths, length fields over 4 bytes, lengths past the end and
 * truncated tags are TLV_INVALID with the offset; nothing else is ever thrown.
 * A string input is hex (whitespace ignored).
 */
export function decodeTlv(input: Uint8Array | string): TlvObject[] {
  const bytes = typeof input === 'string' ? fromHex(input) : input;
  return decodeRange(bytes, 0, bytes.length, 0);
}

/** The bytes of a tag given as hex, checked to be one well-formed BER tag. */
export function tagBytes(tag: string): Uint8Array {
  let b: Uint8Array;
  try {
    b = fromHex(tag);
  } catch {
    throw invalid(`tag "${tag}": not hex`, { tag });
  }
  const fail = (why: string): OmniposError => invalid(`tag ${tag}: ${why}`, { tag });
  if (b.length === 0) throw fail('empty');
  if (b.length > MAX_TAG_BYTES) throw fail(`longer than ${MAX_TAG_BYTES} bytes`);
  const first = b[0]!;
  if (first === 0x00 || first === 0xff) throw fail('00 and FF are padding, not tags');
  if ((first & 0x1f) !== 0x1f) {
    if (b.length !== 1) throw fail('a one-byte tag (low bits not 1F) cannot have more bytes');
    return b;
  }
  if (b.length < 2) throw fail('low bits 1F announce more tag bytes');
  for (let k = 1; k < b.length; k++) {
    const last = k === b.length - 1;
    if (((b[k]! & 0x80) !== 0) === last) throw fail(last ? 'last byte has bit 8 set' : `byte ${k + 1} lacks bit 8`);
  }
  return b;
}

function lengthBytes(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

function encodeOne(o: TlvInput, chunks: Uint8Array[]): number {
  const tag = tagBytes(o.tag);
  let body: Uint8Array[];
  let size: number;
  if (o.children !== undefined) {
    if ((tag[0]! & 0x20) === 0) throw invalid(`tag ${o.tag}: primitive tag given children`, { tag: o.tag });
    body = [];
    size = 0;
    for (const c of o.children) size += encodeOne(c, body);
  } else {
    const v = o.value === undefined ? new Uint8Array(0) : typeof o.value === 'string' ? fromHex(o.value) : o.value;
    body = [v];
    size = v.length;
  }
  const len = Uint8Array.from(lengthBytes(size));
  chunks.push(tag, len, ...body);
  return tag.length + len.length + size;
}

/**
 * Encodes objects as BER-TLV with minimal (DER-style) lengths. A constructed tag takes
 * `children` (or a raw `value`); a primitive tag takes `value`. A malformed tag is TLV_INVALID.
 */
export function encodeTlv(objects: TlvInput | readonly TlvInput[]): Uint8Array {
  const list = Array.isArray(objects) ? (objects as readonly TlvInput[]) : [objects as TlvInput];
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (const o of list) size += encodeOne(o, chunks);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The first object with `tag` in a depth-first walk, or undefined. */
export function findTlv(objects: readonly TlvObject[], tag: string): TlvObject | undefined {
  const want = tag.toUpperCase();
  for (const o of objects) {
    if (o.tag === want) return o;
    if (o.children) {
      const hit = findTlv(o.children, want);
      if (hit) return hit;
    }
  }
  return undefined;
}
