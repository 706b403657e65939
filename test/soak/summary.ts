// The soak's closing summary (issue 23): where memory and descriptors stood after warm-up and at
// the end, and how fast each grew after warm-up (least squares over the samples, per 10,000 sales).

/** One sample as test/soak/soak.ts takes it (MiB, counts). */
export type Sample = Readonly<Record<string, number>> & { readonly sales: number };

/** The least-squares slope of `y` over `x` (0 with fewer than two distinct x). */
export function slope(points: readonly (readonly [number, number])[]): number {
  const pts = points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (pts.length < 2) return 0;
  const mx = pts.reduce((s, [x]) => s + x, 0) / pts.length;
  const my = pts.reduce((s, [, y]) => s + y, 0) / pts.length;
  let num = 0;
  let den = 0;
  for (const [x, y] of pts) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** What the summary reports for each series: its sample field and how it is printed. */
export const SERIES = [
  { field: 'rssMiB', label: 'RSS MiB', digits: 1 },
  { field: 'anonMiB', label: 'anonymous MiB', digits: 1 },
  { field: 'heapMiB', label: 'V8 heap MiB', digits: 1 },
  { field: 'inUseMiB', label: 'malloc in use MiB', digits: 1 },
  { field: 'externalMiB', label: 'external MiB', digits: 1 },
  { field: 'fds', label: 'open fds', digits: 0 },
] as const;

export interface SeriesSummary {
  readonly afterWarmUp: number;
  readonly end: number;
  readonly max: number;
  /** Growth per 10,000 sales after warm-up (least squares); NaN with fewer than two samples after it. */
  readonly per10k: number;
}

export interface Summary {
  readonly sales: number;
  readonly warmUpSales: number;
  readonly samplesAfterWarmUp: number;
  readonly series: Readonly<Record<(typeof SERIES)[number]['field'], SeriesSummary>>;
}

/**
 * The samples' summary: warm-up ends at the first sample at or past `warmUpSales` (the start
 * sample when the run is shorter); slopes over the samples from there on.
 */
export function summarize(samples: readonly Sample[], warmUpSales: number): Summary {
  if (samples.length === 0) throw new Error('no samples');
  const i = samples.findIndex((s) => s.sales >= warmUpSales);
  const warm = i === -1 ? samples.at(-1)! : samples[i]!;
  const after = samples.filter((s) => s.sales >= warm.sales);
  const last = samples.at(-1)!;
  const series = Object.fromEntries(
    SERIES.map(({ field }) => {
      const value = (s: Sample): number => s[field] ?? NaN;
      const pts = after.map((s) => [s.sales, value(s)] as const);
      return [
        field,
        {
          afterWarmUp: value(warm),
          end: value(last),
          max: Math.max(...samples.map(value).filter(Number.isFinite)),
          per10k: new Set(pts.map(([x]) => x)).size < 2 ? NaN : slope(pts) * 10_000,
        },
      ];
    }),
  ) as unknown as Summary['series'];
  return { sales: last.sales, warmUpSales: warm.sales, samplesAfterWarmUp: after.length, series };
}

const fixed = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const signed = (n: number, digits: number): string =>
  Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${n.toFixed(digits)}` : '-';

/** The summary as a few lines for a closing note. */
export function formatSummary(s: Summary): string {
  const head = `soak summary: warm-up until sale ${s.warmUpSales}, ${s.samplesAfterWarmUp} samples from there to sale ${s.sales}`;
  const rows = SERIES.map(({ field, label, digits }) => {
    const r = s.series[field];
    return `  ${label.padEnd(18)} ${fixed(r.afterWarmUp, digits).padStart(9)} ${fixed(r.end, digits).padStart(9)} ${fixed(r.max, digits).padStart(9)} ${signed(r.per10k, digits === 0 ? 1 : 2).padStart(12)}`;
  });
  return [
    head,
    `  ${''.padEnd(18)} ${'warm-up'.padStart(9)} ${'end'.padStart(9)} ${'max'.padStart(9)} ${'per 10k sales'.padStart(12)}`,
    ...rows,
  ].join('\n');
}
