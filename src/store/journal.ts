import { OmniposError } from '../core/index.js';
import { assertNoCardData } from './no-card-data.js';
import type { Db } from './open.js';
import { statement } from './statements.js';
import { writeFailure } from './write-health.js';

import type { JournalKind } from '../core/index.js';

/** A payment of a kind of src/core/payment-kinds.ts, or a void of one. */
export type { JournalKind };

export interface JournalEntry {
  id: number;
  kind: JournalKind;
  merchantOrderId: string;
  state: string;
  amount: number;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: number;
  kind: JournalKind;
  merchant_order_id: string;
  state: string;
  amount: number;
  data: string;
  created_at: string;
  updated_at: string;
}

function toEntry(r: Row): JournalEntry {
  return {
    id: r.id,
    kind: r.kind,
    merchantOrderId: r.merchant_order_id,
    state: r.state,
    amount: r.amount,
    data: JSON.parse(r.data) as Record<string, unknown>,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface NewEntry {
  kind: JournalKind;
  merchantOrderId: string;
  state: string;
  amount: number;
  data?: Record<string, unknown>;
  input: string;
  at: Date;
}

/**
 * The journal: one row per payment, and every transition of it, each committed before the side
 * effect it announces. Data never holds card data (refused before writing).
 */
/**
 * A new entry's id: above every id the journal holds and every id it ever deleted (migration 15's
 * floor), so an id the cash register was given never names another payment after retention.
 */
const NEXT_ID_INSERT = `INSERT INTO journal (id, kind, merchant_order_id, state, amount, data, created_at, updated_at)
  VALUES (max(coalesce((SELECT max(id) FROM journal), 0), coalesce((SELECT value FROM id_floors WHERE name = 'journal'), 0)) + 1,
          ?, ?, ?, ?, ?, ?, ?)`;

export class Journal {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  open(entry: NewEntry): JournalEntry {
    const data = entry.data ?? {};
    assertNoCardData(data, 'journal.data');
    const at = entry.at.toISOString();
    try {
      return this.#db
        .transaction(() => {
          let id: number;
          try {
            id = Number(
              statement(this.#db, NEXT_ID_INSERT).run(
                entry.kind,
                entry.merchantOrderId,
                entry.state,
                entry.amount,
                JSON.stringify(data),
                at,
                at,
              ).lastInsertRowid,
            );
          } catch (e) {
            if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
              throw new OmniposError(
                'STORE_CONFLICT',
                `MerchantOrderId ${entry.merchantOrderId} is already in the journal`,
                {
                  merchantOrderId: entry.merchantOrderId,
                },
              );
            }
            throw e;
          }
          statement(
            this.#db,
            'INSERT INTO journal_transitions (journal_id, seq, from_state, to_state, input, at) VALUES (?, 1, NULL, ?, ?, ?)',
          ).run(id, entry.state, entry.input, at);
          return this.get(id) as JournalEntry;
        })
        .immediate();
    } catch (e) {
      throw writeFailure(this.#db, e) ?? e;
    }
  }

  /**
   * Moves an entry from `from` to `to`, merging `data` into its data. Fails with STORE_CONFLICT,
   * changing nothing, when the entry is not in `from` any more.
   */
  transition(
    id: number,
    t: { from: string; to: string; input: string; at: Date; data?: Record<string, unknown> },
  ): JournalEntry {
    if (t.data) assertNoCardData(t.data, 'journal.data');
    try {
      return this.#db
        .transaction(() => {
          const current = this.get(id);
          if (!current) throw new OmniposError('STORE_CONFLICT', `journal entry ${id} does not exist`, { id });
          if (current.state !== t.from) {
            throw new OmniposError('STORE_CONFLICT', `journal entry ${id} is ${current.state}, not ${t.from}`, {
              id,
              state: current.state,
              expected: t.from,
            });
          }
          const at = t.at.toISOString();
          const data = { ...current.data, ...(t.data ?? {}) };
          statement(this.#db, 'UPDATE journal SET state = ?, data = ?, updated_at = ? WHERE id = ?').run(
            t.to,
            JSON.stringify(data),
            at,
            id,
          );
          const seq =
            (
              statement(this.#db, 'SELECT max(seq) AS s FROM journal_transitions WHERE journal_id = ?').get(id) as {
                s: number;
              }
            ).s + 1;
          statement(
            this.#db,
            'INSERT INTO journal_transitions (journal_id, seq, from_state, to_state, input, at) VALUES (?, ?, ?, ?, ?, ?)',
          ).run(id, seq, t.from, t.to, t.input, at);
          return this.get(id) as JournalEntry;
        })
        .immediate();
    } catch (e) {
      throw writeFailure(this.#db, e) ?? e;
    }
  }

  get(id: number): JournalEntry | undefined {
    const r = statement(this.#db, 'SELECT * FROM journal WHERE id = ?').get(id) as Row | undefined;
    return r ? toEntry(r) : undefined;
  }

  byMerchantOrderId(merchantOrderId: string): JournalEntry | undefined {
    const r = statement(this.#db, 'SELECT * FROM journal WHERE merchant_order_id = ?').get(merchantOrderId) as
      Row | undefined;
    return r ? toEntry(r) : undefined;
  }

  /** The entry a client's `Idempotency-Key` opened, if any. */
  byIdempotencyKey(key: string): JournalEntry | undefined {
    const r = statement(this.#db, "SELECT * FROM journal WHERE json_extract(data, '$.idempotencyKey') = ?").get(key) as
      Row | undefined;
    return r ? toEntry(r) : undefined;
  }

  /** The newest entries first, optionally only those in `states`. */
  list(options: { states?: readonly string[]; limit?: number } = {}): JournalEntry[] {
    const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
    const states = options.states ?? [];
    const where = states.length > 0 ? `WHERE state IN (${states.map(() => '?').join(',')})` : '';
    return (
      statement(this.#db, `SELECT * FROM journal ${where} ORDER BY id DESC LIMIT ?`).all(...states, limit) as Row[]
    ).map(toEntry);
  }

  /** Entries in any of `states`, oldest first (recovery walks these at start). */
  inStates(states: readonly string[]): JournalEntry[] {
    if (states.length === 0) return [];
    const rows = statement(
      this.#db,
      `SELECT * FROM journal WHERE state IN (${states.map(() => '?').join(',')}) ORDER BY id`,
    ).all(...states) as Row[];
    return rows.map(toEntry);
  }

  transitions(id: number): { seq: number; from: string | null; to: string; input: string; at: string }[] {
    return (
      statement(
        this.#db,
        'SELECT seq, from_state, to_state, input, at FROM journal_transitions WHERE journal_id = ? ORDER BY seq',
      ).all(id) as { seq: number; from_state: string | null; to_state: string; input: string; at: string }[]
    ).map((r) => ({ seq: r.seq, from: r.from_state, to: r.to_state, input: r.input, at: r.at }));
  }
}
