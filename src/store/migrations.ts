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
  {
    version: 2,
    name: 'initialization tables, versioned',
    // A version is written beside the one in force (state 'writing', possibly over several
    // transactions) and put in force by one transaction that marks it complete and moves
    // init_current; an interrupted write leaves the previous version in force. Bins are rows (the
    // BIN index is rebuilt from them at start); the other tables are one JSON document.
    up: `
      CREATE TABLE init_versions (
        version      TEXT PRIMARY KEY CHECK (length(version) BETWEEN 1 AND 13 AND version NOT GLOB '*[^0-9]*'),
        state        TEXT NOT NULL CHECK (state IN ('writing', 'complete')),
        started_at   TEXT NOT NULL,
        completed_at TEXT
      ) STRICT;

      CREATE TABLE init_current (
        id                   INTEGER PRIMARY KEY CHECK (id = 1),
        version              TEXT NOT NULL REFERENCES init_versions(version),
        switched_at          TEXT NOT NULL,
        pinpad_table_version TEXT
      ) STRICT;

      CREATE TABLE init_documents (
        version TEXT NOT NULL,
        name    TEXT NOT NULL,
        body    TEXT NOT NULL CHECK (json_valid(body)),
        PRIMARY KEY (version, name)
      ) STRICT;

      CREATE TABLE init_bins (
        version     TEXT NOT NULL,
        seq         INTEGER NOT NULL,
        lo19        TEXT NOT NULL CHECK (length(lo19) = 19),
        hi19        TEXT NOT NULL CHECK (length(hi19) = 19),
        initial_bin TEXT NOT NULL,
        final_bin   TEXT NOT NULL,
        product_id  INTEGER NOT NULL,
        issuer_id   INTEGER NOT NULL,
        type        INTEGER NOT NULL CHECK (type IN (0, 1)),
        flags       INTEGER NOT NULL,
        PRIMARY KEY (version, seq)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX init_bins_range ON init_bins(version, type, lo19, hi19);
    `,
  },
  {
    version: 3,
    name: 'operations: day closes and alarm webhook deliveries',
    // A closed day is archived once and never changes (the triggers refuse UPDATE and DELETE).
    // Alarm notifications wait in alarm_webhooks until the webhook answers 2xx, across restarts.
    up: `
      CREATE TABLE day_closes (
        business_date TEXT PRIMARY KEY CHECK (business_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        closed_at     TEXT NOT NULL,
        report        TEXT NOT NULL CHECK (json_valid(report)),
        print_outcome TEXT
      ) STRICT;
      CREATE TRIGGER day_closes_no_update BEFORE UPDATE ON day_closes
        BEGIN SELECT RAISE(ABORT, 'a closed day is immutable'); END;
      CREATE TRIGGER day_closes_no_delete BEFORE DELETE ON day_closes
        BEGIN SELECT RAISE(ABORT, 'a closed day is immutable'); END;

      CREATE TABLE alarm_webhooks (
        id           INTEGER PRIMARY KEY,
        alarm_id     TEXT NOT NULL UNIQUE,
        body         TEXT NOT NULL CHECK (json_valid(body)),
        attempts     INTEGER NOT NULL DEFAULT 0,
        next_try_at  TEXT NOT NULL,
        last_error   TEXT,
        delivered_at TEXT,
        created_at   TEXT NOT NULL
      ) STRICT;
      CREATE INDEX alarm_webhooks_due ON alarm_webhooks(next_try_at) WHERE delivered_at IS NULL;
    `,
  },
  {
    version: 4,
    name: 'the event stream, kept for the business day',
    // What GET /v1/events sent, so a client reconnecting with Last-Event-ID gets what it missed,
    // across a daemon restart. AUTOINCREMENT: a seq is never given twice, even after pruning.
    up: `
      CREATE TABLE api_events (
        seq          INTEGER PRIMARY KEY AUTOINCREMENT,
        business_day TEXT NOT NULL CHECK (business_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        at           TEXT NOT NULL,
        body         TEXT NOT NULL CHECK (json_valid(body))
      ) STRICT;
      CREATE INDEX api_events_day ON api_events(business_day, seq);
    `,
  },
  {
    version: 5,
    name: 'fleet telemetry outbox',
    // Messages for the MQTT broker, apart from the money outbox: delivered in id order and marked
    // when the broker acknowledged them (kept two days, so the same message is never queued
    // twice: a payment tells "confirmed" at confirming and at confirmed). msg_id is what a
    // consumer deduplicates on. AUTOINCREMENT: the id is the message's `seq`, which must keep
    // growing after the table empties (a plain rowid would start again at 1).
    up: `
      CREATE TABLE telemetry_outbox (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        msg_id       TEXT NOT NULL UNIQUE,
        topic        TEXT NOT NULL,
        payload      TEXT NOT NULL CHECK (json_valid(payload)),
        qos          INTEGER NOT NULL CHECK (qos IN (0, 1)),
        retain       INTEGER NOT NULL CHECK (retain IN (0, 1)),
        created_at   TEXT NOT NULL,
        delivered_at TEXT
      ) STRICT;
      CREATE INDEX telemetry_outbox_waiting ON telemetry_outbox(id) WHERE delivered_at IS NULL;
      CREATE INDEX telemetry_outbox_delivered ON telemetry_outbox(delivered_at) WHERE delivered_at IS NOT NULL;
    `,
  },
  {
    version: 6,
    name: 'indexes for the per-sale lookups',
    // Found by the soak: every delivery asked whether a PaymentId is an e-commerce QR sale's
    // (src/factory/qr-provider.ts) and health counted the outbox, both by reading every row, so a sale
    // took longer as the journal grew (31 sales/s on an empty terminal, 13/s at 50,000 sales).
    // The expression and the WHERE are the queries' own, so SQLite uses these indexes for them.
    up: `
      CREATE INDEX journal_ecommerce_qr_payment ON journal(json_extract(data, '$.paymentId'))
        WHERE kind = 'qr' AND json_extract(data, '$.provider') = 'ecommerce';
      CREATE INDEX outbox_dead_letters ON outbox(id) WHERE dead_letter_reason IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: 'the archive of closed days',
    // Retention (docs/operations.md, "Retention"): a closed day whose every payment is settled moves,
    // after its period, to a compressed, checksummed file (src/store/day-files.ts); day_archives
    // records it, and only then may its close leave day_closes (the trigger still refuses any other
    // delete). The file's own period over, deleted_at is set and the row stays (a few bytes).
    up: `
      CREATE TABLE day_archives (
        business_date TEXT PRIMARY KEY CHECK (business_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        sha256        TEXT NOT NULL CHECK (length(sha256) = 64),
        bytes         INTEGER NOT NULL,
        payments      INTEGER NOT NULL,
        archived_at   TEXT NOT NULL,
        deleted_at    TEXT
      ) STRICT;
      DROP TRIGGER day_closes_no_delete;
      CREATE TRIGGER day_closes_no_delete BEFORE DELETE ON day_closes
        WHEN NOT EXISTS (SELECT 1 FROM day_archives WHERE business_date = OLD.business_date)
        BEGIN SELECT RAISE(ABORT, 'a closed day is immutable until it is archived'); END;
    `,
  },
  {
    version: 8,
    name: 'card-not-present payments in the journal',
    // A card-not-present sale (src/engine/cnp) is a payment kind of its own: the journal's kind
    // CHECK lets 'cnp' in. SQLite changes no CHECK in place, and with foreign keys on (they cannot be
    // turned off inside the migration's transaction) dropping the journal would cascade to its
    // transitions: so the journal and the two tables that name it are copied, ids kept, into new
    // tables that name the new journal; the old ones are dropped children first (the journal's drop
    // then cascades nowhere), the new ones take their names (the rename rewrites the references),
    // and the indexes are made again, as migrations 1 and 6 wrote them.
    up: `
      CREATE TABLE journal_v8 (
        id                INTEGER PRIMARY KEY,
        kind              TEXT NOT NULL CHECK (kind IN ('sale', 'void', 'qr', 'pix', 'cnp')),
        merchant_order_id TEXT NOT NULL UNIQUE CHECK (length(merchant_order_id) BETWEEN 1 AND 15),
        state             TEXT NOT NULL,
        amount            INTEGER NOT NULL CHECK (amount >= 0),
        data              TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
        created_at        TEXT NOT NULL,
        updated_at        TEXT NOT NULL
      ) STRICT;
      INSERT INTO journal_v8 (id, kind, merchant_order_id, state, amount, data, created_at, updated_at)
        SELECT id, kind, merchant_order_id, state, amount, data, created_at, updated_at FROM journal;

      CREATE TABLE journal_transitions_v8 (
        journal_id INTEGER NOT NULL REFERENCES journal_v8(id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL,
        from_state TEXT,
        to_state   TEXT NOT NULL,
        input      TEXT NOT NULL,
        at         TEXT NOT NULL,
        PRIMARY KEY (journal_id, seq)
      ) STRICT;
      INSERT INTO journal_transitions_v8 (journal_id, seq, from_state, to_state, input, at)
        SELECT journal_id, seq, from_state, to_state, input, at FROM journal_transitions;

      CREATE TABLE outbox_v8 (
        id                 INTEGER PRIMARY KEY,
        journal_id         INTEGER REFERENCES journal_v8(id),
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
      INSERT INTO outbox_v8 (id, journal_id, operation, idempotency_key, payload, attempts, next_try_at,
                             deadline_at, last_error, dead_letter_reason, done_at, created_at)
        SELECT id, journal_id, operation, idempotency_key, payload, attempts, next_try_at,
               deadline_at, last_error, dead_letter_reason, done_at, created_at FROM outbox;

      DROP TABLE journal_transitions;
      DROP TABLE outbox;
      DROP TABLE journal;
      ALTER TABLE journal_v8 RENAME TO journal;
      ALTER TABLE journal_transitions_v8 RENAME TO journal_transitions;
      ALTER TABLE outbox_v8 RENAME TO outbox;

      CREATE INDEX journal_state ON journal(state);
      CREATE INDEX journal_ecommerce_qr_payment ON journal(json_extract(data, '$.paymentId'))
        WHERE kind = 'qr' AND json_extract(data, '$.provider') = 'ecommerce';
      CREATE INDEX outbox_due ON outbox(next_try_at) WHERE done_at IS NULL AND dead_letter_reason IS NULL;
      CREATE INDEX outbox_dead_letters ON outbox(id) WHERE dead_letter_reason IS NOT NULL;
    `,
  },
  {
    version: 9,
    name: 'the event stream: seqs a power cut may have taken back',
    // An event is synced with the next durable commit (src/store/event-log.ts), so a power cut can
    // take back the last few after they were sent. api_event_run says which boot wrote them and
    // whether the daemon stopped cleanly; a start that finds an unclean stop on another boot records
    // the seqs that may have been sent and lost, and a replay that reaches over them says partial.
    up: `
      CREATE TABLE api_event_run (
        id      INTEGER PRIMARY KEY CHECK (id = 1),
        boot_id TEXT NOT NULL,
        clean   INTEGER NOT NULL CHECK (clean IN (0, 1))
      ) STRICT;
      CREATE TABLE api_event_gaps (
        after_seq   INTEGER PRIMARY KEY,
        through_seq INTEGER NOT NULL CHECK (through_seq > after_seq)
      ) STRICT;
    `,
  },
  {
    version: 10,
    name: 'the event stream without its day index',
    // Flash wear: the index cost one more page in every event commit. Every read of the
    // stream is a range of seqs (the table's rowid) of the day, the day kept alone by the daily prune,
    // so the rowid serves them; the day's first seq is read in seq order (event-log.ts).
    up: `
      DROP INDEX api_events_day;
    `,
  },
  {
    version: 11,
    name: 'the journal found by sale and by idempotency key without a scan',
    // A sale's voids (src/engine/void/ledger.ts: every payment listed or shown asks them) and a
    // request's Idempotency-Key (every POST /v1/payments) were found by reading every journal row's
    // JSON: a year's busy counter keeps ~27,000 rows, and the year run's daemon stopped answering in
    // 5 s at 3,000. The queries' own expressions, indexed (partial: only the rows that carry them).
    up: `
      CREATE INDEX journal_void_sale ON journal(json_extract(data, '$.sale.id')) WHERE kind = 'void';
      CREATE INDEX journal_idempotency_key ON journal(json_extract(data, '$.idempotencyKey'))
        WHERE json_extract(data, '$.idempotencyKey') IS NOT NULL;
    `,
  },
  {
    version: 12,
    name: "the screens' payments, kept across a restart",
    // Which screen token (kiosk, cashier) started which payment: the screen reads, cancels and
    // prints only those (src/api/scopes.ts), after a restart too. A row goes with its payment's
    // (retention archives and deletes closed days), so a journal id given again never carries an
    // old owner.
    up: `
      CREATE TABLE payment_owners (
        journal_id INTEGER PRIMARY KEY REFERENCES journal(id) ON DELETE CASCADE,
        owner      TEXT NOT NULL CHECK (length(owner) BETWEEN 1 AND 32)
      ) STRICT;
    `,
  },
  {
    version: 13,
    name: 'saved cards: the host token sealed under the terminal key',
    // A card saved at the acquirer (card not present) is a token that sells without the card: a
    // secret at rest, kept sealed (AES-256-GCM under <stateDir>/card-token-key, src/store/saved-cards.ts)
    // beside what may be shown of it. A removed card is deleted with secure_delete on.
    up: `
      CREATE TABLE saved_cards (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        backend       TEXT NOT NULL,
        masked_number TEXT NOT NULL,
        brand         TEXT NOT NULL,
        sealed_token  TEXT NOT NULL,
        created_at    TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 14,
    name: 'saved cards: the Idempotency-Key of the request that saved one',
    // POST /v1/card-not-present/cards with an Idempotency-Key answers the card that key saved, nothing
    // typed again: one card per key, kept (and removed) with its row.
    up: `
      ALTER TABLE saved_cards ADD COLUMN idempotency_key TEXT;
      CREATE UNIQUE INDEX saved_cards_idempotency_key ON saved_cards(idempotency_key) WHERE idempotency_key IS NOT NULL;
    `,
  },
  {
    version: 15,
    name: 'a payment id is never given twice',
    // A payment's journal id is what the cash register holds (`/v1/payments/{id}`, its voids, its
    // receipt). The id is SQLite's rowid, which is the largest id in the table plus one: once retention
    // had archived every row (a quiet spell longer than the database's days), the next sale took id 1
    // again, an id an archived payment already named. SQLite changes a rowid table into AUTOINCREMENT
    // only by copying the table (too long at start for a database of months), so the largest id ever
    // deleted is kept beside it: a trigger raises it at every delete, and the journal gives the next
    // id above both (src/store/journal.ts). Seeded from the journal as it is.
    up: `
      CREATE TABLE id_floors (
        name  TEXT PRIMARY KEY,
        value INTEGER NOT NULL CHECK (value >= 0)
      ) STRICT;
      INSERT INTO id_floors (name, value) SELECT 'journal', coalesce(max(id), 0) FROM journal;
      CREATE TRIGGER journal_id_floor AFTER DELETE ON journal
        BEGIN UPDATE id_floors SET value = max(value, OLD.id) WHERE name = 'journal'; END;
    `,
  },
];
