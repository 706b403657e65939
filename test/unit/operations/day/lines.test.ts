import { describe, expect, it } from 'vitest';
import { QR_STATES } from '../../../../src/engine/index.js';
import {
  buildDayReport,
  dayLine,
  dayReportDocument,
  type DayLine,
  type DayReport,
} from '../../../../src/operations/day/index.js';
import { receiptLines } from '../../../../src/receipt/index.js';
import type { JournalEntry } from '../../../../src/store/index.js';

/**
 * A wallet QR code that ended unpaid (cancelled on the terminal, or expired) is watched for a late
 * payment until the host's close and the window after it (src/engine/outbox/watch.ts, the visibility
 * rule): the day's report says so on its line and in its counts, and the printed report names it, so
 * that the wait is told before the close without an alarm (it is not a stuck task).
 */
const qr = (state: string, id = 1): JournalEntry => ({
  id,
  kind: 'qr',
  merchantOrderId: `26333000100000${id}`,
  state,
  amount: 2500,
  data: { request: { method: 'credit' } },
  createdAt: '2026-11-28T17:00:00.000Z',
  updatedAt: '2026-11-28T17:00:00.000Z',
});

/** The report of 28 November 2026 (the host's day, 03:00 to 03:00 UTC) on `lines`, made at 18:00. */
const reportOf = (lines: DayLine[]): DayReport =>
  buildDayReport({
    date: '2026-11-28',
    from: new Date('2026-11-28T03:00:00.000Z'),
    to: new Date('2026-11-29T03:00:00.000Z'),
    now: new Date('2026-11-28T18:00:00.000Z'),
    lines,
  });

/** The report as printed on 48 columns, one text. */
const printed = (report: DayReport): string =>
  receiptLines(dayReportDocument(report, { columns: 48, environment: 'sandbox' }), 48).join(' ');

describe("day lines: a wallet QR code awaiting the host's close", () => {
  it('is cancelled (nothing charged) and awaiting the close while its watch runs, and only then', () => {
    const awaiting = QR_STATES.filter((s) => dayLine(qr(s)).awaitingHostClose === true);
    expect(awaiting).toEqual(['cancelling', 'expiring']);
    expect(dayLine(qr('expiring'))).toMatchObject({ outcome: 'cancelled', charged: 0, awaitingHostClose: true });
    expect(dayLine(qr('expired')).awaitingHostClose).toBeUndefined();
    // Another kind in a state of the same name is not a QR code's watch.
    expect(dayLine({ ...qr('cancelling'), kind: 'pix' }).awaitingHostClose).toBeUndefined();
  });

  it('the report counts them, and the printed report names them', () => {
    const lines = [qr('expiring', 1), qr('cancelling', 2), qr('expired', 3), qr('confirmed', 4)].map((e) => dayLine(e));
    const report = reportOf(lines);
    expect(report.counts).toMatchObject({ awaitingHostClose: 2, inProgress: 0 });
    const text = printed(report);
    expect(text).toContain('2 QR nao pago(s) aguardando o fechamento do adquirente');
  });

  it('a wallet QR void whose cancellation code ended is counted awaiting the close and printed as what it is, not as an unpaid QR code', () => {
    const sale = qr('confirmed', 4);
    const expiring: JournalEntry = {
      ...qr('expiring', 5),
      kind: 'void',
      data: { sale: { kind: 'wallet-qr', id: 4, merchantOrderId: sale.merchantOrderId }, amount: 2500 },
    };
    const lines = [qr('expiring', 1), sale, expiring].map((e) =>
      dayLine(e, (ref) => (ref.id === 4 ? sale : undefined)),
    );
    const report = reportOf(lines);
    expect(report.counts).toMatchObject({ awaitingHostClose: 2 });
    const text = printed(report);
    expect(text).toContain('1 QR nao pago(s) aguardando o fechamento do adquirente');
    expect(text).toContain('1 estorno(s) QR nao aplicado(s) aguardando o fechamento do adquirente');
    expect(text).not.toContain('2 QR nao pago(s)');
  });
});

/**
 * A dead letter is read by one rule for every kind: what the query that gave it up showed of the sale at
 * the host. A card-not-present capture the host shows voided or declined (the pre-authorization lapsed)
 * holds nothing; an undo given up may leave the sale held, counted charged until a person looks.
 */
const cnp = (state: string, data: Record<string, unknown> = {}): JournalEntry => ({
  id: 7,
  kind: 'cnp',
  merchantOrderId: '1000000000007',
  state,
  amount: 7700,
  data: { backend: 'ecommerce', brand: 'Visa', request: { amount: 7700, capture: false }, ...data },
  createdAt: '2026-11-28T17:00:00.000Z',
  updatedAt: '2026-11-28T17:00:00.000Z',
});

describe('day lines: a dead letter', () => {
  it('a card-not-present capture the host shows cancelled, declined or undone: nothing charged', () => {
    expect(dayLine(cnp('dead-letter', { hostShows: 'cancelled' }))).toMatchObject({ outcome: 'cancelled', charged: 0 });
    expect(dayLine(cnp('dead-letter', { hostShows: 'declined' }))).toMatchObject({ outcome: 'declined', charged: 0 });
    expect(dayLine(cnp('dead-letter', { hostShows: 'undone' }))).toMatchObject({ outcome: 'undone', charged: 0 });
    const report = reportOf([dayLine(cnp('dead-letter', { hostShows: 'cancelled' }))]);
    expect(report.totals).toMatchObject({ net: 0, salesAmount: 0 });
  });

  it('an undo given up, or a step given up with nothing shown: the host may hold it, charged (card sale and card not present alike)', () => {
    expect(dayLine(cnp('dead-letter', { reason: 'undo given up' }))).toMatchObject({
      outcome: 'dead-letter',
      charged: 7700,
    });
    // The host showing it still held (pending, approved) is no release either.
    expect(dayLine(cnp('dead-letter', { hostShows: 'pending' }))).toMatchObject({
      outcome: 'dead-letter',
      charged: 7700,
    });
    const sale: JournalEntry = { ...cnp('dead-letter'), kind: 'sale', data: { request: { method: 'credit' } } };
    expect(dayLine(sale)).toMatchObject({ outcome: 'dead-letter', charged: 7700 });
    expect(dayLine({ ...sale, data: { ...sale.data, hostShows: 'undone' } })).toMatchObject({
      outcome: 'undone',
      charged: 0,
    });
  });
});
