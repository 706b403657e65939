import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import {
  buildDayReport,
  businessDateOf,
  businessDayBounds,
  dayLine,
  DayBook,
  parseBusinessDate,
  type DayLine,
  type DayOutcome,
} from '../../../src/operations/day/index.js';
import { Journal, type JournalEntry } from '../../../src/store/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { useTempStores } from '../../helpers/store.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (operations/day): ${SEED}`);
const openStore = useTempStores();

describe('business days (host time, America/Sao_Paulo unless told)', () => {
  it('a Sao Paulo day runs 03:00 UTC to 03:00 UTC (UTC-3, no daylight saving since 2019: Decree 9.772/2019)', () => {
    const b = businessDayBounds('2026-11-22');
    expect(b.from.toISOString()).toBe('2026-11-22T03:00:00.000Z');
    expect(b.to.toISOString()).toBe('2026-11-23T03:00:00.000Z');
    expect(businessDateOf(new Date('2026-11-23T02:59:59.999Z'))).toBe('2026-11-22');
    expect(businessDateOf(new Date('2026-11-23T03:00:00.000Z'))).toBe('2026-11-23');
  });

  it('days of 23 and 25 hours in a zone with daylight saving (US rule: second Sunday of March, first Sunday of November; 15 U.S.C. 260a)', () => {
    const spring = businessDayBounds('2026-03-08', 'America/New_York');
    expect(spring.from.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(spring.to.getTime() - spring.from.getTime()).toBe(23 * 3_600_000);
    const autumn = businessDayBounds('2026-11-01', 'America/New_York');
    expect(autumn.to.getTime() - autumn.from.getTime()).toBe(25 * 3_600_000);
  });

  it('every instant lies inside the bounds of its own business day (1000 runs)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom('America/Sao_Paulo', 'America/New_York', 'Europe/Lisbon'),
        (at, zone) => {
          const b = businessDayBounds(businessDateOf(at, zone), zone);
          return b.from.getTime() <= at.getTime() && at.getTime() < b.to.getTime();
        },
      ),
      { numRuns: 1000, seed: SEED },
    );
  });

  it('refuses dates that do not exist or are not YYYY-MM-DD, with a typed error naming the field; never throws anything else (1000 runs)', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-01', ' 2026-01-01', '20260101', '']) {
      expect(() => parseBusinessDate(bad, 'date')).toThrow(/date: expected a date YYYY-MM-DD/);
    }
    expect(parseBusinessDate('2024-02-29')).toBe('2024-02-29');
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (s) => {
        try {
          parseBusinessDate(s);
          return /^\d{4}-\d{2}-\d{2}$/.test(s);
        } catch (e) {
          return isOmniposError(e, 'OPERATIONS_INVALID_DATE');
        }
      }),
      { numRuns: 1000, seed: SEED },
    );
  });
});

const entry = (over: Partial<JournalEntry>): JournalEntry => ({
  id: 1,
  kind: 'sale',
  merchantOrderId: '263260010000001',
  state: 'confirmed',
  amount: 1000,
  data: { request: { method: 'credit' }, card: { maskedPan: '476173******0060', brandId: 1, productId: 10 } },
  createdAt: '2026-11-22T15:00:00.000Z',
  updatedAt: '2026-11-22T15:00:00.000Z',
  ...over,
});

describe('day lines', () => {
  it('reads a sale, a wallet QR sale, a Pix sale and a void (as src/engine/void journals it) by their states', () => {
    expect(dayLine(entry({}))).toMatchObject({
      method: 'credit',
      brand: '1',
      product: '10',
      outcome: 'confirmed',
      charged: 1000,
    });
    expect(dayLine(entry({ state: 'awaiting-decision' }))).toMatchObject({ outcome: 'approved', charged: 1000 });
    expect(dayLine(entry({ state: 'undone' }))).toMatchObject({ outcome: 'undone', charged: 0 });
    expect(dayLine(entry({ state: 'needs-refund' }))).toMatchObject({ outcome: 'needs-refund', charged: 1000 });
    expect(dayLine(entry({ state: 'declined', data: { request: { method: 'debit' } } }))).toMatchObject({
      outcome: 'declined',
      brand: 'unknown',
      charged: 0,
    });
    expect(dayLine(entry({ kind: 'qr', state: 'confirmed', data: { request: { method: 'debit' } } }))).toMatchObject({
      method: 'wallet-qr',
      brand: 'wallet',
      product: 'debit',
      outcome: 'confirmed',
    });
    expect(dayLine(entry({ kind: 'pix', state: 'refunded', data: {} }))).toMatchObject({
      method: 'pix',
      outcome: 'refunded',
      charged: 0,
    });
    const sale = entry({ id: 7 });
    const voidRow = entry({
      id: 9,
      kind: 'void',
      merchantOrderId: '263260010000099',
      state: 'confirmed',
      amount: 400,
      data: {
        merchantOrderId: '263260010000099',
        merchantVoidId: '263260010000099',
        amount: 400,
        sale: {
          id: 7,
          merchantOrderId: sale.merchantOrderId,
          paymentId: 'p',
          amount: 1000,
          method: 'credit',
          card: { maskedPan: '476173******0060', brandId: 1 },
        },
        authorizedBy: 'supervisor-token',
      },
    });
    const look = (ref: { id?: number }) => (ref.id === 7 ? sale : undefined);
    expect(dayLine(voidRow, look)).toMatchObject({
      kind: 'void',
      method: 'credit',
      brand: '1',
      product: '10',
      outcome: 'voided',
      amount: 400,
      charged: -400,
      voidOf: sale.merchantOrderId,
    });
    expect(dayLine({ ...voidRow, state: 'declined' }, look)).toMatchObject({ outcome: 'void-failed', charged: 0 });
    expect(dayLine({ ...voidRow, state: 'dead-letter' }, look)).toMatchObject({ outcome: 'voided', charged: -400 });
    expect(dayLine({ ...voidRow, state: 'some-new-state' }, look)).toMatchObject({
      outcome: 'in-progress',
      charged: 0,
    });
    // A void whose data lacks everything still reads, as unknown.
    expect(dayLine(entry({ kind: 'void', state: 'confirmed', data: {} }))).toMatchObject({
      method: 'unknown',
      brand: 'unknown',
      amount: 1000,
      charged: -1000,
    });
  });
});

const OUTCOMES: DayOutcome[] = [
  'confirmed',
  'approved',
  'needs-refund',
  'dead-letter',
  'declined',
  'undone',
  'refunded',
  'cancelled',
  'failed',
  'in-progress',
];

describe('the day report adds up', () => {
  it('net = Σ charged = Σ by method = Σ by brand = Σ by product; counts cover every line (1000 runs)', () => {
    const line = fc.record({
      kind: fc.constantFrom('sale', 'qr', 'pix', 'void'),
      method: fc.constantFrom('credit', 'debit', 'wallet-qr', 'pix'),
      brand: fc.constantFrom('1', '2', 'wallet', 'unknown'),
      product: fc.constantFrom('10', '20', 'pix'),
      outcome: fc.constantFrom(...OUTCOMES),
      voided: fc.boolean(),
      amount: fc.integer({ min: 1, max: 10_000_000 }),
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), (raw) => {
        const lines: DayLine[] = raw.map((r, i) => {
          const outcome: DayOutcome = r.kind === 'void' ? (r.voided ? 'voided' : 'void-failed') : r.outcome;
          const charged =
            r.kind === 'void'
              ? outcome === 'voided'
                ? -r.amount
                : 0
              : ['confirmed', 'approved', 'needs-refund', 'dead-letter'].includes(outcome)
                ? r.amount
                : 0;
          return {
            id: i,
            kind: r.kind,
            merchantOrderId: String(i),
            method: r.method,
            brand: r.brand,
            product: r.product,
            state: outcome,
            outcome,
            amount: r.amount,
            charged,
            createdAt: '2026-11-22T12:00:00.000Z',
          };
        });
        const rep = buildDayReport({ date: '2026-11-22', from: new Date(0), to: new Date(1), now: new Date(0), lines });
        const sum = (g: Record<string, { net: number }>) => Object.values(g).reduce((a, x) => a + x.net, 0);
        const charged = lines.reduce((a, l) => a + l.charged, 0);
        const counted = Object.values(rep.counts.byOutcome).reduce((a, n) => a + (n ?? 0), 0);
        return (
          rep.totals.net === charged &&
          sum(rep.totals.byMethod) === charged &&
          sum(rep.totals.byBrand) === charged &&
          sum(rep.totals.byProduct) === charged &&
          counted === lines.length &&
          rep.counts.sales + rep.counts.voids === lines.length
        );
      }),
      { numRuns: 1000, seed: SEED },
    );
  });
});

describe('the day book on a real database', () => {
  it('reports only the business day asked, closes once (printed once), refuses a day not begun, and the archive cannot change', async () => {
    const db = openStore();
    const journal = new Journal(db);
    const clock = new FakeClock('2026-11-22T20:00:00.000Z');
    const open = (id: string, at: string, amount: number) =>
      journal.open({
        kind: 'sale',
        merchantOrderId: id,
        state: 'confirmed',
        amount,
        data: { request: { method: 'credit' }, card: { maskedPan: '476173******0060', brandId: 1, productId: 10 } },
        input: 'test',
        at: new Date(at),
      });
    open('1', '2026-11-22T02:59:59.999Z', 100); // 23:59:59 the day before, host time
    open('2', '2026-11-22T03:00:00.000Z', 200); // 00:00 host time: the day's first instant
    open('3', '2026-11-23T02:59:00.000Z', 400); // 23:59 host time
    open('4', '2026-11-23T03:00:00.000Z', 800); // the next day
    const printed: unknown[] = [];
    const book = new DayBook({
      db,
      journal,
      clock,
      log: createLogger({ level: 'silent' }),
      environment: 'sandbox',
      print: (doc) => (printed.push(doc), Promise.resolve('printed')),
      columns: 42,
    });
    expect(book.today()).toBe('2026-11-22');
    const live = book.report();
    expect(live.lines.map((l) => l.merchantOrderId)).toEqual(['2', '3']);
    expect(live.totals.net).toBe(600);
    expect(live.closedAt).toBeNull();
    expect(book.report('2026-11-21').totals.net).toBe(100);
    const closed = await book.close();
    expect(closed).toMatchObject({
      date: '2026-11-22',
      alreadyClosed: false,
      printOutcome: 'printed',
      closedAt: '2026-11-22T20:00:00.000Z',
    });
    // A row landing later in the same day does not change the closed day's report.
    open('5', '2026-11-22T21:00:00.000Z', 1600);
    clock.advance(3_600_000);
    const [a, b] = await Promise.all([book.close('2026-11-22'), book.close()]);
    expect(a.alreadyClosed && b.alreadyClosed).toBe(true);
    expect(book.report('2026-11-22').totals.net).toBe(600);
    expect(printed).toHaveLength(1);
    await expect(book.close('2026-11-24')).rejects.toMatchObject({ code: 'OPERATIONS_DAY_NOT_CLOSABLE' });
    expect(() => db.prepare("UPDATE day_closes SET closed_at = 'x'").run()).toThrow(/immutable/);
    expect(() => db.prepare('DELETE FROM day_closes').run()).toThrow(/immutable/);
    db.close();
  });
});
