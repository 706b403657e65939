/** The chaos run's randomness: one seeded generator (mulberry32), so a failing run can be replayed with --seed. */
export interface SeededRandom {
  /** A number in [0, 1). */
  random(): number;
  /** One of `xs`, drawn with `random()`. */
  pick<T>(xs: readonly T[]): T;
}

export function seededRandom(start: number): SeededRandom {
  let seed = start;
  /** mulberry32: a seeded generator, so a failing run can be replayed with --seed. */
  function random(): number {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  return { random, pick };
}

/** Counts one more `k` in `m` (the run's figures). */
export const count = (m: Record<string, number>, k: string): void => void (m[k] = (m[k] ?? 0) + 1);
