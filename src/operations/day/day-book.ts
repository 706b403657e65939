import type { Clock, Logger } from '../../core/index.js';
import { OmniposError } from '../../core/index.js';
import type { ReceiptColumns, ReceiptDocument } from '../../receipt/index.js';
import type { Db, Journal, JournalEntry } from '../../store/index.js';
import { DayArchive, type DayClose } from './archive.js';
import { businessDateOf, businessDayBounds, parseBusinessDate, type BusinessDate } from './business-day.js';
import { dayLine } from './lines.js';
import { dayReportDocument } from './print.js';
import { buildDayReport, type DayReport } from './report.js';
import { readArchivedDay } from '../retention/read.js';

/** Prints a document on the receipt printer; says what became of it. */
export type DocumentPrinter = (doc: ReceiptDocument) => Promise<'printed' | 'skipped' | 'failed' | 'unsure'>;

export interface DayBookDeps {
  db: Db;
  journal: Journal;
  /** Host time (HostClock): business days follow the host's. */
  clock: Clock;
  log: Logger;
  /** Where the close is printed; none: the close is archived without paper. */
  print?: DocumentPrinter | undefined;
  columns?: ReceiptColumns;
  environment: string;
  terminalId?: string;
  /** The archive of closed days (`<stateDir>/archive`): a day gone from the database is read there. */
  archiveDir?: string | undefined;
}

/** What `close` answers: the close, and whether it was made now or found archived. */
export interface DayCloseResult extends DayClose {
  alreadyClosed: boolean;
}

/**
 * The business day: its report (live for an open day, the archived one for a closed day) and its
 * close, which prints the report and archives it once. Reads the journal only.
 */
