import { COMMANDS } from '../../../tables/pinpad/commands.js';
import { ascii, concat } from '../codec/bytes.js';
import { encodeCommand } from '../codec/message.js';
import { blocks, type CommandSpec } from '../commands/spec.js';
import { PinpadError } from '../errors.js';
import { MAX_EXPONENT_BYTES, MODULUS_BYTES } from './rsa.js';

/** One field of the secure OPN (§3.2.2): N digits, or H hex of a byte count an earlier N field gives. */
type OpnField =
  | { readonly name: string; readonly format: 'N'; readonly length: number }
  | {
      readonly name: string;
      readonly format: 'H';
      readonly bytesFrom: string;
      readonly min: number;
      readonly max: number;
    };

/** The secure OPN layouts of §3.2.2, walked by `encodeFields` / `decodeFields`. */
export const SECURE_OPN_LAYOUT = {
  /** Command CMD_BLK1: OPMODE N1 ("0"), MODLEN N3 ("256"), MOD H512, EXPLEN N1, EXP H..6. */
  command: [
    { name: 'OPN_OPMODE', format: 'N', length: 1 },
    { name: 'OPN_MODLEN', format: 'N', length: 3 },
    { name: 'OPN_MOD', format: 'H', bytesFrom: 'OPN_MODLEN', min: MODULUS_BYTES, max: MODULUS_BYTES },
    { name: 'OPN_EXPLEN', format: 'N', length: 1 },
    { name: 'OPN_EXP', format: 'H', bytesFrom: 'OPN_EXPLEN', min: 1, max: MAX_EXPONENT_BYTES },
  ],
  /** Answer RSP_BLK1 of a current ("Abecs") pinpad: CRKSLEN N3 ("256"), CRKSEC H512. */
  answer: [
    { name: 'OPN_CRKSLEN', format: 'N', length: 3 },
    { name: 'OPN_CRKSEC', format: 'H', bytesFrom: 'OPN_CRKSLEN', min: MODULUS_BYTES, max: MODULUS_BYTES },
  ],
} as const satisfies Record<string, readonly OpnField[]>;

type Values = Record<string, number | Uint8Array>;

function encodeFields(layout: readonly OpnField[], v: Values): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const f of layout) {
    const x = v[f.name];
    if (f.format === 'N') {
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || String(x).length > f.length) {
        throw new PinpadError('PINPAD_INVALID_ARGUMENT', `OPN: ${f.name} must be ${f.length} digit(s)`, {
          field: f.name,
        });
      }
      parts.push(ascii(String(x).padStart(f.length, '0')));
    } else {
      if (!(x instanceof Uint8Array) || x.length < f.min || x.length > f.max || v[f.bytesFrom] !== x.length) {
        throw new PinpadError(
          'PINPAD_INVALID_ARGUMENT',
          `OPN: ${f.name} must be ${f.min}..${f.max} bytes, as ${f.bytesFrom} says`,
          { field: f.name },
        );
      }
      parts.push(ascii(Buffer.from(x).toString('hex').toUpperCase()));
    }
  }
  return concat(parts);
}

function decodeFields(layout: readonly OpnField[], block: Uint8Array, where: string): Values {
  const out: Values = {};
  let at = 0;
  const text = (n: number): string => Buffer.from(block.subarray(at, at + n)).toString('latin1');
  for (const f of layout) {
    const fail = (why: string): PinpadError =>
      new PinpadError('PINPAD_PROTOCOL', `${where}: ${f.name} at offset ${at} ${why}`, {
        where,
        field: f.name,
        offset: at,
      });
    if (f.format === 'N') {
      const t = text(f.length);
      if (t.length !== f.length || !/^\d+$/.test(t)) throw fail(`is not ${f.length} digit(s)`);
      out[f.name] = Number(t);
      at += f.length;
    } else {
      const bytes = out[f.bytesFrom] as number;
      if (bytes < f.min || bytes > f.max)
        throw fail(`declares ${bytes} bytes, expected ${f.min === f.max ? f.min : `${f.min}..${f.max}`}`);
      const t = text(2 * bytes);
      if (t.length !== 2 * bytes || !/^[0-9A-Fa-f]*$/.test(t)) throw fail(`is not ${2 * bytes} hex digits`);
      out[f.name] = Uint8Array.from(Buffer.from(t, 'hex'));
      at += 2 * bytes;
    }
  }
  if (at !== block.length)
    throw new PinpadError('PINPAD_PROTOCOL', `${where}: ${block.length - at} bytes after the last field`, {
      where,
      offset: at,
    });
  return out;
}

/** The terminal's public key as a secure OPN carries it (KMOD, KPUB). */
export interface OpnPublicKey {
  readonly modulus: Uint8Array;
  readonly publicExponent: Uint8Array;
}

/** What a secure OPN tells: a current pinpad's CRKSEC, or an obsolete pinpad's bare `OPN000` (§3.2.2). */
export type SecureOpnResult =
  { readonly kind: 'abecs'; readonly cryptogram: Uint8Array } | { readonly kind: 'obsolete' };

/** The command block of a secure OPN (§3.2.2), OPN_OPMODE "0". */
export function encodeSecureOpnBlock(key: OpnPublicKey): Uint8Array {
  return encodeFields(SECURE_OPN_LAYOUT.command, {
    OPN_OPMODE: 0,
    OPN_MODLEN: key.modulus.length,
    OPN_MOD: key.modulus,
    OPN_EXPLEN: key.publicExponent.length,
    OPN_EXP: key.publicExponent,
  });
}

/** The pinpad's side: the command block back to its fields. */
export function decodeSecureOpnBlock(block: Uint8Array): OpnPublicKey & { readonly opMode: number } {
  const v = decodeFields(SECURE_OPN_LAYOUT.command, block, 'OPN');
  return { opMode: v.OPN_OPMODE as number, modulus: v.OPN_MOD as Uint8Array, publicExponent: v.OPN_EXP as Uint8Array };
}

/** The pinpad's side: the answer block carrying CRKSEC. */
export function encodeSecureOpnAnswer(cryptogram: Uint8Array): Uint8Array {
  return encodeFields(SECURE_OPN_LAYOUT.answer, { OPN_CRKSLEN: cryptogram.length, OPN_CRKSEC: cryptogram });
}

/**
 * Secure OPN (§3.2.2): sends KMOD and KPUB; a current pinpad answers CRKSEC (KSEC wrapped under
 * them), an obsolete one answers `OPN000` with no data (no secure channel, no Abecs commands).
 */
export const OPN_SECURE: CommandSpec<OpnPublicKey, SecureOpnResult> = {
  id: 'OPN',
  blocking: COMMANDS.OPN.blocking,
  encode: (key) => encodeCommand('OPN', [encodeSecureOpnBlock(key)]),
  decode: (rsp) => {
    if (rsp.blocks.length === 0) return { kind: 'obsolete' };
    const [block] = blocks(rsp, 1);
    return {
      kind: 'abecs',
      cryptogram: decodeFields(SECURE_OPN_LAYOUT.answer, block!, 'OPN').OPN_CRKSEC as Uint8Array,
    };
  },
};
