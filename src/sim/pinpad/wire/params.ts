import { simId, simIdByName, type SimId } from '../spec/ids.js';
import { CONTENT_RULES, CR_IN_TEXT, SIM_COMMAND_PARAMS, type SimCommandParams } from '../spec/params.js';
import { fitsFormat, readField, writeField, type FieldValue } from './fields.js';

/**
 * The pinpad's reading of an "Abecs" command's parameters (ABECS 2.20 §3.1.3.1, §6.2.2): every
 * block is a run of CMD_PARID (X2), CMD_PARLEN (X2, at most 995) and the value, with nothing left
 * over; each parameter the command takes must fit its format and length (§1.3, §3.1.3.1's list);
 * mandatory ones must be there. Unknown or unforeseen parameters are ignored; a repeat keeps the
 * first value unless the command repeats it (MNU, MLR).
 */
export interface ParamSet {
  get(name: string): FieldValue | undefined;
  all(name: string): FieldValue[];
  has(name: string): boolean;
}

/** Why the pinpad refuses the parameters: ST_INVPARM for the first three, ST_MANDAT for `missing`. */
export type ParamFault =
  | { readonly kind: 'structure'; readonly block: number; readonly offset: number }
  | { readonly kind: 'format'; readonly name: string }
  | { readonly kind: 'length'; readonly name: string; readonly got: number }
  | { readonly kind: 'missing'; readonly name: string };

/** Largest CMD_PARLEN (§3.1.3.1: "até 995 (03E3h)"). */
export const MAX_PARLEN = 995;

function commandParams(id: string): SimCommandParams | undefined {
  return SIM_COMMAND_PARAMS.get(id);
}

/** Splits blocks into raw (id, value) pairs; a structural fault says where. */
export function splitParams(blocks: readonly Uint8Array[]): { id: number; value: Uint8Array }[] | ParamFault {
  const out: { id: number; value: Uint8Array }[] = [];
  for (let bi = 0; bi < blocks.length; bi++) {
    const block = blocks[bi]!;
    let at = 0;
    while (at < block.length) {
      if (at + 4 > block.length) return { kind: 'structure', block: bi + 1, offset: at };
      const id = (block[at]! << 8) | block[at + 1]!;
      const len = (block[at + 2]! << 8) | block[at + 3]!;
      if (len > MAX_PARLEN || at + 4 + len > block.length) return { kind: 'structure', block: bi + 1, offset: at };
      out.push({ id, value: block.subarray(at + 4, at + 4 + len) });
      at += 4 + len;
    }
  }
  return out;
}

function check(def: SimId, value: Uint8Array, robust: boolean): ParamFault | undefined {
  if (robust) return undefined; // the command takes it whatever it holds (§6.5.1, §6.5.12, §6.6.1)
  const pattern = CONTENT_RULES[def.name];
  if (pattern)
    return pattern.test(Buffer.from(value).toString('latin1')) ? undefined : { kind: 'format', name: def.name };
  if (def.variable ? value.length > def.length : value.length !== def.length)
    return { kind: 'length', name: def.name, got: value.length };
  if (def.format === 'H' && value.length % 2 !== 0) return { kind: 'length', name: def.name, got: value.length };
  if (!fitsFormat(def.format, value, CR_IN_TEXT.has(def.name))) return { kind: 'format', name: def.name };
  return undefined;
}

/**
 * Reads the parameters of command `id` (one of SIM_COMMAND_PARAMS). Without a table entry every
 * known parameter is checked and kept (a command this file does not describe yet).
 */
export function readParams(id: string, blocks: readonly Uint8Array[]): ParamSet | ParamFault {
  const raw = splitParams(blocks);
  if (!Array.isArray(raw)) return raw;
  const table = commandParams(id);
  const values = new Map<string, FieldValue[]>();
  const lazy = new Map<string, ParamFault>();
  for (const p of raw) {
    const def = simId(p.id);
    if (!def || def.id >= 0x8000) continue; // unknown, or a PP_ datum: not a parameter
    if (table && !table.params.has(def.name)) continue; // not foreseen for this command: ignored
    const list = values.get(def.name) ?? [];
    if (list.length > 0 && !(table?.repeats.has(def.name) ?? false)) continue; // first value wins, the rest ignored (§6.2.2)
    const fault = check(def, p.value, table?.robust.has(def.name) ?? false);
    if (fault) {
      // an MD parameter is checked when the situation needs it (the handler reads it): the PPC930 of
      // the public log takes a GOX whose SPE_WKENC (B16) has 8 bytes with SPE_MTHDPIN "3" (DUKPT)
      if (table?.params.get(def.name) === 'MD') {
        lazy.set(def.name, fault);
        continue;
      }
      return fault;
    }
    list.push(readField(def.format, p.value));
    values.set(def.name, list);
  }
  if (table) {
    for (const [name, presence] of table.params)
      if (presence === 'M' && !values.has(name)) return { kind: 'missing', name };
  }
  const use = (name: string): void => {
    const f = lazy.get(name);
    if (f) throw new ParamFaultError(f);
  };
  return {
    get: (name) => (use(name), values.get(name)?.[0]),
    all: (name) => (use(name), values.get(name) ?? []),
    has: (name) => values.has(name) || lazy.has(name),
  };
}

/** Thrown by ParamSet.get for an MD parameter that was sent malformed and is now needed. */
export class ParamFaultError extends Error {
  constructor(readonly fault: ParamFault) {
    super(`${fault.kind} ${'name' in fault ? fault.name : ''}`);
  }
}

export function isParamFault(x: unknown): x is ParamFault {
  return typeof x === 'object' && x !== null && 'kind' in x;
}

/** The status for a fault: ST_MANDAT (19) for a missing parameter, ST_INVPARM (11) otherwise. */
export function faultStatus(f: ParamFault): number {
  return f.kind === 'missing' ? 19 : 11;
}

/** One datum of an answer, by name: PARID, PARLEN and the value written to its format (§3.1.3.2). */
export function writeDatum(name: string, value: FieldValue): Uint8Array {
  const def = simIdByName(name);
  if (!def) throw new RangeError(`${name} is not an ABECS id`);
  const v = writeField(def, value, { maskedDigits: name === 'PP_PAN', cr: CR_IN_TEXT.has(name) });
  return writeRawDatum(def.id, v);
}

/** A datum with its bytes as given (a 2.12 id, a datum of another version). */
export function writeRawDatum(id: number, value: Uint8Array): Uint8Array {
  if (value.length > MAX_PARLEN)
    throw new RangeError(`datum ${id.toString(16)}h: ${value.length} bytes exceed ${MAX_PARLEN}`);
  const out = new Uint8Array(4 + value.length);
  out[0] = id >> 8;
  out[1] = id & 0xff;
  out[2] = value.length >> 8;
  out[3] = value.length & 0xff;
  out.set(value, 4);
  return out;
}

/** Packs data into answer blocks of at most 999 bytes; a datum never spans two (§3.1.3.2). */
export function packBlocks(data: readonly Uint8Array[]): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  let cur: Uint8Array[] = [];
  let size = 0;
  for (const d of data) {
    if (size + d.length > 999 && cur.length > 0) {
      blocks.push(Buffer.concat(cur));
      cur = [];
      size = 0;
    }
    cur.push(d);
    size += d.length;
  }
  if (cur.length > 0) blocks.push(Uint8Array.from(Buffer.concat(cur)));
  return blocks.map((b) => Uint8Array.from(b));
}
