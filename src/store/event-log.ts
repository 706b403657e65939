import { readFileSync } from 'node:fs';
import type { Db } from './open.js';
import { assertNoCardData } from './no-card-data.js';
import { statement } from './statements.js';
import { beforeEachTransaction, unsynced } from './write-health.js';

/** At most this many events are written between two durable commits of the event log's own. */
export const EVENTS_PER_SYNC = 64;

const WITHHELD = '{"withheld":true}';

/** An event's row: checked for card data (throws STORE_SENSITIVE_DATA); the seq's place kept (0 until read back), so a replayed event reads as it was sent. */
function rowBody(body: Record<string, unknown>): string {
  assertNoCardData(body, 'api_events.body');
  return JSON.stringify({ ...body, seq: 0 });
}

/** One event as the stream sent it: its seq, and the JSON object of its `data:` line. */
export interface LoggedEvent {
  seq: number;
  body: Record<string, unknown>;
}

/**
 * The events `GET /v1/events` sends, kept for the business day in the terminal's database so a
 * client that reconnects with `Last-Event-ID` gets what it missed, even across a restart. The
 * seq is the table's AUTOINCREMENT key: it grows across restarts and is never given twice.
 * Nothing with card data is written (the same guard as the journal's).
 *
 * An event is a copy of what the journal already holds (a payment's state, a prompt, an alarm),
 * not a step that must survive a power cut: it is written to the WAL at once (a killed process
 * loses none) but synced to the device only with the next durable commit, the journal's or every
 * {@link EVENTS_PER_SYNC}th of its own, instead of an fsync of its own (about half a sale's fsyncs
 * before). The WAL is replayed only up to its last synced frame, so a power cut can lose at most
 * the events after the last sync, never a journal commit, and never more than EVENTS_PER_SYNC − 1
 * of them: each start moves the seq that far ahead, so a seq that was sent and then lost is never
 * given again (the client that holds it is told what came after).
 *
 * Only a power cut (or a kernel crash) loses WAL frames; a killed process does not. So a start
 * knows which seqs may have been sent and then lost: those after the last kept, when the run
 * before did not stop cleanly ({@link EventLog.stop}) and the machine has booted since (Linux's
 * boot id). It records them, and a replay that reaches over them says partial
 * ({@link EventLog.lostWithin}).
 */
export class EventLog {
  readonly #db: Db;
  #sinceSync = 0;
  /** Whether this start moved the seq ahead; until it has, every event is synced (nothing to take back). */
  readonly #leaped: boolean;
  /** After a clean stop every event is synced: the run says it lost none. */
  #stopped = false;
  /** Writes what a publisher holds back (see {@link flushBefore}). */
  #flush: (() => void) | undefined;
  /**
   * When this start could not move the seq ahead after a possible power cut: the seqs a power cut may have taken
   * back, which this run gives again to other events (kept in memory: the disk took no record).
   */
  #reused: { after: number; through: number } | undefined;

