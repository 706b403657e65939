/**
 * DES (FIPS 46-3) on single 8-byte blocks, in TypeScript. DUKPT derives every key with a handful of one-block
 * DES operations under ever-changing keys, where node:crypto's per-call cipher set-up (about 5 µs) dominates;
 * this table-driven version needs no set-up. Bulk data (CBC) stays on node:crypto. Checked against OpenSSL
 * by a property test and against the X9.24-1 annex through every DUKPT vector.
 */

// prettier-ignore
const IP = [58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4, 62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
  57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3, 61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7];
// prettier-ignore
const P = [16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10, 2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25];
// prettier-ignore
const PC1 = [57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18, 10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
  63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22, 14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4];
// prettier-ignore
const PC2 = [14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10, 23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
  41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32];
const SHIFTS = [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1];
// prettier-ignore
const S = [
  [14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7, 0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
    4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0, 15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13],
  [15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10, 3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
    0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15, 13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9],
  [10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8, 13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
    13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7, 1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12],
  [7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15, 13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
    10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4, 3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14],
  [2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9, 14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
    4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14, 11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3],
  [12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11, 10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
    9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6, 4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13],
  [4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1, 13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
    1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2, 6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12],
  [13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7, 1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
    7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8, 2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11],
];

/** Bit `pos` (1 = most significant) of an n-bit value, as a number with that bit set. */
function bitAt(pos: number, width: number): number {
  return 2 ** (width - pos);
}

/**
 * A byte-indexed lookup for a permutation from 64 input bits: table[byte * 256 + value] gives the output bits
 * (split into a high and a low word of `outWidth / 2` bits) contributed by that input byte.
 */
function byteTables(perm: readonly number[], outWidth: number): { hi: Int32Array; lo: Int32Array } {
  const half = outWidth / 2;
  const hi = new Int32Array(8 * 256);
  const lo = new Int32Array(8 * 256);
  for (let b = 0; b < 8; b++) {
    for (let v = 0; v < 256; v++) {
      let h = 0;
      let l = 0;
      for (let out = 1; out <= outWidth; out++) {
        const src = perm[out - 1]! - 1; // 0-based input bit
        if (src >> 3 !== b || (v & (0x80 >> (src & 7))) === 0) continue;
        if (out <= half) h += bitAt(out, half);
        else l += bitAt(out - half, half);
      }
      hi[b * 256 + v] = h | 0;
      lo[b * 256 + v] = l | 0;
    }
  }
  return { hi, lo };
}

interface Tables {
  IP_T: { hi: Int32Array; lo: Int32Array };
  FP_T: { hi: Int32Array; lo: Int32Array };
  PC1_T: { hi: Int32Array; lo: Int32Array };
  PC2_T: Int32Array;
  SP: Int32Array;
}

let built: Tables | undefined;

/** The lookup tables, made at the first DES operation rather than when the module loads (fast start: ~8 ms). */
function tables(): Tables {
  return (built ??= buildTables());
}

