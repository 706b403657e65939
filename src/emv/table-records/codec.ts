import { createHash } from 'node:crypto';
import { OmniposError } from '../../core/index.js';
import {
  AID_LENGTHS,
  BODIES,
  HEADER,
  TABLE_IDS,
  layoutLength,
  type FieldFormat,
  type FieldLayout,
  type RecordKind,
} from './layouts.js';

/** One §4.1 record: its header, its fields by name (as the record spells them), and the exact text TLR sends. */
export interface TableRecord {
  readonly kind: RecordKind;
  /** TAB_LEN. */
  readonly length: number;
  /** TAB_ACQ, two digits. */
  readonly acquirer: string;
  /** TAB_RECIDX, two characters 01–ZZ. */
  readonly index: string;
  readonly fields: Readonly<Record<string, string>>;
  /** The record as the pinpad receives it in `TLR` (TAB_LEN included). */
  readonly raw: string;
}

const FORMAT: Readonly<Record<FieldFormat, RegExp>> = {
  N: /^[0-9]*$/,
  H: /^[0-9A-F]*$/,
  A: /^[\x20-\x7E]*$/,
  S: /^[\x20-\x7E]*$/,
};
const FORMAT_NAME: Readonly<Record<FieldFormat, string>> = {
  N: 'digits',
  H: 'upper-case hex digits',
  A: 'printable characters',
  S: 'printable characters',
};

function fail(where: string, field: string, message: string, offset?: number): OmniposError {
  return new OmniposError('INIT_RECORD_INVALID', `${where}.${field}: ${message}`, {
    where,
    field,
    ...(offset === undefined ? {} : { offset }),
  });
}

function kindOf(id: string): RecordKind | undefined {
  return (Object.keys(TABLE_IDS) as RecordKind[]).find((k) => String(TABLE_IDS[k]) === id);
}

function readFields(
  text: string,
  start: number,
  layout: readonly FieldLayout[],
  where: string,
  out: Record<string, string>,
): number {
  let at = start;
  for (const f of layout) {
    const value = text.slice(at, at + f.size);
    if (value.length < f.size)
      throw fail(where, f.name, `record ends at ${text.length}, the field needs ${f.size} characters from ${at}`, at);
    if (!FORMAT[f.format].test(value))
      throw fail(where, f.name, `expected ${f.size} ${FORMAT_NAME[f.format]}, got ${JSON.stringify(value)}`, at);
    out[f.name] = value;
    at += f.size;
  }
  return at;
}

function sha1Hex(hex: string): string {
  return createHash('sha1').update(Buffer.from(hex, 'hex')).digest('hex').toUpperCase();
}

/** The §4.1.2 check sum: SHA-1 over RID, CA key index, modulus and exponent (EMV Book 2, 5.5 / 11.2.2). */
export function capkChecksum(rid: string, index: string, modulus: string, exponent: string): string {
  return sha1Hex(rid + index + modulus + exponent);
}

function checkAid(fields: Record<string, string>, length: number, where: string): void {
  if (length < AID_LENGTHS[0])
    throw fail(
      where,
      'TAB_LEN',
      `an AID record has 284, 314 or 340 characters (more for future versions), got ${length}`,
    );
  const aidLen = Number(fields.T1_AIDLEN);
  if (aidLen < 5 || aidLen > 16) throw fail(where, 'T1_AIDLEN', `expected 05 to 16 bytes, got ${fields.T1_AIDLEN}`);
  if (fields.T1_ICCSTD !== '03') throw fail(where, 'T1_ICCSTD', `expected "03" (EMV), got ${fields.T1_ICCSTD}`);
}

function checkCapk(fields: Record<string, string>, where: string): void {
  const expLen = Number(fields.T2_EXPLEN);
  if (expLen !== 1 && expLen !== 3) throw fail(where, 'T2_EXPLEN', `expected 1 or 3, got ${fields.T2_EXPLEN}`);
  const modLen = Number(fields.T2_MODLEN);
  if (modLen < 1 || modLen > 248) throw fail(where, 'T2_MODLEN', `expected 001 to 248 bytes, got ${fields.T2_MODLEN}`);
  const stat = fields.T2_CHKSTAT;
  if (stat !== '0' && stat !== '1') throw fail(where, 'T2_CHKSTAT', `expected 0 or 1, got ${stat}`);
  if (stat === '1') {
    const want = capkChecksum(
      fields.T2_RID ?? '',
      fields.T2_CAPKIDX ?? '',
      (fields.T2_MOD ?? '').slice(0, modLen * 2),
      (fields.T2_EXP ?? '').slice(0, expLen * 2),
    );
    if (want !== fields.T2_CHECKSUM)
      throw fail(where, 'T2_CHECKSUM', `does not match the key (SHA-1 of RID, index, modulus and exponent is ${want})`);
  }
}

/**
 * Decodes one §4.1 record (starting at its TAB_LEN) and checks it: formats of every field, AID
 * length and standard, CA key exponent and modulus sizes and check sum. `where` names it in errors,
 * e.g. `AidParameters[2]`. Throws INIT_RECORD_INVALID, nothing else.
 */
