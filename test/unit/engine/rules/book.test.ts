import { describe, expect, it } from 'vitest';
import type { SaleOutcome } from '../../../../src/acquirer/omni/outcomes.js';
import { RULEBOOK, SALE, decideBody, type SaleCreateAnswer, type Table } from '../../../../src/engine/rules/index.js';

/** The rulebook (src/engine/rules) and its table in docs/decisions.md (issue 29). */
describe('the rulebook', () => {
  it('every row cites the manual by page and line, or says why none applies', () => {
    for (const [op, table] of Object.entries(RULEBOOK))
      for (const [answer, rule] of Object.entries(table))
        expect(rule.source, `${op} ${answer}`).toMatch(/\b(pt|ecom|qr):\d+|^none: /);
  });

  it('the sale table has a row for every outcome kind the acquirer reads', () => {
    const kinds = Object.keys(SALE).sort();
    // A SaleOutcome kind without a row (or a row without a kind) does not compile here.
    const all: Record<SaleOutcome['kind'] | 'unclear-decline', true> & Record<SaleCreateAnswer, true> = {
      approved: true,
      anomaly: true,
      declined: true,
      'unclear-decline': true,
      refused: true,
      'not-sent': true,
      unknown: true,
    };
    expect(kinds).toEqual(Object.keys(all).sort());
  });

  it("a 2xx body decides only when it shows a final state; the void confirmation's own 4 is queried", () => {
    for (const table of Object.values(RULEBOOK))
      for (const answer of Object.keys(table)) {
        const d = decideBody(table as Table<string>, answer).decision;
        expect(['done', 'needs-refund', 'dead-letter', 'alarm', 'query']).toContain(d);
      }
    expect(decideBody(RULEBOOK['void.confirm'], 'undone').decision).toBe('query');
    expect(RULEBOOK['void.confirm'].undone.decision).toBe('dead-letter');
  });
});
