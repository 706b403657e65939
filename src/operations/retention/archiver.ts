import type { Clock, Logger } from '../../core/index.js';
import type { ReceiptFacts } from '../../receipt/index.js';
import {
  deleteDayFile,
  listDayFiles,
  writeDayFile,
  type Db,
  type Journal,
  type JournalEntry,
} from '../../store/index.js';
import { DayArchive, type DayClose } from '../day/archive.js';
import { businessDateOf, businessDayBounds, type BusinessDate } from '../day/business-day.js';
import { heldJournalIds } from './settled.js';

/** An outbox task as the archive keeps it: what became of it, never its payload. */
export interface ArchivedTask {
  operation: string;
  idempotencyKey: string;
  attempts: number;
  doneAt: string | null;
  deadLetterReason: string | null;
  createdAt: string;
}

/** One payment of an archived day: its row, every transition, its outbox tasks and its receipt's facts. */
export interface ArchivedPayment {
  entry: JournalEntry;
  transitions: { seq: number; from: string | null; to: string; input: string; at: string }[];
  outbox: ArchivedTask[];
  /** What its receipt is built from (src/receipt), when it had one. */
  receipt?: ReceiptFacts;
}

/** One archive file's document (`omnipos-day/1`). */
export interface ArchivedDay {
  format: 'omnipos-day/1';
  date: BusinessDate;
  archivedAt: string;
  close: DayClose;
  payments: ArchivedPayment[];
}

export interface RetentionOptions {
  db: Db;
  journal: Journal;
  /** `<stateDir>/archive`. */
  archiveDir: string;
  /** Host time (the business days follow it). */
  clock: Clock;
  log: Logger;
  /** Days a closed day stays whole in the database after its date. */
  databaseDays: number;
  /** Days an archived day is kept in its file after its date. */
  archiveDays: number;
  /** The facts of a payment's receipt, when it has one (the engines rebuild them from the journal). */
  receiptOf?: (entry: JournalEntry) => ReceiptFacts | undefined;
}

/** What one archive step did. */
export interface ArchiveOutcome {
  date: BusinessDate;
  archived: boolean;
  /** Journal ids that may still move money: the day stays whole while any is there. */
  held: number[];
  payments: number;
  bytes: number;
}

const DAY_MS = 86_400_000;

