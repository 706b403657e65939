import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FleetView } from '../../../src/fleet/view.js';

const msg = (v: unknown): Uint8Array => Buffer.from(JSON.stringify(v));

describe("the operator's fleet view (omnipos fleet watch | day)", () => {
  it('folds statuses, last wills and day reports per terminal, and adds up a day', () => {
    const view = new FleetView('omnipos');
    view.add(
      'omnipos/m1/T1/status',
      msg({
        online: true,
        status: 'ok',
        busy: false,
        alarms: [{ code: 'NEEDS_REFUND' }],
        tables: { version: '17' },
        software: '0.1.0',
      }),
    );
    view.add('omnipos/m1/T2/status', msg({ online: true, status: 'degraded', busy: true, alarms: [] }));
    view.add('omnipos/m1/T2/status', msg({ online: false }));
    view.add(
      'omnipos/m1/T1/day/2026-11-25',
      msg({ closed: true, counts: { sales: 3 }, totals: { net: 7000, salesAmount: 9000, voidsAmount: 2000 } }),
    );
    view.add(
      'omnipos/m1/T2/day/2026-11-25',
      msg({ closed: false, counts: { sales: 1 }, totals: { net: 100, salesAmount: 100, voidsAmount: 0 } }),
    );
    view.add('omnipos/m1/T2/day/2026-11-24', msg({ closed: true, counts: { sales: 9 }, totals: { net: 1 } }));
    expect(view.day('2026-11-25')).toMatchObject({
      terminals: 2,
      closed: 1,
      sales: 4,
      net: 7100,
      salesAmount: 9100,
      voidsAmount: 2000,
    });
    const table = view.table('2026-11-25');
    expect(table).toMatch(/m1\/T1 +yes +ok +no +NEEDS_REFUND +3 +70\.00 +17 +0\.1\.0/);
    expect(table).toMatch(/m1\/T2 +NO +- +- +- +1 +1\.00/);
  });

  it('never throws on what a broker may carry (property)', () => {
    const view = new FleetView('omnipos');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant('omnipos/m/t/status'),
          fc.constant('omnipos/m/t/day/2026-01-01'),
          fc.string({ maxLength: 40 }),
        ),
        fc.oneof(
          fc.uint8Array({ maxLength: 100 }),
          fc.jsonValue().map((v) => msg(v)),
        ),
        (topic, payload) => {
          view.add(topic, payload);
          view.table('2026-01-01');
          view.day('2026-01-01');
        },
      ),
      { numRuns: 1000 },
    );
  });
});
