import { concat } from './bytes.js';
import type { FieldSpec, Layout } from '../../../tables/pinpad/formats.js';
import { PinpadError } from '../errors.js';
import { decodeField, encodeField, type FieldValue } from './fields.js';

export type LayoutValues = Readonly<Record<string, FieldValue | undefined>>;

/** Encodes a fixed-field block from values by name; optional trailing fields may be left out. */
export function encodeLayout(layout: Layout, values: LayoutValues, opts: { allowCr?: boolean } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const spec of layout) {
    const v = values[spec.name];
    if (v === undefined) {
      if (spec.optional) continue;
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${spec.name}: missing`, { field: spec.name });
    }
    parts.push(encodeField(spec, v, opts));
  }
  return concat(parts);
}

function fixedTail(layout: Layout, from: number): number {
  let n = 0;
  for (const f of layout.slice(from)) if (!f.optional) n += f.length;
  return n;
}

/**
 * Decodes a fixed-field block (a response of `where`). The block must hold every field exactly:
 * short or long blocks are a PINPAD_PROTOCOL error naming the field and offset.
 */
export function decodeLayout(layout: Layout, block: Uint8Array, where: string): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  let at = 0;
  layout.forEach((spec: FieldSpec, i) => {
    const left = block.length - at;
    if (spec.optional && left === 0) return;
    let len = spec.length;
    if (spec.variable) {
      if (spec.lengthFrom !== undefined) {
        const declared = Number(out[spec.lengthFrom]);
        if (!Number.isInteger(declared) || declared > spec.length) {
          throw new PinpadError(
            'PINPAD_PROTOCOL',
            `${where}: ${spec.lengthFrom} ${String(out[spec.lengthFrom])} is not a length up to ${spec.length}`,
            {
              where,
              field: spec.lengthFrom,
            },
          );
        }
        len = declared;
      } else len = Math.min(spec.length, left - fixedTail(layout, i + 1));
    }
    if (len < 0 || left < len) {
      throw new PinpadError(
        'PINPAD_PROTOCOL',
        `${where}: ${spec.name} needs ${len} bytes at offset ${at}, ${left} left`,
        {
          where,
          field: spec.name,
          offset: at,
        },
      );
    }
    out[spec.name] = decodeField(spec, block.subarray(at, at + len));
    at += len;
  });
  if (at !== block.length) {
    throw new PinpadError(
      'PINPAD_PROTOCOL',
      `${where}: ${block.length - at} bytes after the last field (block of ${block.length}, layout of ${at})`,
      {
        where,
        offset: at,
      },
    );
  }
  return out;
}
