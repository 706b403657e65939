import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// A fixed seed: the draw is replayable (a failure names the seed); the long run by hand draws its own.
// The long run's pinpads answer in a real PPC930's times; this one instantly but for one sale at the real
// times (the slow share), to keep the suite's time: at a tenth of the times it took 247 s against 169 s
// on the loaded development machine (docs/pinpad.md).
describe('npm run chaos, a small run (the long one is run by hand)', () => {
  it('12 sales on two merchants’ terminals, card-not-present ones among them, with random SIGKILLs, host faults and published errors, pinpad faults, a sale at a PPC930’s real times, a brown-out at the close reconcile: nothing lost, nothing charged twice, no card data in clear', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/chaos/chaos.ts',
        '--sales',
        '12',
        '--kill-rate',
        '0.4',
        '--seed',
        '7',
        '--timing',
        'fast',
        // A few phone orders and pre-authorizations on the e-commerce API (test/chaos/cnp-sales.ts).
        '--cnp',
        'ecommerce',
        '--cnp-rate',
        '0.3',
      ],
      // 307 s at a load of 24 on the 2 shared cores (29 Nov 2026, two 300-sale runs beside it): a limit, not a goal.
      { encoding: 'utf8', timeout: 420_000 },
    );
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as {
      problems: string[];
      seed: string;
      journal: Record<string, number>;
      merchants: number;
      slowSales: number;
    };
    expect(report.problems, `seed ${report.seed}`).toEqual([]);
    expect(r.status).toBe(0);
    expect(Object.values(report.journal).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(report.merchants).toBe(2);
    expect(report.slowSales).toBeGreaterThan(0);
    const cnpRows = Object.entries(report.journal).filter(([k]) => k.startsWith('cnp:'));
    expect(
      cnpRows.reduce((a, [, n]) => a + n, 0),
      JSON.stringify(report.journal),
    ).toBeGreaterThan(0);
  }, 480_000);
});
