import { OmniposError, type ErrorCode } from '../core/index.js';

/** Bytes in or hex text: every function of src/crypto accepts either for keys, KSNs and data. */
export type BytesLike = Uint8Array | string;

const HEX_RE = /^[0-9A-Fa-f]*$/;

/** Upper-case hex of some bytes, as the acquirer and the pinpad write them. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();
}

export interface BytesRule {
  /** What the value is, for the error message (e.g. `BDK`, `KSN`). */
  what: string;
  /** Allowed lengths in bytes; any length when omitted. */
  lengths?: readonly number[];
  /** The error code for a violation; `CODEC_INVALID_INPUT` by default. */
  code?: ErrorCode;
}

/**
 * Bytes from hex text or a byte array, checked against a rule. Hex may contain spaces; odd-length or non-hex
 * text and a wrong length throw an OmniposError naming `what`. The result is a fresh Buffer the caller may modify.
 */
export function toBytes(value: BytesLike, rule: BytesRule): Buffer {
  const code = rule.code ?? 'CODEC_INVALID_INPUT';
  let out: Buffer;
  if (typeof value === 'string') {
    const hex = value.replace(/\s+/g, '');
    if (!HEX_RE.test(hex) || hex.length % 2 !== 0) {
      throw new OmniposError(code, `${rule.what}: expected hexadecimal digits in pairs`, {
        what: rule.what,
        length: hex.length,
      });
    }
    out = Buffer.from(hex, 'hex');
  } else if (value instanceof Uint8Array) {
    out = Buffer.from(value);
  } else {
    throw new OmniposError(code, `${rule.what}: expected bytes or hex text`, { what: rule.what });
  }
  if (rule.lengths && !rule.lengths.includes(out.length)) {
    throw new OmniposError(code, `${rule.what}: expected ${rule.lengths.join(' or ')} bytes, got ${out.length}`, {
      what: rule.what,
      length: out.length,
    });
  }
  return out;
}

/** a XOR b into a new Buffer (lengths must match). */
export function xor(a: Uint8Array, b: Uint8Array): Buffer {
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] ?? 0) ^ (b[i] ?? 0);
  return out;
}

/** Overwrites a buffer with zeros: keys do not linger longer than their use. */
export function wipe(...buffers: Uint8Array[]): void {
  for (const b of buffers) b.fill(0);
}
