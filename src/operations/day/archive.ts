import type { Db } from '../../store/index.js';
import type { BusinessDate } from './business-day.js';
import type { DayReport } from './report.js';

/** A closed day as archived: the report made at the close, and what the printer said. */
export interface DayClose {
  date: BusinessDate;
  closedAt: string;
  report: DayReport;
  printOutcome: string | null;
}

/**
 * The archive of closed days (table `day_closes`, migration 3): one row per business day, written
 * once; the database refuses to change or delete it.
 */
export class DayArchive {
  constructor(private readonly db: Db) {}

  get(date: BusinessDate): DayClose | undefined {
    const r = this.db
      .prepare('SELECT business_date, closed_at, report, print_outcome FROM day_closes WHERE business_date = ?')
      .get(date) as
      { business_date: string; closed_at: string; report: string; print_outcome: string | null } | undefined;
    return r
      ? {
          date: r.business_date,
          closedAt: r.closed_at,
          report: JSON.parse(r.report) as DayReport,
          printOutcome: r.print_outcome,
        }
      : undefined;
  }

  /** Stores the close; when the day was closed meanwhile, the stored close wins and is returned. */
  put(close: DayClose): { close: DayClose; stored: boolean } {
    return this.db
      .transaction(() => {
        const changes = this.db
          .prepare(
            'INSERT INTO day_closes (business_date, closed_at, report, print_outcome) VALUES (?, ?, ?, ?) ON CONFLICT(business_date) DO NOTHING',
          )
          .run(close.date, close.closedAt, JSON.stringify(close.report), close.printOutcome).changes;
        return { close: this.get(close.date) as DayClose, stored: changes === 1 };
      })
      .immediate();
  }

  /** The closed days, newest first. */
  dates(limit = 60): BusinessDate[] {
    return (
      this.db.prepare('SELECT business_date FROM day_closes ORDER BY business_date DESC LIMIT ?').all(limit) as {
        business_date: string;
      }[]
    ).map((r) => r.business_date);
  }
}