function addDays(date: BusinessDate, days: number): BusinessDate {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The retention of closed days (docs/operations.md, "Retention"): a closed day whose every payment
 * is settled moves, `databaseDays` after its date, to its archive file, and leaves the database in
 * one transaction once the file is durable; the file goes `archiveDays` after the date. Nothing
 * that may still move money leaves: a day holding such a row stays whole.
 */
export class DayRetention {
  readonly #o: RetentionOptions;
  readonly #closes: DayArchive;

  constructor(o: RetentionOptions) {
    this.#o = o;
    this.#closes = new DayArchive(o.db);
  }

  /** The last business date whose days may leave the database today. */
  #lastDue(): BusinessDate {
    return addDays(businessDateOf(this.#o.clock.now()), -this.#o.databaseDays);
  }

  /** Closed days past their database period and not archived yet, oldest first. */
  dueDays(limit = 30): BusinessDate[] {
    return (
      this.#o.db
        .prepare(
          `SELECT business_date AS d FROM day_closes WHERE business_date <= ?
             AND business_date NOT IN (SELECT business_date FROM day_archives) ORDER BY business_date LIMIT ?`,
        )
        .all(this.#lastDue(), limit) as { d: string }[]
    ).map((r) => r.d);
  }

  /**
   * Business days past their database period that hold payments and were never closed (nobody
   * closed them on the terminal), oldest first: retention closes them so they can leave (their
   * payments still stay while any may move money). Walks the oldest rows a day at a time.
   */
  unclosedDueDays(limit = 1): BusinessDate[] {
    const { db } = this.#o;
    const end = businessDayBounds(this.#lastDue()).to.toISOString();
    const out: BusinessDate[] = [];
    let from = '';
    for (let i = 0; i < 10 && out.length < limit; i++) {
      const row = db
        .prepare('SELECT min(created_at) AS c FROM journal WHERE created_at >= ? AND created_at < ?')
        .get(from, end) as { c: string | null };
      if (row.c === null) break;
      const date = businessDateOf(new Date(row.c));
      const known = db
        .prepare(
          'SELECT 1 FROM day_closes WHERE business_date = ? UNION ALL SELECT 1 FROM day_archives WHERE business_date = ?',
        )
        .get(date, date);
      if (known === undefined) out.push(date);
      from = businessDayBounds(date).to.toISOString();
    }
    return out;
  }

  #rows(date: BusinessDate): number[] {
    const { from, to } = businessDayBounds(date);
    return (
      this.#o.db
        .prepare('SELECT id FROM journal WHERE created_at >= ? AND created_at < ? ORDER BY id')
        .all(from.toISOString(), to.toISOString()) as { id: number }[]
    ).map((r) => r.id);
  }

  #payment(id: number): ArchivedPayment {
    const { db, journal, receiptOf } = this.#o;
    const entry = journal.get(id) as JournalEntry;
    const outbox = (
      db
        .prepare(
          'SELECT operation, idempotency_key, attempts, done_at, dead_letter_reason, created_at FROM outbox WHERE journal_id = ? ORDER BY id',
        )
        .all(id) as {
        operation: string;
        idempotency_key: string;
        attempts: number;
        done_at: string | null;
        dead_letter_reason: string | null;
        created_at: string;
      }[]
    ).map((t) => ({
      operation: t.operation,
      idempotencyKey: t.idempotency_key,
      attempts: t.attempts,
      doneAt: t.done_at,
      deadLetterReason: t.dead_letter_reason,
      createdAt: t.created_at,
    }));
    const receipt = receiptOf?.(entry);
    return { entry, transitions: journal.transitions(id), outbox, ...(receipt ? { receipt } : {}) };
  }

  /**
   * Archives one closed day and removes it from the database, unless a row of it may still move
   * money (then nothing changes and `held` names the rows). The file is written and synced before
   * the database forgets anything; the removal is one transaction.
   */
  archiveDay(date: BusinessDate, held: Set<number> = heldJournalIds(this.#o.db)): ArchiveOutcome {
    const { db, archiveDir, clock, log } = this.#o;
    const close = this.#closes.get(date);
    if (!close) return { date, archived: false, held: [], payments: 0, bytes: 0 };
    const ids = this.#rows(date);
    const holding = ids.filter((id) => held.has(id));
    if (holding.length > 0) return { date, archived: false, held: holding, payments: ids.length, bytes: 0 };
    const doc: ArchivedDay = {
      format: 'omnipos-day/1',
      date,
      archivedAt: clock.now().toISOString(),
      close,
      payments: ids.map((id) => this.#payment(id)),
    };
    const file = writeDayFile(archiveDir, date, doc);
    db.transaction(() => {
      db.prepare(
        'INSERT INTO day_archives (business_date, sha256, bytes, payments, archived_at) VALUES (?, ?, ?, ?, ?)',
      ).run(date, file.sha256, file.bytes, ids.length, doc.archivedAt);
      const del = {
        outbox: db.prepare('DELETE FROM outbox WHERE journal_id = ?'),
        journal: db.prepare('DELETE FROM journal WHERE id = ?'),
      };
      for (const id of ids) {
        del.outbox.run(id);
        del.journal.run(id);
      }
      db.prepare('DELETE FROM day_closes WHERE business_date = ?').run(date);
    }).immediate();
    log.info({ date, payments: ids.length, bytes: file.bytes, sha256: file.sha256 }, 'closed day archived');
    return { date, archived: true, held: [], payments: ids.length, bytes: file.bytes };
  }

  /** Deletes the archive files past their own period; returns the dates deleted. */
  expire(): BusinessDate[] {
    const { db, archiveDir, clock, log } = this.#o;
    const last = addDays(businessDateOf(clock.now()), -this.#o.archiveDays);
    const gone: BusinessDate[] = [];
    for (const f of listDayFiles(archiveDir)) {
      if (f.date > last) break;
      deleteDayFile(archiveDir, f.date);
      db.prepare('UPDATE day_archives SET deleted_at = ? WHERE business_date = ?').run(
        clock.now().toISOString(),
        f.date,
      );
      gone.push(f.date);
    }
    if (gone.length > 0) log.info({ from: gone[0], to: gone.at(-1), days: gone.length }, 'archived days deleted');
    return gone;
  }

  /**
   * What else the database keeps only for a while, past the same period: delivered alarm webhooks,
   * done outbox tasks of no payment, the event stream's days before yesterday. Returns rows removed.
   */
  pruneSideTables(): number {
    const { db, clock } = this.#o;
    const before = new Date(clock.now().getTime() - this.#o.databaseDays * DAY_MS).toISOString();
    const yesterday = addDays(businessDateOf(clock.now()), -1);
    return db.transaction(
      () =>
        db.prepare('DELETE FROM alarm_webhooks WHERE delivered_at IS NOT NULL AND delivered_at < ?').run(before)
          .changes +
        db.prepare('DELETE FROM outbox WHERE journal_id IS NULL AND done_at IS NOT NULL AND done_at < ?').run(before)
          .changes +
        db.prepare('DELETE FROM api_events WHERE business_day < ?').run(yesterday).changes,
    )();
  }

  /**
   * One bounded pass, for outside sales: up to `maxDays` due days archived (the held ones skipped),
   * the expired files deleted, the side tables pruned.
   */
  step(maxDays = 1): { archived: ArchiveOutcome[]; heldDays: ArchiveOutcome[]; expired: BusinessDate[] } {
    const held = heldJournalIds(this.#o.db);
    const archived: ArchiveOutcome[] = [];
    const heldDays: ArchiveOutcome[] = [];
    for (const date of this.dueDays()) {
      if (archived.length >= maxDays) break;
      const out = this.archiveDay(date, held);
      (out.archived ? archived : heldDays).push(out);
    }
    const expired = this.expire();
    this.pruneSideTables();
    return { archived, heldDays, expired };
  }
}

/** One archived day's document read back (checksum verified), or undefined when it has no file. */
export function isArchivedDay(v: unknown): v is ArchivedDay {
  return (v as { format?: unknown } | null)?.format === 'omnipos-day/1';
}
