import { isOmniposError } from '../core/index.js';
import { decodeTlv, type TlvObject } from './ber-tlv.js';
import { byteHex, toHex } from './hex.js';
import { tagInfo, type TagInfo } from './tags.js';

/** One object as the CLI and the logs show it. `value` is upper-case hex, or masked card data. */
export interface TlvJson {
  tag: string;
  length: number;
  value: string;
  name?: string;
  masked?: true;
  children?: TlvJson[];
}

/** First 6 and last 4 digits of a PAN; shorter or odd values are hidden whole. */
export function maskPanDigits(digits: string): string {
  if (digits.length < 13 || !/^\d+$/.test(digits)) return '*'.repeat(digits.length);
  return digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
}

function maskTrack2(hex: string): string {
  const sep = hex.indexOf('D');
  if (sep < 0) return '*'.repeat(hex.length);
  return maskPanDigits(hex.slice(0, sep)) + 'D' + '*'.repeat(hex.length - sep - 1);
}

/** The value as it may be shown: hex, or for card-data tags the masked form. */
export function shownValue(tag: string, value: Uint8Array, info: TagInfo | undefined = tagInfo(tag)): string {
  const hex = toHex(value);
  switch (info?.mask) {
    case undefined:
      return hex;
    case 'pan':
      return maskPanDigits(hex.replace(/F+$/, ''));
    case 'track2':
      return maskTrack2(hex);
    case 'all':
      return '*'.repeat(hex.length);
  }
}

function lengthHex(n: number): string {
  if (n < 0x80) return byteHex(n);
  let h = '';
  for (let v = n; v > 0; v = Math.floor(v / 256)) h = byteHex(v & 0xff) + h;
  return byteHex(0x80 | (h.length / 2)) + h;
}

/** A constructed value re-encoded from its children with their masked values (padding dropped). */
function shownChildren(children: readonly TlvObject[]): string {
  let s = '';
  for (const c of children) {
    s += c.tag + lengthHex(c.value.length) + (c.children ? shownChildren(c.children) : shownValue(c.tag, c.value));
  }
  return s;
}

/**
 * Decoded objects as JSON for people and machines, card data masked by tag (5A, 57, 56,
 * 5F20, 9F0B, 9F6B, 99, and 9F1F, 9F20, 9F5E which hold track or PAN digits) unless `reveal`
 * is set; a template's `value` is rebuilt from its masked children.
 */
export function tlvToJson(objects: readonly TlvObject[], options: { reveal?: boolean } = {}): TlvJson[] {
  return objects.map((o) => {
    const info = tagInfo(o.tag);
    const out: TlvJson = { tag: o.tag, length: o.value.length, value: '' };
    out.value = options.reveal
      ? toHex(o.value)
      : o.children
        ? shownChildren(o.children)
        : shownValue(o.tag, o.value, info);
    if (info) out.name = info.name;
    if (!options.reveal && info && 'mask' in info && info.mask !== undefined) out.masked = true;
    if (o.children) out.children = tlvToJson(o.children, options);
    return out;
  });
}

function printable(value: Uint8Array): string | undefined {
  let s = '';
  for (const b of value) {
    if (b < 0x20 || b > 0x7e) return undefined;
    s += String.fromCharCode(b);
  }
  return s;
}

function dumpLines(objects: readonly TlvObject[], indent: string, lines: string[]): void {
  for (const o of objects) {
    const info = tagInfo(o.tag);
    const head = `${indent}${o.tag}${info ? ` ${info.name}` : ''} (${o.value.length})`;
    if (o.children) {
      lines.push(head);
      dumpLines(o.children, `${indent}  `, lines);
      continue;
    }
    const shown = shownValue(o.tag, o.value, info);
    const text =
      info?.mask === undefined && info && ['a', 'an', 'ans'].includes(info.format) ? printable(o.value) : undefined;
    lines.push(`${head}: ${shown}${text !== undefined ? ` "${text}"` : ''}`);
  }
}

/**
 * A readable, indented dump of BER-TLV data, safe for logs: card data is masked by tag. Bad
 * input gives one line naming the problem and its offset (never the bytes), not an exception.
 */
export function dumpTlv(input: Uint8Array | string | readonly TlvObject[]): string {
  let objects: readonly TlvObject[];
  try {
    objects = typeof input === 'string' || input instanceof Uint8Array ? decodeTlv(input) : input;
  } catch (e) {
    if (isOmniposError(e)) return `invalid TLV: ${e.message}`;
    throw e;
  }
  const lines: string[] = [];
  dumpLines(objects, '', lines);
  return lines.join('\n');
}
