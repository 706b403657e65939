import { abecsIdByName, type AbecsId } from '../../../../tables/pinpad/abecs-ids.js';
import { CR_ALLOWED, PARAM_PATTERNS } from '../../../../tables/pinpad/command-params.js';
import { PinpadError } from '../../errors.js';
import type { FieldValue } from '../../codec/fields.js';
import type { Response } from '../../codec/message.js';
import { decodeParams, param, paramValue, type Param } from '../../codec/params.js';

/** The definition of a named SPE_/PP_ identifier (a typo is a programming error, caught by the codec tests). */
export function def(name: string): AbecsId {
  const d = abecsIdByName(name);
  if (!d) throw new PinpadError('PINPAD_INVALID_ARGUMENT', `unknown ABECS identifier ${name}`, { field: name });
  return d;
}

/** Builds parameters from (name, value) pairs, skipping undefined values, in the order given. */
export function params(entries: readonly (readonly [string, FieldValue | undefined])[]): Param[] {
  const out: Param[] = [];
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    const d = def(name);
    // a parameter whose content the table narrows (SPE_MFNAME, A8, "letters and digits, no spaces", §3.1.3.1)
    // goes at its own length, never padded; SPE_DSPMSG may hold CR (tables/pinpad/command-params.ts)
    out.push(
      param(Object.hasOwn(PARAM_PATTERNS, name) ? { ...d, variable: true } : d, value, {
        allowCr: CR_ALLOWED.has(name),
      }),
    );
  }
  return out;
}

/** The PP_ data of a response by name (the last one wins; repeats are rare in answers). */
export type Data = ReadonlyMap<string, FieldValue>;

export function readData(rsp: Response, where: string): Data {
  const out = new Map<string, FieldValue>();
  for (const p of decodeParams(rsp.blocks, where)) {
    const v = paramValue(p);
    out.set(v.name, v.value);
  }
  return out;
}

function protocol(where: string, field: string, message: string): PinpadError {
  return new PinpadError('PINPAD_PROTOCOL', `${where}: ${field} ${message}`, { where, field });
}

/** A text datum, or undefined. */
export function text(d: Data, name: string): string | undefined {
  const v = d.get(name);
  if (v === undefined) return undefined;
  return v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : String(v);
}

/** A required text datum matching `re`. */
export function need(d: Data, name: string, where: string, re?: RegExp): string {
  const v = text(d, name);
  if (v === undefined) throw protocol(where, name, 'missing from the response');
  if (re && !re.test(v)) throw protocol(where, name, `is not in the expected format (${v.length} characters)`);
  return v;
}

/** A binary datum, or undefined. */
export function bytes(d: Data, name: string): Uint8Array | undefined {
  const v = d.get(name);
  if (v === undefined) return undefined;
  return v instanceof Uint8Array ? v : Buffer.from(String(v), 'latin1');
}

/** Upper-case hex of bytes. */
export function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex').toUpperCase();
}

/** EMV tags as SPE_TAGLIST bytes: accepts ["9F26", "95"] or bytes. */
export function tagList(tags: readonly string[] | Uint8Array): Uint8Array {
  if (tags instanceof Uint8Array) return tags;
  const joined = tags.join('');
  if (!/^([0-9A-Fa-f]{2})*$/.test(joined))
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'SPE_TAGLIST: tags must be hex', { field: 'SPE_TAGLIST' });
  return Buffer.from(joined, 'hex');
}

/** N-format digits of a number, left-padded. */
export function digits(n: number, size: number, name: string): string {
  if (!Number.isSafeInteger(n) || n < 0 || String(n).length > size)
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${name}: expected 0..${'9'.repeat(size)}, got ${n}`, {
      field: name,
    });
  return String(n).padStart(size, '0');
}

/** An 8-byte CBC IV; throws PINPAD_INVALID_ARGUMENT otherwise. */
export function iv8(iv: Uint8Array, name = 'SPE_IVCBC'): Uint8Array {
  if (iv.length !== 8)
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${name}: expected 8 bytes, got ${iv.length}`, { field: name });
  return iv;
}
