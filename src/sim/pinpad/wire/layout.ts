import type { Layout } from '../spec/formats.js';
import { fitsFormat, readField, writeField, type FieldValue } from './fields.js';

/** Why a fixed-field block is refused (the pinpad answers ST_INVPARM). */
export interface LayoutFault {
  readonly kind: 'layout';
  readonly name: string;
  readonly why: 'short' | 'long' | 'format' | 'length-field';
}

/**
 * Reads a fixed-field ("classic") block as the pinpad does: every field at its length and in its
 * format (§1.3), a variable field at the length an earlier N field declares, optional trailing
 * fields left out only at the end, nothing after the last field. `anyText` names fields whose
 * characters the command's own rules accept whatever they are (DEX_MSG: "qualquer caractere menor
 * do que 20h ... quebra de linha", §6.5.4).
 */
export function readLayout(
  layout: Layout,
  block: Uint8Array,
  anyText: readonly string[] = [],
): Record<string, FieldValue> | LayoutFault {
  const out: Record<string, FieldValue> = {};
  let at = 0;
  for (let i = 0; i < layout.length; i++) {
    const spec = layout[i]!;
    const left = block.length - at;
    if (spec.optional && left === 0) break;
    let len = spec.length;
    if (spec.variable) {
      if (spec.lengthFrom !== undefined) {
        const declared = Number(out[spec.lengthFrom]);
        if (!Number.isInteger(declared) || declared > spec.length)
          return { kind: 'layout', name: spec.lengthFrom, why: 'length-field' };
        len = declared;
      } else {
        let tail = 0;
        for (const f of layout.slice(i + 1)) if (!f.optional) tail += f.length;
        len = Math.min(spec.length, left - tail);
      }
    }
    if (len < 0 || left < len) return { kind: 'layout', name: spec.name, why: 'short' };
    const bytes = block.subarray(at, at + len);
    if (!anyText.includes(spec.name) && !fitsFormat(spec.format, bytes))
      return { kind: 'layout', name: spec.name, why: 'format' };
    out[spec.name] = readField(spec.format, bytes);
    at += len;
  }
  if (at !== block.length) return { kind: 'layout', name: layout[layout.length - 1]?.name ?? '', why: 'long' };
  return out;
}

export function isLayoutFault(x: unknown): x is LayoutFault {
  return typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'layout';
}

/** Writes a fixed-field answer block from values by name (optional trailing fields may be left out). */
export function writeLayout(layout: Layout, values: Readonly<Record<string, FieldValue | undefined>>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const spec of layout) {
    const v = values[spec.name];
    if (v === undefined) {
      if (spec.optional) continue;
      throw new RangeError(`${spec.name}: missing`);
    }
    parts.push(writeField(spec, v));
  }
  return Uint8Array.from(Buffer.concat(parts));
}