function buildTables(): Tables {
  const FP = Array.from({ length: 64 }, (_, i) => IP.indexOf(i + 1) + 1);
  const IP_T = byteTables(IP, 64);
  const FP_T = byteTables(FP, 64);
  const PC1_T = byteTables(PC1, 56);

  /** PC2 from 7-bit groups of C (groups 0–3) and D (4–7) to the 24-bit halves of a round key. */
  const PC2_T = ((): Int32Array => {
    const t = new Int32Array(8 * 128);
    for (let g = 0; g < 8; g++) {
      for (let v = 0; v < 128; v++) {
        let out = 0;
        for (let o = 1; o <= 48; o++) {
          const src = PC2[o - 1]! - 1; // 0..55
          if (Math.floor(src / 7) !== g || (v & (0x40 >> (src % 7))) === 0) continue;
          out += bitAt(o <= 24 ? o : o - 24, 24);
        }
        t[g * 128 + v] = out;
      }
    }
    return t;
  })();

  /** S-box i followed by P: SP[i * 64 + v] is the 32-bit output of 6-bit input v to S-box i. */
  const SP = ((): Int32Array => {
    const t = new Int32Array(8 * 64);
    for (let i = 0; i < 8; i++) {
      for (let v = 0; v < 64; v++) {
        const s = S[i]![(((v >> 5) << 1) | (v & 1)) * 16 + ((v >> 1) & 0xf)]!;
        let out = 0;
        for (let o = 1; o <= 32; o++) {
          const src = P[o - 1]!; // 1..32, the S-box output bits sit at 4i+1..4i+4
          if (src > 4 * i && src <= 4 * i + 4 && (s & (8 >> (src - 4 * i - 1))) !== 0) out += bitAt(o, 32);
        }
        t[i * 64 + v] = out | 0;
      }
    }
    return t;
  })();
  return { IP_T, FP_T, PC1_T, PC2_T, SP };
}

/**
 * The 16 round keys of a DES key (8 bytes at `offset`), as 32 numbers: [hi24, lo24] per round, written into `into`
 * (a fresh array by default; a reused one spares the allocation, the larger part of a schedule's cost).
 */
export function desSchedule(key: Uint8Array, offset = 0, into: Int32Array = new Int32Array(32)): Int32Array {
  const { PC1_T, PC2_T } = built ?? tables();
  let c = 0;
  let d = 0;
  for (let b = 0; b < 8; b++) {
    const v = key[offset + b]!;
    c |= PC1_T.hi[b * 256 + v]!;
    d |= PC1_T.lo[b * 256 + v]!;
  }
  const ks = into;
  for (let r = 0; r < 16; r++) {
    const s = SHIFTS[r]!;
    c = ((c << s) | (c >>> (28 - s))) & 0x0fffffff;
    d = ((d << s) | (d >>> (28 - s))) & 0x0fffffff;
    ks[2 * r] =
      PC2_T[(c >>> 21) & 0x7f]! |
      PC2_T[128 + ((c >>> 14) & 0x7f)]! |
      PC2_T[256 + ((c >>> 7) & 0x7f)]! |
      PC2_T[384 + (c & 0x7f)]!;
    ks[2 * r + 1] =
      PC2_T[512 + ((d >>> 21) & 0x7f)]! |
      PC2_T[640 + ((d >>> 14) & 0x7f)]! |
      PC2_T[768 + ((d >>> 7) & 0x7f)]! |
      PC2_T[896 + (d & 0x7f)]!;
  }
  return ks;
}

function f(SP: Int32Array, r: number, khi: number, klo: number): number {
  const rr = (r >>> 1) | (r << 31);
  return (
    SP[((rr >>> 26) ^ (khi >>> 18)) & 0x3f]! |
    SP[64 + (((rr >>> 22) ^ (khi >>> 12)) & 0x3f)]! |
    SP[128 + (((rr >>> 18) ^ (khi >>> 6)) & 0x3f)]! |
    SP[192 + (((rr >>> 14) ^ khi) & 0x3f)]! |
    SP[256 + (((rr >>> 10) ^ (klo >>> 18)) & 0x3f)]! |
    SP[320 + (((rr >>> 6) ^ (klo >>> 12)) & 0x3f)]! |
    SP[384 + (((rr >>> 2) ^ (klo >>> 6)) & 0x3f)]! |
    SP[448 + (((((rr & 0xf) << 2) | (rr >>> 30)) ^ klo) & 0x3f)]!
  );
}

/**
 * Runs one block (8 bytes at `inOff`) through the cipher into `out` at `outOff`. The rounds go two at a time, each
 * half XORed in place (no swap), the round keys walked forwards or backwards.
 */
