/**
 * PIN blocks per ISO 9564-1:2017: formats 0, 1 and 3 (8 bytes, for TDES) and the format 4 PIN and PAN fields
 * (16 bytes, for AES; see pinblock-format4.ts). Each format is a row of data walked by one encoder and one decoder.
 */
import { randomBytes } from 'node:crypto';
import { OmniposError } from '../core/index.js';
import { toBytes, type BytesLike } from './bytes.js';

export type PinBlockFormat = 0 | 1 | 3 | 4;

/** Why a PIN block was refused: the `reason` in the error's context. */
export type PinBlockProblem = 'size' | 'control' | 'length' | 'digit' | 'fill' | 'pan' | 'pin' | 'format';

interface FormatRule {
  /** Bytes of the clear block (format 4: the plaintext PIN field). */
  size: 8 | 16;
  /** Whether the clear block is XORed with a PAN field (4 binds the PAN during encryption instead). */
  panBound: boolean;
  /** Nibble values allowed after the PIN, up to nibble 16. */
  fill: 'F' | 'any' | 'A-F' | 'A';
  /** Random nibbles after the first 16 (format 4's second half). */
  randomTail: number;
}

/** The layout of each format (ISO 9564-1:2017 9.3). */
export const PIN_BLOCK_LAYOUTS: Readonly<Record<PinBlockFormat, FormatRule>> = {
  0: { size: 8, panBound: true, fill: 'F', randomTail: 0 },
  1: { size: 8, panBound: false, fill: 'any', randomTail: 0 },
  3: { size: 8, panBound: true, fill: 'A-F', randomTail: 0 },
  4: { size: 16, panBound: false, fill: 'A', randomTail: 16 },
} as const;

export const PIN_MIN = 4;
export const PIN_MAX = 12;
export const PAN_MIN = 8;
export const PAN_MAX = 19;

/** A source of random bytes; node:crypto's by default, fixed in tests. */
export type RandomSource = (size: number) => Uint8Array;

export interface EncodePinBlockInput {
  format: PinBlockFormat;
  /** 4 to 12 decimal digits. */
  pin: string;
  /** The card number, 8 to 19 digits (formats 0 and 3; ignored by 1 and 4's PIN field). */
  pan?: string;
  /**
   * The random nibbles as hex, to reproduce a published example: formats 1 and 3 use the first `14 - PIN length`
   * (A–F only for 3), format 4 the 16 of its second half. Random when omitted.
   */
  fill?: string;
  random?: RandomSource;
}

export interface DecodePinBlockInput {
  format: PinBlockFormat;
  /** Required by formats 0 and 3. */
  pan?: string;
}

function fail(problem: PinBlockProblem, message: string, context: Record<string, unknown> = {}): never {
  throw new OmniposError('PINBLOCK_INVALID', message, { reason: problem, ...context });
}

function checkFormat(format: unknown): FormatRule {
  const rule = PIN_BLOCK_LAYOUTS[format as PinBlockFormat] as FormatRule | undefined;
  if (!rule) fail('format', `PIN block format ${String(format)} is not supported (0, 1, 3 or 4)`, { format });
  return rule;
}

/** Checks a PAN (8 to 19 digits) and returns it. */
export function checkPan(pan: string | undefined): string {
  if (typeof pan !== 'string' || !/^\d+$/.test(pan) || pan.length < PAN_MIN || pan.length > PAN_MAX) {
    fail('pan', `PAN: expected ${PAN_MIN} to ${PAN_MAX} digits`, {
      length: typeof pan === 'string' ? pan.length : undefined,
    });
  }
  return pan;
}

/** The 8-byte account number field of formats 0 and 3: `0000` + the 12 digits before the check digit. */
export function panField(pan: string): Buffer {
  const digits = checkPan(pan).slice(0, -1).slice(-12).padStart(12, '0');
  return Buffer.from(`0000${digits}`, 'hex');
}

