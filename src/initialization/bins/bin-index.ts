import { BIN_WIDTH, checkDigits, normaliseHigh, normaliseLow, successor } from './normalise.js';

/** What the index needs of a `Bins` row. */
export interface BinRangeRow {
  readonly InitialBin: string;
  readonly FinalBin: string;
  /** 0 specific, 1 generic. */
  readonly Type: 0 | 1;
}

/** The rows that share one normalised range and type: together they are the candidates for a card in it. */
export interface BinGroup<R extends BinRangeRow = BinRangeRow> {
  /** 19-digit bounds, inclusive. */
  readonly lo: string;
  readonly hi: string;
  readonly type: 0 | 1;
  readonly rows: readonly R[];
  /** Preference among groups: lower wins (specific before generic, then narrower, then lower start). */
  readonly rank: number;
}

const SPLIT = 10; // a 19-digit number as [first 10 digits, last 9 digits]: both exact in a double

function headOf(n19: string): number {
  return Number(n19.slice(0, SPLIT));
}
function tailOf(n19: string): number {
  return Number(n19.slice(SPLIT));
}

/** Groups rows by (range, type) and ranks the groups: specific first, then the narrowest, then the lower start. */
export function groupRanges<R extends BinRangeRow>(rows: readonly R[]): BinGroup<R>[] {
  const byKey = new Map<string, { lo: string; hi: string; type: 0 | 1; rows: R[] }>();
  for (const row of rows) {
    const lo = normaliseLow(row.InitialBin);
    const hi = normaliseHigh(row.FinalBin);
    const key = lo + hi + row.Type;
    const g = byKey.get(key);
    if (g) g.rows.push(row);
    else byKey.set(key, { lo, hi, type: row.Type, rows: [row] });
  }
  const groups = [...byKey.values()];
  const n = groups.length;
  // Width as a double is exact below 2^53; wider spans (bounds of under 4 digits) tie-break exactly.
  const width = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const g = groups[i]!;
    width[i] = (headOf(g.hi) - headOf(g.lo)) * 1e9 + (tailOf(g.hi) - tailOf(g.lo));
  }
  const type = new Uint8Array(n);
  const lo = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    type[i] = groups[i]!.type;
    lo[i] = groups[i]!.lo;
  }
  const BIG = 2 ** 53;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => {
    const ta = type[a]!;
    const tb = type[b]!;
    if (ta !== tb) return ta - tb;
    const wa = width[a]!;
    const wb = width[b]!;
    if (wa !== wb && (wa < BIG || wb < BIG)) return wa - wb;
    if (wa >= BIG) {
      const xa = BigInt(groups[a]!.hi) - BigInt(lo[a]!);
      const xb = BigInt(groups[b]!.hi) - BigInt(lo[b]!);
      if (xa !== xb) return xa < xb ? -1 : 1;
    }
    const la = lo[a]!;
    const lb = lo[b]!;
    return la < lb ? -1 : la > lb ? 1 : 0;
  });
  const ranked = new Array<BinGroup<R>>(n);
  for (let rank = 0; rank < n; rank++) {
    const g = groups[order[rank]!]!;
    ranked[rank] = { lo: g.lo, hi: g.hi, type: g.type, rows: g.rows, rank };
  }
  return ranked;
}

const TOP = 2n ** 64n - 1n; // the successor of 9999999999999999999: above every 19-digit value

/**
 * The BIN index: the ranges of `Bins`, normalised to 19 digits (InitialBin padded with 0s,
 * FinalBin with 9s), cut into elementary segments at every range boundary. Each segment keeps the
 * ranges that cover it, best first (specific before generic, then the narrowest). A lookup is one
 * binary search over the segment starts, then a walk of that segment's short cover list: O(log n)
 * plus the nesting depth.
 *
 * A lookup of d digits matches a range only when the range holds every card that starts with
 * those digits (a 6-digit query does not match an 8-digit range: it cannot tell).
 */
export class BinIndex<R extends BinRangeRow = BinRangeRow> {
  /** Groups by rank (index = rank). */
  readonly groups: readonly BinGroup<R>[];
  private readonly segHead: Float64Array;
  private readonly segTail: Float64Array;
  private readonly coverStart: Int32Array;
  private readonly cover: Int32Array;
  private readonly hiHead: Float64Array;
  private readonly hiTail: Float64Array;

