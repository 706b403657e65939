import { describe, expect, it } from 'vitest';
import { CNP_STATES, FINAL_VOID_STATES, QR_STATES } from '../../../src/engine/index.js';
import { SALE_STATES } from '../../../src/engine/sale/types.js';
import { PIX_STATES } from '../../../src/engine/pix/types.js';
import { VOID_STATES } from '../../../src/engine/void/types.js';
import type { LedgerReport } from '../../../src/sandbox/index.js';
import { Journal, openTerminalDatabase } from '../../../src/store/index.js';
import { FINAL, reconcile } from '../../chaos/reconcile.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();

/**
 * The chaos reconcile's final states come from the engines' own lists: a void that ended `expired`
 * (its wallet QR cancellation code never applied) is over, not unfinished — the hand copy lacked it.
 */
describe("the chaos reconcile's final states", () => {
  it("are each engine's own final states, less the dead letter (a problem here), and a cnp pre-authorization left open", () => {
    const states: Record<string, readonly string[]> = {
      sale: SALE_STATES,
      qr: QR_STATES,
      pix: PIX_STATES,
      void: VOID_STATES,
      cnp: CNP_STATES,
    };
    expect(Object.keys(FINAL).sort()).toEqual(Object.keys(states).sort());
    for (const [kind, finals] of Object.entries(FINAL)) {
      for (const s of finals) expect(states[kind]).toContain(s);
      expect(finals).not.toContain('dead-letter');
    }
    expect(FINAL.void).toEqual([...FINAL_VOID_STATES].filter((s) => s !== 'dead-letter'));
    expect(FINAL.void).toContain('expired');
    expect(FINAL.cnp).toContain('authorized');
  });

  it('a journal whose wallet QR void ended expired reconciles with no problem; one still expiring is unfinished', () => {
    const dir = tempDir();
    const db = openTerminalDatabase(dir);
    const journal = new Journal(db);
    const at = new Date('2026-11-28T17:00:00.000Z');
    const expired = journal.open({
      kind: 'void',
      merchantOrderId: '263330001000001',
      state: 'expired',
      amount: 100,
      input: 't',
      at,
    });
    db.close();
    const ledger: LedgerReport = {
      now: at.toISOString(),
      entries: [],
      problems: [],
      sales: [],
      ecommerce: [],
      cards: [],
      callbacks: [],
      totals: { charged: 0, sales: 0, ecommerceCharged: 0, cardsCharged: 0 },
    };
    const run = () => reconcile({ terminals: [{ name: 'merchant-1', stateDir: dir, alarms: [] }], ledger }).problems;
    expect(run().filter((p) => p.includes(expired.merchantOrderId))).toEqual([]);
    const db2 = openTerminalDatabase(dir);
    new Journal(db2).open({
      kind: 'void',
      merchantOrderId: '263330001000002',
      state: 'expiring',
      amount: 100,
      input: 't',
      at,
    });
    db2.close();
    expect(run()).toContain('merchant-1: journal void 263330001000002 is expiring');
  });
});