export class DayBook {
  readonly archive: DayArchive;
  #closing: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: DayBookDeps) {
    this.archive = new DayArchive(deps.db);
  }

  /** Today, host time. */
  today(): BusinessDate {
    return businessDateOf(this.deps.clock.now());
  }

  /** The journal rows opened during the day, oldest first. */
  entries(date: BusinessDate): JournalEntry[] {
    const { from, to } = businessDayBounds(date);
    const ids = this.deps.db
      .prepare('SELECT id FROM journal WHERE created_at >= ? AND created_at < ? ORDER BY id')
      .all(from.toISOString(), to.toISOString()) as { id: number }[];
    return ids.map((r) => this.deps.journal.get(r.id)).filter((e): e is JournalEntry => e !== undefined);
  }

  /** The report as of now (an open day), without looking at the archive. */
  live(date: BusinessDate, closedAt?: Date): DayReport {
    const { from, to } = businessDayBounds(date);
    const { journal } = this.deps;
    const saleOf = (ref: { id?: number; merchantOrderId?: string }): JournalEntry | undefined =>
      (ref.id !== undefined ? journal.get(ref.id) : undefined) ??
      (ref.merchantOrderId ? journal.byMerchantOrderId(ref.merchantOrderId) : undefined);
    const lines = this.entries(date).map((e) => dayLine(e, saleOf));
    const report = buildDayReport({
      date,
      from,
      to,
      now: this.deps.clock.now(),
      lines,
      ...(closedAt ? { closedAt } : {}),
    });
    const open = this.#preAuthorizationsOpen();
    return open.length > 0 ? { ...report, preAuthorizationsOpen: open } : report;
  }

  /** Card-not-present pre-authorizations held at the host, uncaptured (of any day), oldest first. */
  #preAuthorizationsOpen(): NonNullable<DayReport['preAuthorizationsOpen']> {
    return this.deps.journal
      .inStates(['authorized', 'capturing'])
      .filter((e) => e.kind === 'cnp')
      .map((e) => ({
        id: e.id,
        merchantOrderId: e.merchantOrderId,
        amount: e.amount,
        state: e.state,
        createdAt: e.createdAt,
      }));
  }

  /**
   * The day's report: the close's when the day is closed (from the database, or from the day's
   * archive file once retention moved it there, checksum verified). `date` defaults to today.
   */
  report(date?: string): DayReport {
    const day = date === undefined ? this.today() : parseBusinessDate(date);
    const close = this.closed(day);
    if (!close) return this.live(day);
    const now = this.live(day).lines;
    // Payments of the same business day opened after the close: accounted beside the close, never lost.
    const late = now.filter((l) => l.createdAt > close.closedAt);
    // Payments the close counted in another outcome (still running, or undoing, at the close): as they are now.
    const before = new Map(close.report.lines.map((l) => [l.id, l]));
    const settled = now.filter((l) => {
      const was = before.get(l.id);
      return l.createdAt <= close.closedAt && was !== undefined && was.outcome !== l.outcome;
    });
    if (late.length === 0 && settled.length === 0) return close.report;
    const { from, to } = businessDayBounds(day);
    const after = buildDayReport({ date: day, from, to, now: this.deps.clock.now(), lines: late });
    // What the settled payments charge now less what the close counted them charging.
    const moved = settled.reduce((sum, l) => sum + l.charged - (before.get(l.id)?.charged ?? 0), 0);
    return {
      ...close.report,
      afterClose: {
        since: close.closedAt,
        sales: after.counts.sales,
        voids: after.counts.voids,
        net: after.totals.net + moved,
        lines: late,
        ...(settled.length > 0 ? { settled } : {}),
      },
    };
  }

  /** The day's close, from the database or the archive file; undefined while it is open. */
  closed(day: BusinessDate): DayClose | undefined {
    const dir = this.deps.archiveDir;
    return this.archive.get(day) ?? (dir !== undefined ? readArchivedDay(dir, day)?.close : undefined);
  }

  /** The report laid out for the printer. */
  document(report: DayReport): ReceiptDocument {
    return dayReportDocument(report, {
      columns: this.deps.columns ?? 48,
      environment: this.deps.environment,
      ...(this.deps.terminalId ? { terminalId: this.deps.terminalId } : {}),
    });
  }

  /**
   * Closes the day (default today): prints the report (unless `print: false`) and archives it.
   * Closing a closed day answers the archived close and prints nothing. A day that has not begun
   * is refused.
   */
  close(date?: string, o: { print?: boolean } = {}): Promise<DayCloseResult> {
    const run = this.#closing.then(() => this.#close(date, o.print ?? true));
    this.#closing = run.catch(() => undefined);
    return run;
  }

  async #close(date: string | undefined, paper: boolean): Promise<DayCloseResult> {
    const day = date === undefined ? this.today() : parseBusinessDate(date);
    const stored = this.closed(day);
    if (stored) return { ...stored, alreadyClosed: true };
    if (this.deps.db.prepare('SELECT 1 FROM day_archives WHERE business_date = ?').get(day))
      throw new OmniposError(
        'OPERATIONS_DAY_NOT_CLOSABLE',
        `day ${day}: it was closed and archived, and its archive's period is over`,
        { date: day },
      );
    if (day > this.today())
      throw new OmniposError(
        'OPERATIONS_DAY_NOT_CLOSABLE',
        `day ${day}: it has not begun (today is ${this.today()}, host time)`,
        { date: day },
      );
    const closedAt = this.deps.clock.now();
    const report = this.live(day, closedAt);
    let printOutcome: string | null = null;
    if (this.deps.print && paper) {
      printOutcome = await this.deps.print(this.document(report)).catch((e: unknown) => {
        this.deps.log.warn({ err: e, date: day }, 'the day close did not print');
        return 'failed' as const;
      });
    }
    const { close, stored: fresh } = this.archive.put({
      date: day,
      closedAt: closedAt.toISOString(),
      report,
      printOutcome,
    });
    this.deps.log.info(
      { date: day, net: close.report.totals.net, lines: close.report.lines.length, printOutcome },
      'day closed',
    );
    return { ...close, alreadyClosed: !fresh };
  }
}
