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
 * A saved token as the host keeps it: the store it belongs to (ws15:986), the card's keyed digest, the
 * scheme of the manual's test card it is (none: a card outside the test table), the scheme it was saved with.
 */
export interface Ws15Token {
  affiliation: string;
  pan: string;
  testBandeira?: string;
  bandeira?: string;
}

/**
 * The host's saved tokens, kept in the sandbox's SQLite file (migration 7, `ws15_tokens`) as its
 * transactions are, so a restart forgets none (the real host keeps them); written as each is saved.
 * Without a database, the host's memory alone.
 */
export class Ws15Tokens {
  readonly #db: Db | undefined;
  readonly #memory = new Map<string, Ws15Token>();

  constructor(db?: Db) {
    this.#db = db;
  }

  get(code: string): Ws15Token | undefined {
    if (!this.#db) return this.#memory.get(code);
    const row = this.#db
      .prepare('SELECT affiliation, pan, test_bandeira, bandeira FROM ws15_tokens WHERE code = ?')
      .get(code) as
      { affiliation: string; pan: string; test_bandeira: string | null; bandeira: string | null } | undefined;
    if (!row) return undefined;
    return {
      affiliation: row.affiliation,
      pan: row.pan,
      ...(row.test_bandeira !== null ? { testBandeira: row.test_bandeira } : {}),
      ...(row.bandeira !== null ? { bandeira: row.bandeira } : {}),
    };
  }

  set(code: string, t: Ws15Token): void {
    if (!this.#db) {
      this.#memory.set(code, t);
      return;
    }
    this.#db
      .prepare(
        `INSERT INTO ws15_tokens (code, affiliation, pan, test_bandeira, bandeira) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(code) DO UPDATE SET bandeira = COALESCE(excluded.bandeira, ws15_tokens.bandeira)`,
      )
      .run(code, t.affiliation, t.pan, t.testBandeira ?? null, t.bandeira ?? null);
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