export function decodeRecord(text: string, where = 'record'): TableRecord {
  const header: Record<string, string> = {};
  readFields(text, 0, HEADER, where, header);
  const length = Number(header.TAB_LEN);
  const kind = kindOf(header.TAB_ID ?? '');
  if (!kind)
    throw fail(where, 'TAB_ID', `expected 1 (AID), 2 (CA key) or 3 (revoked certificate), got ${header.TAB_ID}`, 3);
  if (!/^[0-9A-Z]{2}$/.test(header.TAB_RECIDX ?? '') || header.TAB_RECIDX === '00')
    throw fail(where, 'TAB_RECIDX', `expected 01 to ZZ, got ${JSON.stringify(header.TAB_RECIDX)}`, 6);
  if (kind !== 'capk' && header.TAB_ACQ === '00')
    throw fail(where, 'TAB_ACQ', 'expected 01 to 99 (00 is only for merged CA keys)', 4);
  const body = BODIES[kind];
  const fixed = HEADER.reduce((n, f) => n + f.size, 0) + layoutLength(body);
  if (kind !== 'aid' && length !== fixed)
    throw fail(
      where,
      'TAB_LEN',
      `a ${kind === 'capk' ? 'CA key' : 'revoked certificate'} record has ${fixed} characters, got ${length}`,
    );
  if (text.length < length) throw fail(where, 'TAB_LEN', `says ${length} characters, only ${text.length} remain`);
  const raw = text.slice(0, length);
  const fields: Record<string, string> = {};
  let at = 8;
  for (const f of body) {
    if (at + f.size > length) break; // older AID layouts end early
    at = readFields(raw, at, [f], where, fields);
  }
  if (kind === 'aid') {
    if (!AID_LENGTHS.includes(length as (typeof AID_LENGTHS)[number]) && length < 340)
      throw fail(
        where,
        'TAB_LEN',
        `an AID record has 284, 314 or 340 characters (more for future versions), got ${length}`,
      );
    checkAid(fields, length, where);
  } else if (kind === 'capk') checkCapk(fields, where);
  return { kind, length, acquirer: header.TAB_ACQ ?? '', index: header.TAB_RECIDX ?? '', fields, raw };
}

/**
 * Splits the concatenated records of `AidParameters` or `PublicKeys` (each begins with its TAB_LEN;
 * line breaks between records are ignored) and decodes each. `name` names the member in errors.
 */
export function decodeRecords(text: string, name: string): TableRecord[] {
  const out: TableRecord[] = [];
  let at = 0;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === 10 || c === 13) {
      at++;
      continue;
    }
    const where = `${name}[${out.length}]`;
    const rest = text.slice(at);
    const len = /^\d{3}/.test(rest) ? Number(rest.slice(0, 3)) : NaN;
    if (!(len >= 8))
      throw new OmniposError('INIT_RECORD_INVALID', `${where}.TAB_LEN: expected 3 digits at offset ${at}`, {
        where,
        field: 'TAB_LEN',
        offset: at,
      });
    try {
      out.push(decodeRecord(rest, where));
    } catch (e) {
      if (e instanceof OmniposError)
        throw new OmniposError(e.code, e.message, { ...e.context, offset: at + Number(e.context.offset ?? 0) });
      throw e;
    }
    at += len;
  }
  return out;
}

/** What `encodeRecord` needs: the header and every body field by name, each exactly its size. */
export interface RecordInput {
  kind: RecordKind;
  acquirer: string;
  index: string;
  /** Every body field, each exactly its size (use `padField` for left-aligned hex and labels). */
  fields: Readonly<Record<string, string>>;
  /** AID records only: 284, 314 or 340 (default 340). */
  length?: number;
}

/** Left-aligns a value in a field of `size`: hex and digits padded with '0', text with spaces. */
export function padField(value: string, size: number, format: FieldFormat): string {
  return value.padEnd(size, format === 'H' || format === 'N' ? '0' : ' ').slice(0, size);
}

/** Builds a record's text from its fields and checks it by decoding it again. */
export function encodeRecord(input: RecordInput): string {
  const body = BODIES[input.kind];
  const fixed = 8 + layoutLength(body);
  const length = input.kind === 'aid' ? (input.length ?? 340) : fixed;
  let text = `${String(length).padStart(3, '0')}${TABLE_IDS[input.kind]}${input.acquirer}${input.index}`;
  for (const f of body) {
    if (text.length + f.size > length) break;
    const v = input.fields[f.name];
    if (v === undefined) throw fail(`${input.kind}:${input.acquirer}${input.index}`, f.name, 'missing');
    if (v.length !== f.size)
      throw fail(
        `${input.kind}:${input.acquirer}${input.index}`,
        f.name,
        `expected ${f.size} characters, got ${v.length}`,
      );
    text += v;
  }
  decodeRecord(text, `${input.kind}:${input.acquirer}${input.index}`);
  return text;
}
