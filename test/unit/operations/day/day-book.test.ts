import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log/index.js';
import { DayBook } from '../../../../src/operations/day/index.js';
import { Journal } from '../../../../src/store/index.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { useTempStores } from '../../../helpers/store.js';

/**
 * A closed day's report accounts what the close could not know: a sale being undone when the merchant
 * closed the day (its undo race still running) that the host kept after all ends `needs-refund`, and
 * the money is told beside the close (`afterClose.settled`, `net`), never lost. Found by the timeline
 * explorer (test/explorer, "card sale, the merchant's day closed"); on 4ef2f17 the report kept the close's
 * "undone" for ever and counted the charge nowhere.
 */
const tempStore = useTempStores();

function day() {
  const db = tempStore();
  const journal = new Journal(db);
  const clock = new FakeClock('2026-11-20T20:00:00.000Z');
  const book = new DayBook({ db, journal, clock, log: createLogger({ level: 'silent' }), environment: 'sandbox' });
  /** A card sale's journal row, opened now in `state`. */
  const sale = (merchantOrderId: string, state: string, amount: number, method = 'credit') =>
    journal.open({
      kind: 'sale',
      merchantOrderId,
      state,
      amount,
      data: { request: { method } },
      input: 'test',
      at: clock.now(),
    });
  return { db, journal, clock, book, sale };
}

describe('DayBook: the report of a closed day', () => {
  it('tells a sale the close counted undone (being undone) that ended needs-refund, its charge added to net', async () => {
    const d = day();
    const { db, journal, clock, book } = d;
    const sale = d.sale('263240001846001', 'undoing', 1000);
    clock.advance(60_000);
    const closed = await book.close(undefined, { print: false });
    expect(closed.report.totals.net).toBe(0);
    expect(book.report().afterClose).toBeUndefined();
    clock.advance(60_000);
    journal.transition(sale.id, { from: 'undoing', to: 'needs-refund', input: 'found charged', at: clock.now() });
    const report = book.report();
    expect(report.totals.net).toBe(0);
    expect(report.afterClose).toMatchObject({ since: closed.closedAt, sales: 0, net: 1000, lines: [] });
    expect(report.afterClose?.settled?.map((l) => [l.id, l.outcome, l.charged])).toEqual([
      [sale.id, 'needs-refund', 1000],
    ]);
    db.close();
  });

  it('tells a sale the close counted charged (awaiting its decision) that the cash register undid: net gives it back', async () => {
    const d = day();
    const { db, journal, clock, book } = d;
    const sale = d.sale('263240001846002', 'awaiting-decision', 2500, 'debit');
    const opened = d.sale('263240001846003', 'confirmed', 700);
    clock.advance(60_000);
    const closed = await book.close(undefined, { print: false });
    expect(closed.report.totals.net).toBe(3200);
    clock.advance(60_000);
    journal.transition(sale.id, { from: 'awaiting-decision', to: 'undone', input: 'ecr undo', at: clock.now() });
    const report = book.report();
    expect(report.totals.net).toBe(3200);
    expect(report.afterClose).toMatchObject({ net: -2500, lines: [] });
    expect(report.afterClose?.settled?.map((l) => l.id)).toEqual([sale.id]);
    expect(report.afterClose?.settled?.some((l) => l.id === opened.id)).toBe(false);
    db.close();
  });
});

describe('DayBook: card-not-present pre-authorizations', () => {
  it('lists the pre-authorizations still open (of any day), and charges a sale captured and voided in part by what remains', () => {
    const { journal, clock, book } = day();
    const cnp = (merchantOrderId: string, state: string, data: Record<string, unknown> = {}) =>
      journal.open({
        kind: 'cnp',
        merchantOrderId,
        state,
        amount: 10_000,
        data: { request: { method: 'credit' }, ...data },
        input: 'test',
        at: clock.now(),
      });
    const yesterday = cnp('2611190001', 'authorized');
    clock.advance(86_400_000);
    const today = cnp('2611200002', 'authorized');
    cnp('2611200003', 'captured', { capturedAmount: 6000, voidedAmount: 1500 });
    cnp('2611200004', 'voided');
    // A whole void that did not take (the card sale's needs-refund): still charged by what remains.
    cnp('2611200005', 'needs-refund', { capturedAmount: 6000, voidedAmount: 1000 });
    const report = book.report();
    expect(report.preAuthorizationsOpen).toEqual([
      expect.objectContaining({ id: yesterday.id, merchantOrderId: '2611190001', amount: 10_000, state: 'authorized' }),
      expect.objectContaining({ id: today.id, merchantOrderId: '2611200002', state: 'authorized' }),
    ]);
    expect(report.lines.map((l) => [l.merchantOrderId, l.outcome, l.charged])).toEqual([
      ['2611200002', 'approved', 10_000],
      ['2611200003', 'confirmed', 4500],
      ['2611200004', 'cancelled', 0],
      ['2611200005', 'needs-refund', 5000],
    ]);
    expect(report.totals.needsRefundAmount).toBe(5000);
    expect(report.totals.net).toBe(19_500);
  });
});
