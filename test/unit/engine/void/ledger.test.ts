import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log/index.js';
import { givenBackOf } from '../../../../src/engine/void/ledger.js';
import { AlarmMonitor } from '../../../../src/operations/alarms/index.js';
import { Journal, openTerminalDatabase, Outbox } from '../../../../src/store/index.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const tempDir = useTempDirs();
const silent = createLogger({ level: 'silent' });

describe('a needs-refund sale voided in full stops raising NEEDS_REFUND', () => {
  it('counts only voids whose money went back; voided in part, it names what is still owed; voided in full, the alarm clears', () => {
    const db = openTerminalDatabase(path.join(tempDir(), 'state'));
    const journal = new Journal(db);
    const clock = new FakeClock('2026-11-22T12:00:00Z');
    const monitor = new AlarmMonitor({
      journal,
      outbox: new Outbox(db),
      clock,
      log: silent,
      thresholds: { closeWarningMs: 60_000, clockOffsetMs: 60_000 },
      checkMs: 3_600_000,
      terminal: { terminalId: '42004201', environment: 'sandbox' },
      voided: (id) => givenBackOf(db, id),
    });
    const sale = journal.open({
      kind: 'sale',
      merchantOrderId: '263260010000001',
      state: 'needs-refund',
      amount: 1000,
      data: { request: { method: 'credit' } },
      input: 'test',
      at: clock.now(),
    });
    const other = journal.open({
      kind: 'sale',
      merchantOrderId: '263260010000009',
      state: 'needs-refund',
      amount: 700,
      data: { request: { method: 'credit' } },
      input: 'test',
      at: clock.now(),
    });
    let n = 10;
    const voidOf = (saleId: number, amount: number, state: string): void =>
      void journal.open({
        kind: 'void',
        merchantOrderId: `2632600100002${n++}`,
        state,
        amount,
        data: { sale: { id: saleId } },
        input: 'test',
        at: clock.now(),
      });
    const owed = (): Record<string, unknown>[] =>
      monitor
        .check()
        .filter((a) => a.code === 'NEEDS_REFUND')
        .map((a) => a.context ?? {});
    expect(owed()).toEqual([
      { id: sale.id, merchantOrderId: '263260010000001', amount: 1000 },
      { id: other.id, merchantOrderId: '263260010000009', amount: 700 },
    ]);
    // Declined, refused, still voiding, undone: nothing went back yet.
    voidOf(sale.id, 1000, 'declined');
    voidOf(sale.id, 1000, 'voiding');
    voidOf(sale.id, 1000, 'undone');
    expect(givenBackOf(db, sale.id)).toBe(0);
    voidOf(sale.id, 400, 'confirmed');
    expect(owed()[0]).toEqual({ id: sale.id, merchantOrderId: '263260010000001', amount: 600 });
    voidOf(sale.id, 600, 'confirming');
    expect(givenBackOf(db, sale.id)).toBe(1000);
    expect(owed()).toEqual([{ id: other.id, merchantOrderId: '263260010000009', amount: 700 }]);
    expect(
      monitor
        .alarms()
        .filter((a) => a.code === 'NEEDS_REFUND')
        .map((a) => a.context?.id),
    ).toEqual([other.id]);
    db.close();
  });
});
