import { describe, expect, it } from 'vitest';
import { formatSummary, slope, summarize, type Sample } from './summary.js';

const at = (sales: number, rssMiB: number, fds = 50): Sample => ({
  sales,
  rssMiB,
  anonMiB: rssMiB - 50,
  heapMiB: 30,
  inUseMiB: 12 + sales / 10_000,
  externalMiB: 4,
  fds,
});

describe('the soak summary', () => {
  it('slope: least squares, 0 below two points', () => {
    expect(slope([])).toBe(0);
    expect(slope([[1, 5]])).toBe(0);
    expect(
      slope([
        [0, 1],
        [10, 21],
        [20, 41],
      ]),
    ).toBeCloseTo(2);
  });

  it('warm-up is left out of the slopes; per 10k sales; start, warm-up, end and max', () => {
    // RSS climbs 40 MiB during the first 1000 sales, then 1 MiB per 10k.
    const samples = [at(0, 120), at(500, 150), at(1000, 160), at(11_000, 161), at(21_000, 162)];
    const s = summarize(samples, 1000);
    expect(s.warmUpSales).toBe(1000);
    expect(s.samplesAfterWarmUp).toBe(3);
    expect(s.series.rssMiB).toMatchObject({ afterWarmUp: 160, end: 162, max: 162 });
    expect(s.series.rssMiB.per10k).toBeCloseTo(1);
    expect(s.series.inUseMiB.per10k).toBeCloseTo(1);
    expect(s.series.fds.per10k).toBe(0);
    const text = formatSummary(s);
    expect(text).toContain('warm-up until sale 1000');
    expect(text).toMatch(/RSS MiB\s+160\.0\s+162\.0\s+162\.0\s+\+1\.00/);
  });

  it('a run shorter than the warm-up: the last sample, no slope', () => {
    const s = summarize([at(0, 120), at(100, 130)], 1000);
    expect(s.warmUpSales).toBe(100);
    expect(Number.isNaN(s.series.rssMiB.per10k)).toBe(true);
    expect(formatSummary(s)).toMatch(/RSS MiB\s+130\.0\s+130\.0\s+130\.0\s+-/);
  });
});
