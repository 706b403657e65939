import { assertNoCardData } from './no-card-data.js';
import type { Db } from './open.js';
import { statement } from './statements.js';

export interface OutboxTask {
  id: number;
  journalId: number | null;
  operation: string;
  idempotencyKey: string;
  payload: Record<string, unknown>;
  attempts: number;
  nextTryAt: string;
  deadlineAt: string | null;
  lastError: string | null;
  deadLetterReason: string | null;
  doneAt: string | null;
  createdAt: string;
}

interface Row {
  id: number;
  journal_id: number | null;
  operation: string;
  idempotency_key: string;
  payload: string;
  attempts: number;
  next_try_at: string;
  deadline_at: string | null;
  last_error: string | null;
  dead_letter_reason: string | null;
  done_at: string | null;
  created_at: string;
}

function toTask(r: Row): OutboxTask {
  return {
    id: r.id,
    journalId: r.journal_id,
    operation: r.operation,
    idempotencyKey: r.idempotency_key,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    attempts: r.attempts,
    nextTryAt: r.next_try_at,
    deadlineAt: r.deadline_at,
    lastError: r.last_error,
    deadLetterReason: r.dead_letter_reason,
    doneAt: r.done_at,
    createdAt: r.created_at,
  };
}

export interface NewTask {
  journalId?: number;
  operation: string;
  /** One task per key: enqueueing the same key again returns the task already there. */
  idempotencyKey: string;
  payload: Record<string, unknown>;
  at: Date;
  nextTryAt?: Date;
  deadlineAt?: Date;
}

/**
 * Requests that must reach the acquirer (confirmations, undos, voids, late-payment checks),
 * kept until delivered or dead-lettered with a named reason. Times are ISO-8601 UTC strings,
 * so text order is time order.
 */
export class Outbox {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  enqueue(task: NewTask): OutboxTask {
    assertNoCardData(task.payload, 'outbox.payload');
    const at = task.at.toISOString();
    statement(
      this.#db,
      `INSERT INTO outbox (journal_id, operation, idempotency_key, payload, next_try_at, deadline_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(idempotency_key) DO NOTHING`,
    ).run(
      task.journalId ?? null,
      task.operation,
      task.idempotencyKey,
      JSON.stringify(task.payload),
      (task.nextTryAt ?? task.at).toISOString(),
      task.deadlineAt?.toISOString() ?? null,
      at,
    );
    return this.byKey(task.idempotencyKey) as OutboxTask;
  }

  byKey(idempotencyKey: string): OutboxTask | undefined {
    const r = statement(this.#db, 'SELECT * FROM outbox WHERE idempotency_key = ?').get(idempotencyKey) as
      Row | undefined;
    return r ? toTask(r) : undefined;
  }

  /** Pending tasks whose next try is due at `now`, soonest first. */
  due(now: Date, limit = 50): OutboxTask[] {
    return (
      statement(
        this.#db,
        `SELECT * FROM outbox WHERE done_at IS NULL AND dead_letter_reason IS NULL AND next_try_at <= ?
           ORDER BY next_try_at, id LIMIT ?`,
      ).all(now.toISOString(), limit) as Row[]
    ).map(toTask);
  }

  /** Replaces a pending task's payload (e.g. the undo race learning the PaymentId). */
  updatePayload(id: number, payload: Record<string, unknown>): void {
    assertNoCardData(payload, 'outbox.payload');
    statement(this.#db, 'UPDATE outbox SET payload = ? WHERE id = ? AND done_at IS NULL').run(
      JSON.stringify(payload),
      id,
    );
  }

  byJournal(journalId: number): OutboxTask[] {
    return (statement(this.#db, 'SELECT * FROM outbox WHERE journal_id = ? ORDER BY id').all(journalId) as Row[]).map(
      toTask,
    );
  }

  /** A failed attempt: counted, its error kept (scrubbed by the caller), tried again at `nextTryAt`. */
  failed(id: number, error: string, nextTryAt: Date): void {
    statement(this.#db, 'UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try_at = ? WHERE id = ?').run(
      error,
      nextTryAt.toISOString(),
      id,
    );
  }

  done(id: number, at: Date): void {
    statement(this.#db, 'UPDATE outbox SET attempts = attempts + 1, done_at = ? WHERE id = ?').run(
      at.toISOString(),
      id,
    );
  }

  /** Only for requests answered with a named permanent code. */
  deadLetter(id: number, reason: string): void {
    statement(this.#db, 'UPDATE outbox SET attempts = attempts + 1, dead_letter_reason = ? WHERE id = ?').run(
      reason,
      id,
    );
  }

  /** Every task still pending and every dead letter, oldest first (for technicians). */
  open(): OutboxTask[] {
    return (statement(this.#db, 'SELECT * FROM outbox WHERE done_at IS NULL ORDER BY id').all() as Row[]).map(toTask);
  }

  /** One task by id (reading a damaged file row by row). */
  get(id: number): OutboxTask | undefined {
    const r = statement(this.#db, 'SELECT * FROM outbox WHERE id = ?').get(id) as Row | undefined;
    return r ? toTask(r) : undefined;
  }

  /** Makes every pending task due at `now`; returns how many. Dead letters stay where they are. */
  flush(now: Date): number {
    return statement(
      this.#db,
      'UPDATE outbox SET next_try_at = ? WHERE done_at IS NULL AND dead_letter_reason IS NULL AND next_try_at > ?',
    ).run(now.toISOString(), now.toISOString()).changes;
  }

  /** How many tasks wait, and the nearest deadline among them (for health and alarms). */
  depth(): { pending: number; deadLetters: number; oldestDeadline: string | null } {
    // Each count reads only its partial index (outbox_due, outbox_dead_letters), never the done tasks.
    const open = statement(
      this.#db,
      `SELECT count(*) AS pending, min(deadline_at) AS oldest
         FROM outbox WHERE done_at IS NULL AND dead_letter_reason IS NULL`,
    ).get() as { pending: number; oldest: string | null };
    const dead = statement(this.#db, 'SELECT count(*) AS n FROM outbox WHERE dead_letter_reason IS NOT NULL').get() as {
      n: number;
    };
    return { pending: open.pending, deadLetters: dead.n, oldestDeadline: open.oldest };
  }
}