  private constructor(groups: BinGroup<R>[], points: readonly bigint[], coverStart: Int32Array, cover: Int32Array) {
    this.groups = groups;
    const m = points.length;
    this.segHead = new Float64Array(m);
    this.segTail = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const p = points[i]!;
      const q = p / 1_000_000_000n;
      this.segHead[i] = Number(q);
      this.segTail[i] = Number(p - q * 1_000_000_000n);
    }
    this.coverStart = coverStart;
    this.cover = cover;
    this.hiHead = Float64Array.from(groups, (g) => headOf(g.hi));
    this.hiTail = Float64Array.from(groups, (g) => tailOf(g.hi));
  }

  /** Builds the index over `rows` (bounds already validated: digits, InitialBin <= FinalBin). */
  static build<R extends BinRangeRow>(rows: readonly R[]): BinIndex<R> {
    const groups = groupRanges(rows);
    const n = groups.length;
    // Every start and every end + 1 cuts a segment. Sort them as 64-bit integers (native, no comparator).
    const lo = new BigUint64Array(n);
    const end = new BigUint64Array(n);
    const all = new BigUint64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const g = groups[i]!;
      lo[i] = BigInt(g.lo);
      const next = successor(g.hi);
      end[i] = next === 'A' ? TOP : BigInt(next);
      all[2 * i] = lo[i]!;
      all[2 * i + 1] = end[i]!;
    }
    all.sort();
    const pointAt = new Map<bigint, number>();
    const points: bigint[] = [];
    for (const p of all) {
      if (p === TOP || pointAt.has(p)) continue;
      pointAt.set(p, points.length);
      points.push(p);
    }
    // Which groups start and which stop at each point: linked lists by point (a counting sort).
    const m = points.length;
    const addHead = new Int32Array(m).fill(-1);
    const addNext = new Int32Array(n);
    const delHead = new Int32Array(m).fill(-1);
    const delNext = new Int32Array(n);
    for (let i = n - 1; i >= 0; i--) {
      const a = pointAt.get(lo[i]!)!;
      addNext[i] = addHead[a]!;
      addHead[a] = i;
      const d = pointAt.get(end[i]!);
      if (d !== undefined) {
        delNext[i] = delHead[d]!;
        delHead[d] = i;
      }
    }
    // Sweep: the groups covering each segment, kept sorted by rank (the nesting depth is small).
    const active: number[] = [];
    const coverStart = new Int32Array(m + 1);
    const pool: number[] = [];
    for (let s = 0; s < m; s++) {
      for (let g = delHead[s]!; g !== -1; g = delNext[g]!) active.splice(active.indexOf(g), 1);
      for (let g = addHead[s]!; g !== -1; g = addNext[g]!) {
        let k = active.length;
        while (k > 0 && active[k - 1]! > g) k--;
        active.splice(k, 0, g);
      }
      coverStart[s] = pool.length;
      for (const g of active) pool.push(g);
    }
    coverStart[m] = pool.length;
    return new BinIndex(groups, points, coverStart, Int32Array.from(pool));
  }

  /** Number of distinct (range, type) groups. */
  get size(): number {
    return this.groups.length;
  }

  /** The winning range for the digits (a BIN or the first digits of a card), or undefined. */
  lookup(digits: string): BinGroup<R> | undefined {
    // The query's bounds, digits padded with 0s (low) and 9s (high), as [first 10, last 9] digits,
    // read straight from the characters: no string is built on this path.
    const n = digits.length;
    if (n === 0 || n > BIN_WIDTH) checkDigits(digits);
    let loHead = 0;
    let hiHead = 0;
    let loTail = 0;
    let hiTail = 0;
    for (let i = 0; i < BIN_WIDTH; i++) {
      let lo = 0;
      let hi = 9;
      if (i < n) {
        const d = digits.charCodeAt(i) - 48;
        if (d < 0 || d > 9) checkDigits(digits);
        lo = d;
        hi = d;
      }
      if (i < SPLIT) {
        loHead = loHead * 10 + lo;
        hiHead = hiHead * 10 + hi;
      } else {
        loTail = loTail * 10 + lo;
        hiTail = hiTail * 10 + hi;
      }
    }
    // last segment whose start <= the query's low bound
    const segHead = this.segHead;
    const segTail = this.segTail;
    let a = 0;
    let b = segHead.length - 1;
    let s = -1;
    while (a <= b) {
      const m = (a + b) >>> 1;
      const h = segHead[m]!;
      if (h < loHead || (h === loHead && segTail[m]! <= loTail)) {
        s = m;
        a = m + 1;
      } else b = m - 1;
    }
    if (s < 0) return undefined;
    const end = this.coverStart[s + 1]!;
    for (let k = this.coverStart[s]!; k < end; k++) {
      const g = this.cover[k]!;
      const h = this.hiHead[g]!;
      if (h > hiHead || (h === hiHead && this.hiTail[g]! >= hiTail)) return this.groups[g];
    }
    return undefined;
  }
}

/** The same answer as `BinIndex.lookup` by scanning every group: the reference for tests and the benchmark. */
export function linearLookup<R extends BinRangeRow>(
  groups: readonly BinGroup<R>[],
  digits: string,
): BinGroup<R> | undefined {
  checkDigits(digits);
  const qlo = digits.padEnd(BIN_WIDTH, '0');
  const qhi = digits.padEnd(BIN_WIDTH, '9');
  let best: BinGroup<R> | undefined;
  for (const g of groups) {
    if (g.lo <= qlo && g.hi >= qhi && (!best || g.rank < best.rank)) best = g;
  }
  return best;
}
