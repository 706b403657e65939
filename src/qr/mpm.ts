import { OmniposError } from '../core/index.js';
import { crc16Hex } from './crc16.js';

/** One EMV MPM data object: two-digit id, value; templates carry their decoded `children`. */
export interface MpmObject {
  readonly id: string;
  readonly value: string;
  readonly children?: readonly MpmObject[];
}

/** What `encodeMpm` takes: a value, or children for a template. */
export interface MpmInput {
  readonly id: string;
  readonly value?: string;
  readonly children?: readonly MpmInput[];
}

/** Ids whose values are templates of data objects (EMV QRCPS-MPM 4.4: 26–51, 62, 64, 80–99). */
export function isTemplateId(id: string): boolean {
  const n = Number(id);
  return (n >= 26 && n <= 51) || n === 62 || n === 64 || n >= 80;
}

/** A QR_INVALID error naming the data object (`26.01: expected 16 digits`). */
export function qrError(id: string, problem: string, context: Record<string, unknown> = {}): OmniposError {
  return new OmniposError('QR_INVALID', `${id}: ${problem}`, { id, ...context });
}

function isTwoDigits(text: string, at: number): boolean {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  return a >= 48 && a <= 57 && b >= 48 && b <= 57;
}

function parseLevel(text: string, start: number, end: number, prefix: string, templates: boolean): MpmObject[] {
  const out: MpmObject[] = [];
  const seen = new Set<string>();
  let i = start;
  while (i < end) {
    const where = prefix === '' ? `offset ${i}` : `${prefix.slice(0, -1)}`;
    if (end - i < 4) throw qrError(where, `truncated data object at offset ${i}`, { offset: i });
    if (!isTwoDigits(text, i)) throw qrError(where, `expected a two-digit id at offset ${i}`, { offset: i });
    const id = text.slice(i, i + 2);
    const name = prefix + id;
    if (!isTwoDigits(text, i + 2))
      throw qrError(name, `expected a two-digit length at offset ${i + 2}`, { offset: i + 2 });
    const len = (text.charCodeAt(i + 2) - 48) * 10 + (text.charCodeAt(i + 3) - 48);
    if (i + 4 + len > end) {
      throw qrError(name, `length ${len} runs past the end (${end - i - 4} characters left)`, {
        offset: i,
        length: len,
      });
    }
    if (seen.has(id)) throw qrError(name, 'appears twice', { offset: i });
    seen.add(id);
    const value = text.slice(i + 4, i + 4 + len);
    if (templates && isTemplateId(id)) {
      out.push({ id, value, children: parseLevel(text, i + 4, i + 4 + len, `${name}.`, false) });
    } else {
      out.push({ id, value });
    }
    i += 4 + len;
  }
  return out;
}

/**
 * Parses an EMV merchant-presented QR payload (two-digit id, two-digit length, value) into its
 * objects, templates one level deep. The payload must start with 00 and end with 63 (length 04)
 * whose CRC-16/CCITT-FALSE over everything before its four digits must match (case-insensitive).
 * Any violation is QR_INVALID naming the object; nothing else is thrown.
 */
export function parseMpm(text: string, options: { checkCrc?: boolean } = {}): MpmObject[] {
  if (typeof text !== 'string') throw qrError('payload', 'expected a string');
  const objects = parseLevel(text, 0, text.length, '', true);
  if (objects.length === 0) throw qrError('00', 'missing: the payload is empty');
  if (objects[0]!.id !== '00')
    throw qrError('00', 'the payload format indicator must come first', { found: objects[0]!.id });
  const last = objects[objects.length - 1]!;
  if (last.id !== '63') throw qrError('63', 'missing: the CRC must be the last data object');
  if (last.value.length !== 4) throw qrError('63', `expected 4 characters, found ${last.value.length}`);
  if (options.checkCrc !== false) {
    const expected = crc16Hex(text.slice(0, text.length - 4));
    const found = last.value.toUpperCase();
    if (expected !== found)
      throw qrError('63', `CRC mismatch: expected ${expected}, found ${last.value}`, { expected, found: last.value });
  }
  return objects;
}

function encodeLevel(objects: readonly MpmInput[], prefix: string): string {
  let s = '';
  for (const o of objects) {
    const name = prefix + o.id;
    if (o.id.length !== 2 || !isTwoDigits(o.id, 0)) throw qrError(name, 'expected a two-digit id');
    const value = o.children ? encodeLevel(o.children, `${name}.`) : (o.value ?? '');
    if (value.length > 99)
      throw qrError(name, `value of ${value.length} characters exceeds 99`, { length: value.length });
    s += o.id + (value.length < 10 ? '0' : '') + String(value.length) + value;
  }
  return s;
}

/** Encodes objects (any 63 given is dropped) and appends object 63 with the CRC. */
export function encodeMpm(objects: readonly MpmInput[]): string {
  const body = encodeLevel(objects.some((o) => o.id === '63') ? objects.filter((o) => o.id !== '63') : objects, '');
  const head = `${body}6304`;
  return head + crc16Hex(head);
}

/** The object with `id` at this level, or undefined. */
export function mpmChild(objects: readonly MpmObject[] | undefined, id: string): MpmObject | undefined {
  return objects?.find((o) => o.id === id);
}
