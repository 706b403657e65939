import type { Migration } from './migration.js';

/**
 * The terminal database's schema, in order. Never edit a released step: add the next one.
 * No column ever holds track data, CVV or a PIN block (PCI DSS 3.3.1); the journal repository
 * refuses such keys before they are written.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'journal, outbox and counters',
    up: `
      CREATE TABLE journal (
        id                INTEGER PRIMARY KEY,
        kind              TEXT NOT NULL CHECK (kind IN ('sale', 'void', 'qr', 'pix')),
        merchant_order_id TEXT NOT NULL UNIQUE CHECK (length(merchant_order_id) BETWEEN 1 AND 15),
        state             TEXT NOT NULL,
        amount            INTEGER NOT NULL CHECK (amount >= 0),
        data              TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
        created_at        TEXT NOT NULL,
        updated_at        TEXT NOT NULL
      ) STRICT;
      CREATE INDEX journal_state ON journal(state);

      CREATE TABLE journal_transitions (
        journal_id INTEGER NOT NULL REFERENCES journal(id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL,
        from_state TEXT,
        to_state   TEXT NOT NULL,
        input      TEXT NOT NULL,
        at         TEXT NOT NULL,
        PRIMARY KEY (journal_id, seq)
      ) STRICT;

      CREATE TABLE outbox (
        id                 INTEGER PRIMARY KEY,
        journal_id         INTEGER REFERENCES journal(id),
        operation          TEXT NOT NULL,
        idempotency_key    TEXT NOT NULL UNIQUE,
        payload            TEXT NOT NULL CHECK (json_valid(payload)),
        attempts           INTEGER NOT NULL DEFAULT 0,
        next_try_at        TEXT NOT NULL,
        deadline_at        TEXT,
        last_error         TEXT,
        dead_letter_reason TEXT,
        done_at            TEXT,
        created_at         TEXT NOT NULL
      ) STRICT;
      CREATE INDEX outbox_due ON outbox(next_try_at) WHERE done_at IS NULL AND dead_letter_reason IS NULL;

      CREATE TABLE counters (
        name  TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `,
  },
];
