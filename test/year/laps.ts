// Where the year run's wall time goes on the harness side (issue 35): each awaited step of a sale timed
// by name, summed per day, printed when YEAR_PROFILE=1 (one line per day), so a wait for nothing shows.
const totals = new Map<string, { ms: number; n: number }>();
const on = process.env.YEAR_PROFILE === '1';

/** `p` awaited, its wall time added to step `name` (when profiling). */
export async function lap<T>(name: string, p: Promise<T> | (() => Promise<T>)): Promise<T> {
  if (!on) return typeof p === 'function' ? p() : p;
  const t0 = performance.now();
  try {
    return await (typeof p === 'function' ? p() : p);
  } finally {
    const s = totals.get(name) ?? { ms: 0, n: 0 };
    s.ms += performance.now() - t0;
    s.n++;
    totals.set(name, s);
  }
}

/** The day's steps (ms in all, and a mean each), emptied; undefined when not profiling. */
export function takeLaps(): Record<string, { ms: number; n: number; each: number }> | undefined {
  if (!on) return undefined;
  const out = Object.fromEntries(
    [...totals].map(([k, v]) => [k, { ms: Math.round(v.ms), n: v.n, each: Math.round((v.ms / v.n) * 10) / 10 }]),
  );
  totals.clear();
  return out;
}
