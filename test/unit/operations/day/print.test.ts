import fc from 'fast-check';
import { describe, it } from 'vitest';
import { dayReportDocument, buildDayReport } from '../../../../src/operations/day/index.js';
import { receiptLines } from '../../../../src/receipt/index.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (operations/day/print): ${SEED}`);

describe("the day's printed layout", () => {
  it('fits 32, 42 and 48 columns whatever the totals, with the test banner outside production only (1000 runs)', () => {
    const group = fc.record({
      sales: fc.nat(999),
      salesAmount: fc.nat(9_999_999_999),
      voids: fc.nat(99),
      voidsAmount: fc.nat(99_999_999),
      net: fc.integer(),
    });
    fc.assert(
      fc.property(
        fc.constantFrom<32 | 42 | 48>(32, 42, 48),
        fc.constantFrom('sandbox', 'homologation', 'production'),
        fc.dictionary(
          fc.constantFrom('credit', 'debit', 'voucher', 'wallet-qr', 'pix', 'a-very-long-unknown-method-name-indeed'),
          group,
        ),
        fc.dictionary(fc.stringMatching(/^[0-9]{1,4}$/), group),
        (columns, environment, byMethod, byBrand) => {
          const base = buildDayReport({
            date: '2026-11-22',
            from: new Date(0),
            to: new Date(1),
            now: new Date('2026-11-22T23:59:00Z'),
            lines: [],
            closedAt: new Date('2026-11-23T02:00:00Z'),
          });
          const report = {
            ...base,
            totals: { ...base.totals, byMethod, byBrand, byProduct: byBrand, net: 123_456_789 },
          };
          const lines = receiptLines(
            dayReportDocument(report, { columns, environment, terminalId: '42004201' }),
            columns,
          );
          const banner = lines.some((l) => l.includes('AMBIENTE DE TESTE'));
          return (
            lines.every((l) => [...l].length <= columns) &&
            banner === (environment !== 'production') &&
            lines[0]!.includes('FECHAMENTO DO DIA')
          );
        },
      ),
      { numRuns: 1000, seed: SEED },
    );
  });
});
