import { concat } from './bytes.js';
import { abecsId, type AbecsId } from '../../../tables/pinpad/abecs-ids.js';
import { PinpadError } from '../errors.js';
import { decodeField, encodeField, type FieldValue } from './fields.js';
import { MAX_BLOCK } from './message.js';

/**
 * The "Abecs" parameter encoding (§3.1.3.1, §3.1.3.2): each parameter is PARID (X2), PARLEN (X2,
 * at most 995) and the value; parameters fill blocks of at most 999 bytes and never span two.
 */
export interface Param {
  readonly id: number;
  readonly value: Uint8Array;
}

/** Largest PARLEN (§3.1.3.1: 995, 03E3h). */
export const MAX_PARLEN = 995;

/** Packs parameters into as few blocks as fit, in order. */
export function encodeParams(params: readonly Param[]): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  let cur: Uint8Array[] = [];
  let size = 0;
  for (const p of params) {
    if (p.value.length > MAX_PARLEN) {
      throw new PinpadError(
        'PINPAD_INVALID_ARGUMENT',
        `parameter ${p.id.toString(16).padStart(4, '0')}h: ${p.value.length} bytes exceed ${MAX_PARLEN}`,
        {
          id: p.id,
        },
      );
    }
    const head = Uint8Array.of(p.id >> 8, p.id & 0xff, p.value.length >> 8, p.value.length & 0xff);
    if (size + 4 + p.value.length > MAX_BLOCK) {
      blocks.push(concat(cur));
      cur = [];
      size = 0;
    }
    cur.push(head, p.value);
    size += 4 + p.value.length;
  }
  if (cur.length > 0) blocks.push(concat(cur));
  return blocks;
}

/** Unpacks the parameters of every block, in order (repeats kept: MNU repeats SPE_MNUOPT). */
export function decodeParams(blocks: readonly Uint8Array[], where: string): Param[] {
  const out: Param[] = [];
  blocks.forEach((block, bi) => {
    let at = 0;
    while (at < block.length) {
      if (at + 4 > block.length) {
        throw new PinpadError(
          'PINPAD_PROTOCOL',
          `${where}: block ${bi + 1} ends inside a parameter header at offset ${at}`,
          { where, block: bi + 1, offset: at },
        );
      }
      const id = (block[at]! << 8) | block[at + 1]!;
      const len = (block[at + 2]! << 8) | block[at + 3]!;
      if (at + 4 + len > block.length) {
        throw new PinpadError(
          'PINPAD_PROTOCOL',
          `${where}: parameter ${id.toString(16).padStart(4, '0')}h at offset ${at} declares ${len} bytes, ${block.length - at - 4} left`,
          {
            where,
            block: bi + 1,
            offset: at,
            id,
          },
        );
      }
      out.push({ id, value: block.subarray(at + 4, at + 4 + len) });
      at += 4 + len;
    }
  });
  return out;
}

/** Encodes a parameter's value by its definition (format and length of §3.1.3.1). */
export function param(def: AbecsId, value: FieldValue, opts: { allowCr?: boolean } = {}): Param {
  return {
    id: def.id,
    value: encodeField({ name: def.name, format: def.format, length: def.length, variable: def.variable }, value, opts),
  };
}

/** Decodes a returned datum by its definition; unknown ids come back as bytes. */
export function paramValue(p: Param): { name: string; value: FieldValue } {
  const def = abecsId(p.id);
  if (!def) return { name: `0x${p.id.toString(16).padStart(4, '0')}`, value: Uint8Array.from(p.value) };
  return {
    name: def.name,
    value: decodeField({ name: def.name, format: def.format, length: def.length, variable: def.variable }, p.value),
  };
}