  /**
   * A start: the seqs a power cut may have taken back are recorded, and the seq moves past them
   * (see the class), in one durable commit. `bootId`: this boot's (default: the kernel's).
   */
  constructor(db: Db, options: { bootId?: string } = {}) {
    this.#db = db;
    const boot = options.bootId ?? currentBootId();
    let leaped = false;
    try {
      db.transaction(() => this.#start(boot)).immediate();
      leaped = true;
    } catch {
      // A full or failing disk: the daemon still starts (the write alarm says why); events are synced one by one.
      // The seq did not move ahead, so the seqs a power cut took back are given again to other events: every seq
      // after the last kept is one a client may hold with another meaning, and a replay over it says partial.
      try {
        const last = this.lastSeq();
        if (this.#mayHaveLost(boot)) this.#reused = { after: last, through: last + EVENTS_PER_SYNC };
      } catch {
        this.#reused = { after: 0, through: Number.MAX_SAFE_INTEGER }; // nothing can be read: no replay is complete
      }
    }
    this.#leaped = leaped;
  }

  /** Whether the run before this start may have had events taken back by a power cut (see the class). */
  #mayHaveLost(boot: string): boolean {
    const last = this.lastSeq();
    const run = statement(this.#db, 'SELECT boot_id AS boot, clean FROM api_event_run WHERE id = 1').get() as
      { boot: string; clean: number } | undefined;
    // No run recorded (a database from before the record) or an unknown boot: taken as lost.
    return last > 0 && (run === undefined || (run.clean === 0 && (boot === '' || run.boot !== boot)));
  }

  #start(boot: string): void {
    const last = this.lastSeq();
    if (this.#mayHaveLost(boot))
      statement(this.#db, 'INSERT OR IGNORE INTO api_event_gaps (after_seq, through_seq) VALUES (?, ?)').run(
        last,
        last + EVENTS_PER_SYNC,
      );
    statement(this.#db, "UPDATE sqlite_sequence SET seq = seq + ? WHERE name = 'api_events'").run(EVENTS_PER_SYNC);
    statement(this.#db, 'INSERT OR REPLACE INTO api_event_run (id, boot_id, clean) VALUES (1, ?, 0)').run(boot);
  }

  /**
   * A clean stop: one durable commit syncs every event written and says the run lost none; an
   * event after it is synced on its own. A failing disk leaves the run unclean (a later start
   * after a reboot then calls its last seqs lost: partial, never a false complete).
   */
  stop(): void {
    this.#flush?.();
    this.#stopped = true;
    try {
      statement(this.#db, 'UPDATE api_event_run SET clean = 1 WHERE id = 1').run();
    } catch {
      // the run stays unclean
    }
  }

  /** Whether a seq after `after` and at most `upTo` may have been sent and then taken back by a power cut. */
  lostWithin(after: number, upTo: number): boolean {
    if (this.#reused && this.#reused.after < upTo && this.#reused.through > after) return true;
    return (
      statement(this.#db, 'SELECT 1 FROM api_event_gaps WHERE after_seq < ? AND through_seq > ? LIMIT 1').get(
        upTo,
        after,
      ) !== undefined
    );
  }

  /** Writes `body` (its `seq` is the row's) and returns the seq given. Throws STORE_SENSITIVE_DATA, writing nothing, for card data. */
  append(businessDay: string, at: string, body: Record<string, unknown>): number {
    return this.#commit(businessDay, [{ at, body: rowBody(body) }])[0] as number;
  }

  /**
   * Seqs `after` + 1 … `through` were sent live only, the database refusing them (a full or failing disk): the
   * next seq given moves past them, so none names two events, and a replay over them says partial. One commit;
   * throws while the database still refuses (the hub tries again before its next event).
   */
  passLive(after: number, through: number): void {
    this.#db.transaction(() => {
      statement(
        this.#db,
        'INSERT INTO api_event_gaps (after_seq, through_seq) VALUES (?, ?) ON CONFLICT (after_seq) DO UPDATE SET through_seq = max(through_seq, excluded.through_seq)',
      ).run(after, through);
      if (
        statement(this.#db, "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'api_events'").run(through)
          .changes === 0
      )
        statement(this.#db, "INSERT INTO sqlite_sequence (name, seq) VALUES ('api_events', ?)").run(through);
    })();
  }

  /** Takes a seq for an event that may not be kept (the guard refused it): the row says only `withheld`. */
  withhold(businessDay: string, at: string): number {
    return this.#commit(businessDay, [{ at, body: WITHHELD }])[0] as number;
  }

  /**
   * Writes the events in one commit (one WAL append of the pages they share, not one per event),
   * in order, and returns their seqs. An event with card data takes its seq as a withheld row.
   */
  appendAll(businessDay: string, events: readonly { at: string; body: Record<string, unknown> }[]): number[] {
    return this.#commit(
      businessDay,
      events.map((e) => {
        try {
          return { at: e.at, body: rowBody(e.body) };
        } catch {
          return { at: e.at, body: WITHHELD };
        }
      }),
    );
  }

  /**
   * Rows in one commit, without an fsync of its own, except the first seq ever given (before it the
   * sequence has no row for a start to move), the commit that brings the events since the last sync
   * to EVENTS_PER_SYNC, any after a clean stop, and rows written inside a transaction (they commit with it).
   */
  #commit(businessDay: string, rows: readonly { at: string; body: string }[]): number[] {
    // Inside a transaction the rows commit with it (and SQLite keeps the safety level as it is).
    const durable =
      !this.#leaped ||
      this.#stopped ||
      this.#db.inTransaction ||
      this.#sinceSync + rows.length >= EVENTS_PER_SYNC ||
      this.lastSeq() === 0;
    if (!durable) this.#db.pragma('synchronous = NORMAL');
    try {
      const insert = statement(this.#db, 'INSERT INTO api_events (business_day, at, body) VALUES (?, ?, ?)');
      const write = this.#db.transaction(() =>
        rows.map((r) => Number(insert.run(businessDay, r.at, r.body).lastInsertRowid)),
      );
      // A commit without an fsync is no sign that the device writes (write health waits for a durable one).
      const seqs = durable ? write() : unsynced(this.#db, () => write());
      this.#sinceSync = durable ? 0 : this.#sinceSync + rows.length;
      return seqs;
    } finally {
      if (!durable) this.#db.pragma('synchronous = FULL');
    }
  }

  /**
   * Calls `flush` before each transaction on the database begins, and before a clean stop: whoever
   * holds events back to write them in one commit writes them there, outside the transaction (an
   * event held from before it would otherwise commit, or roll back, with it).
   */
  flushBefore(flush: () => void): void {
    this.#flush = flush;
    beforeEachTransaction(this.#db, flush);
  }

  /** Whether a transaction is open on the database: rows written now commit (or roll back) with it. */
  inTransaction(): boolean {
    return this.#db.inTransaction;
  }

  /**
   * Whether row `seq` holds `body` as it was written (or withheld): false once the transaction that
   * wrote it rolled back (a later row may have taken its seq again, with another body).
   */
  holds(seq: number, body: Record<string, unknown>): boolean {
    let expected: string;
    try {
      expected = rowBody(body);
    } catch {
      expected = WITHHELD;
    }
    const row = statement(this.#db, 'SELECT body FROM api_events WHERE seq = ?').get(seq) as
      { body: string } | undefined;
    return row?.body === expected;
  }

  /** The day's events after `seq` (and at most `upTo`), oldest first, at most `limit`. */
  since(businessDay: string, seq: number, limit: number, upTo = Number.MAX_SAFE_INTEGER): LoggedEvent[] {
    return (
      statement(
        this.#db,
        'SELECT seq, body FROM api_events WHERE business_day = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?',
      ).all(businessDay, seq, upTo, limit) as { seq: number; body: string }[]
    ).map((r) => {
      const body = JSON.parse(r.body) as Record<string, unknown>;
      body.seq = r.seq;
      return { seq: r.seq, body };
    });
  }

  /**
   * How many of the day's events after `seq` (at most `upTo`, the first `limit` of them) there are,
   * and how many of those are withheld: counted in SQLite, nothing read into memory.
   */
  countSince(businessDay: string, seq: number, upTo: number, limit: number): { rows: number; withheld: number } {
    const r = statement(
      this.#db,
      `SELECT count(*) AS n, coalesce(sum(body = '{"withheld":true}'), 0) AS w FROM
         (SELECT body FROM api_events WHERE business_day = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?)`,
    ).get(businessDay, seq, upTo, limit) as { n: number; w: number };
    return { rows: r.n, withheld: r.w };
  }

  /** The day's first seq, and the last seq ever given (0 for none). */
  bounds(businessDay: string): { first: number | undefined; last: number } {
    const first = (
      statement(this.#db, 'SELECT seq AS s FROM api_events WHERE business_day = ? ORDER BY seq LIMIT 1').get(
        businessDay,
      ) as { s: number } | undefined
    )?.s;
    return { first, last: this.lastSeq() };
  }

  /** The last seq ever given (0 for none), whatever its day. */
  lastSeq(): number {
    return (
      (
        statement(this.#db, "SELECT seq AS s FROM sqlite_sequence WHERE name = 'api_events'").get() as
          { s: number } | undefined
      )?.s ?? 0
    );
  }

  /**
   * Forgets the days before `businessDay`; returns how many events went. A lost range before the
   * first event kept goes too: a replay from before it is partial anyway (an earlier day's id).
   */
  pruneBefore(businessDay: string): number {
    const gone = statement(this.#db, 'DELETE FROM api_events WHERE business_day < ?').run(businessDay).changes;
    statement(
      this.#db,
      'DELETE FROM api_event_gaps WHERE through_seq < coalesce((SELECT min(seq) FROM api_events), ?)',
    ).run(this.lastSeq() + 1);
    return gone;
  }
}

/** This boot's id (Linux: a random id the kernel draws at each boot); '' when unknown. */
export function currentBootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}
