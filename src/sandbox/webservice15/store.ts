import { randomBytes } from 'node:crypto';
import type { Db } from '../db.js';
import type { Ws15Transaction } from './replies.js';

/**
 * The webservice 1.5 host's transactions kept in the sandbox's SQLite file (migration 6,
 * `ws15_transactions`), as the e-commerce host keeps its sales: a terminal killed and restarted
 * with the embedded sandbox queries, captures and cancels what it sent before. A Map to the host
 * (insertion order: the newest under an order number is the last, ws15:1338); a transaction read
 * (`get`, which every change goes through) or added is written back by `flush`, after each message.
 * Without a database it is the host's memory alone (the unit tests' hosts).
 */
export class Ws15Transactions extends Map<string, Ws15Transaction> {
  readonly #db: Db | undefined;
  readonly #touched = new Set<string>();

  constructor(db?: Db) {
    super();
    this.#db = db;
    if (!db) return;
    const rows = db.prepare('SELECT body FROM ws15_transactions ORDER BY rowid').all() as { body: string }[];
    for (const r of rows) {
      const t = revive(JSON.parse(r.body) as Stored);
      super.set(t.tid, t);
    }
  }

  override get(tid: string): Ws15Transaction | undefined {
    const t = super.get(tid);
    if (t) this.#touched.add(tid);
    return t;
  }

  override set(tid: string, t: Ws15Transaction): this {
    this.#touched.add(tid);
    return super.set(tid, t);
  }

  /** Writes what the last message created or read (and may have changed), in one transaction. */
  flush(): void {
    const db = this.#db;
    if (db && this.#touched.size > 0) {
      const upsert = db.prepare(
        'INSERT INTO ws15_transactions (tid, body) VALUES (?, ?) ON CONFLICT(tid) DO UPDATE SET body = excluded.body',
      );
      db.transaction(() => {
        for (const tid of this.#touched) {
          const t = super.get(tid);
          if (t) upsert.run(tid, JSON.stringify(t));
        }
      })();
    }
    this.#touched.clear();
  }
}

/**
 * The host's key of `pan` and of the tokens, kept beside its transactions (the sandbox's `meta`), so
 * the same card still gives the same reference after a restart (ws15:987); a new one without a database.
 */
export function ws15Secret(db?: Db): Buffer {
  if (!db) return randomBytes(32);
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'ws15_secret'`).get() as { value: string } | undefined;
  if (row) return Buffer.from(row.value, 'hex');
  const secret = randomBytes(32);
  db.prepare(`INSERT INTO meta (key, value) VALUES ('ws15_secret', ?)`).run(secret.toString('hex'));
  return secret;
}

/** A transaction as JSON keeps it: its instants as ISO strings. */
type Stored = Omit<Ws15Transaction, 'createdAt' | 'authorization' | 'capture' | 'cancellations'> & {
  createdAt: string;
  authorization: Omit<Ws15Transaction['authorization'], 'at'> & { at: string };
  capture?: { at: string; cents: number };
  cancellations: { at: string; cents: number }[];
};

function revive(s: Stored): Ws15Transaction {
  const { capture, ...rest } = s;
  return {
    ...rest,
    createdAt: new Date(s.createdAt),
    authorization: { ...s.authorization, at: new Date(s.authorization.at) },
    ...(capture ? { capture: { at: new Date(capture.at), cents: capture.cents } } : {}),
    cancellations: s.cancellations.map((c) => ({ at: new Date(c.at), cents: c.cents })),
  };
}