function fillNibbles(rule: FormatRule, count: number, input: EncodePinBlockInput): string {
  if (count === 0) return '';
  if (rule.fill === 'F') return 'F'.repeat(count);
  if (rule.fill === 'A') return 'A'.repeat(count);
  if (input.fill !== undefined) {
    const fill = input.fill.toUpperCase();
    const allowed = rule.fill === 'A-F' ? /^[A-F]+$/ : /^[0-9A-F]+$/;
    if (fill.length < count || !allowed.test(fill)) {
      fail('fill', `fill: expected at least ${count} nibbles of ${rule.fill === 'A-F' ? 'A-F' : '0-F'}`, {
        length: fill.length,
      });
    }
    return fill.slice(0, count);
  }
  const bytes = (input.random ?? randomBytes)(count);
  let out = '';
  for (let i = 0; i < count; i++) {
    const b = bytes[i] ?? 0;
    out += (rule.fill === 'A-F' ? 10 + (b % 6) : b & 0x0f).toString(16).toUpperCase();
  }
  return out;
}

function randomTail(rule: FormatRule, input: EncodePinBlockInput): string {
  if (rule.randomTail === 0) return '';
  if (input.fill !== undefined) {
    if (!/^[0-9A-Fa-f]+$/.test(input.fill) || input.fill.length < rule.randomTail) {
      fail('fill', `fill: expected ${rule.randomTail} hex digits`, { length: input.fill.length });
    }
    return input.fill.slice(0, rule.randomTail).toUpperCase();
  }
  return Buffer.from((input.random ?? randomBytes)(rule.randomTail / 2))
    .toString('hex')
    .toUpperCase();
}

/**
 * The clear PIN block of formats 0, 1 and 3 (8 bytes), or format 4's plaintext PIN field (16 bytes).
 * A PIN that is not 4 to 12 digits, or a bad PAN or fill, throws PINBLOCK_INVALID.
 */
export function encodePinBlock(input: EncodePinBlockInput): Buffer {
  const rule = checkFormat(input.format);
  const pin = input.pin;
  if (typeof pin !== 'string' || !/^\d+$/.test(pin) || pin.length < PIN_MIN || pin.length > PIN_MAX) {
    fail('pin', `PIN: expected ${PIN_MIN} to ${PIN_MAX} digits`, {
      length: typeof pin === 'string' ? pin.length : undefined,
    });
  }
  const head = `${input.format}${pin.length.toString(16).toUpperCase()}${pin}`;
  const field = Buffer.from(head + fillNibbles(rule, 16 - head.length, input) + randomTail(rule, input), 'hex');
  if (!rule.panBound) return field;
  const pan = panField(checkPan(input.pan));
  for (let i = 0; i < 8; i++) field[i]! ^= pan[i]!;
  return field;
}

/**
 * The PIN in a clear PIN block (format 4: its plaintext PIN field). Refuses, with PINBLOCK_INVALID and a `reason`,
 * a wrong size, a control field of another format, a PIN length outside 4–12, a non-decimal PIN digit or a fill
 * the format does not allow.
 */
export function decodePinBlock(block: BytesLike, input: DecodePinBlockInput): string {
  const rule = checkFormat(input.format);
  let b: Buffer;
  try {
    b = toBytes(block, { what: 'PIN block', lengths: [rule.size], code: 'PINBLOCK_INVALID' });
  } catch (e) {
    fail('size', `PIN block: expected ${rule.size} bytes (${rule.size * 2} hex digits)`, {
      format: input.format,
      cause: (e as Error).message,
    });
  }
  if (rule.panBound) {
    const pan = panField(checkPan(input.pan));
    for (let i = 0; i < 8; i++) b[i]! ^= pan[i]!;
  }
  const nibbles = b.toString('hex').toUpperCase();
  const control = nibbles[0]!;
  if (control !== String(input.format)) {
    fail('control', `PIN block: control field is ${control}, expected ${input.format}`, {
      format: input.format,
      control,
    });
  }
  const length = parseInt(nibbles[1]!, 16);
  if (length < PIN_MIN || length > PIN_MAX) {
    fail('length', `PIN block: PIN length ${length} is outside ${PIN_MIN} to ${PIN_MAX}`, {
      format: input.format,
      length,
    });
  }
  const pin = nibbles.slice(2, 2 + length);
  if (!/^\d+$/.test(pin)) fail('digit', 'PIN block: the PIN has a non-decimal digit', { format: input.format });
  const fill = nibbles.slice(2 + length, 16);
  const fillOk = rule.fill === 'any' || new RegExp(`^${rule.fill === 'A-F' ? '[A-F]' : rule.fill}*$`).test(fill);
  if (!fillOk) {
    fail('fill', `PIN block: fill digits must be ${rule.fill} in format ${input.format}`, { format: input.format });
  }
  return pin;
}