export function desCrypt(
  ks: Int32Array,
  decrypt: boolean,
  input: Uint8Array,
  inOff: number,
  out: Uint8Array,
  outOff: number,
): void {
  const { IP_T, FP_T, SP } = built ?? tables();
  let l = 0;
  let r = 0;
  for (let b = 0; b < 8; b++) {
    const v = input[inOff + b]!;
    l |= IP_T.hi[b * 256 + v]!;
    r |= IP_T.lo[b * 256 + v]!;
  }
  if (!decrypt) {
    for (let k = 0; k < 32; k += 4) {
      l ^= f(SP, r, ks[k]!, ks[k + 1]!);
      r ^= f(SP, l, ks[k + 2]!, ks[k + 3]!);
    }
  } else {
    for (let k = 30; k > 0; k -= 4) {
      l ^= f(SP, r, ks[k]!, ks[k + 1]!);
      r ^= f(SP, l, ks[k - 2]!, ks[k - 1]!);
    }
  }
  // pre-output is R16 L16; final permutation
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 4; b++) {
    const v = (r >>> (24 - 8 * b)) & 0xff;
    hi |= FP_T.hi[b * 256 + v]!;
    lo |= FP_T.lo[b * 256 + v]!;
  }
  for (let b = 4; b < 8; b++) {
    const v = (l >>> (56 - 8 * b)) & 0xff;
    hi |= FP_T.hi[b * 256 + v]!;
    lo |= FP_T.lo[b * 256 + v]!;
  }
  out[outOff] = hi >>> 24;
  out[outOff + 1] = (hi >>> 16) & 0xff;
  out[outOff + 2] = (hi >>> 8) & 0xff;
  out[outOff + 3] = hi & 0xff;
  out[outOff + 4] = lo >>> 24;
  out[outOff + 5] = (lo >>> 16) & 0xff;
  out[outOff + 6] = (lo >>> 8) & 0xff;
  out[outOff + 7] = lo & 0xff;
}

/** The round keys of a TDES key (16 bytes: K1 K2 K1; 24 bytes: K1 K2 K3), into `into`'s arrays when given. */
export function tdesSchedule(
  key: Uint8Array,
  into?: readonly [Int32Array, Int32Array, Int32Array],
): [Int32Array, Int32Array, Int32Array] {
  const k1 = desSchedule(key, 0, into?.[0]);
  return [k1, desSchedule(key, 8, into?.[1]), key.length >= 24 ? desSchedule(key, 16, into?.[2]) : k1];
}

/** One reused schedule for `desEncryptInPlace`: DES is synchronous, so no two uses overlap. */
const ONE_BLOCK = new Int32Array(32);

/**
 * DES-encrypts the 8 bytes at `blockOff` in place under the 8-byte key at `keyOff`, allocating nothing: the
 * one-block steps of key derivation (X9.24-1's non-reversible step) under a key used once. The schedule is wiped.
 */
export function desEncryptInPlace(key: Uint8Array, keyOff: number, block: Uint8Array, blockOff: number): void {
  desCrypt(desSchedule(key, keyOff, ONE_BLOCK), false, block, blockOff, block, blockOff);
  ONE_BLOCK.fill(0);
}

/** TDES-EDE on one block: E(K1) D(K2) E(K3), or its inverse. */
export function tdesCrypt(
  ks: [Int32Array, Int32Array, Int32Array],
  decrypt: boolean,
  input: Uint8Array,
  inOff: number,
  out: Uint8Array,
  outOff: number,
): void {
  const [k1, k2, k3] = ks;
  if (!decrypt) {
    desCrypt(k1, false, input, inOff, out, outOff);
    desCrypt(k2, true, out, outOff, out, outOff);
    desCrypt(k3, false, out, outOff, out, outOff);
  } else {
    desCrypt(k3, true, input, inOff, out, outOff);
    desCrypt(k2, false, out, outOff, out, outOff);
    desCrypt(k1, true, out, outOff, out, outOff);
  }
}
