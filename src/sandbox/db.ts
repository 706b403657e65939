import { openDatabase, type Db, type Migration } from '../store/index.js';
import type { Logger } from '../core/index.js';

/**
 * The sandbox host's own database (the acquirer's side, separate from the terminal's):
 * sales, voids, the ledger, problems, tokens (hashed), attempt counters, settings.
 */
export const SANDBOX_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sandbox host',
    up: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE tokens (
        token_hash TEXT PRIMARY KEY,
        api TEXT NOT NULL,
        scopes TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE sales (
        payment_id TEXT PRIMARY KEY,
        merchant_order_id TEXT NOT NULL UNIQUE,
        terminal_id TEXT NOT NULL,
        amount INTEGER NOT NULL,
        status INTEGER NOT NULL,
        confirmation_status INTEGER NOT NULL,
        input_mode TEXT NOT NULL,
        business_day TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        closed_by_host INTEGER NOT NULL DEFAULT 0,
        card_match TEXT,
        answer TEXT NOT NULL
      );
      CREATE TABLE voids (
        void_id TEXT PRIMARY KEY,
        payment_id TEXT NOT NULL REFERENCES sales(payment_id),
        merchant_void_id TEXT NOT NULL,
        amount INTEGER NOT NULL,
        cancellation_status INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        answer TEXT NOT NULL,
        UNIQUE (payment_id, merchant_void_id)
      );
      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        payment_id TEXT,
        merchant_order_id TEXT,
        void_id TEXT,
        amount INTEGER NOT NULL DEFAULT 0,
        note TEXT
      );
      CREATE TABLE problems (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        merchant_order_id TEXT,
        payment_id TEXT,
        detail TEXT NOT NULL
      );
      CREATE TABLE attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL);
      CREATE TABLE faults (route TEXT PRIMARY KEY, spec TEXT NOT NULL);
    `,
  },
  {
    version: 2,
    name: 'merchant and terminal registration',
    up: `
      CREATE TABLE merchants (subordinated_merchant_id TEXT PRIMARY KEY, document_number TEXT NOT NULL, body TEXT NOT NULL);
      CREATE TABLE terminals (
        terminal_id TEXT PRIMARY KEY,
        subordinated_merchant_id TEXT NOT NULL,
        body TEXT NOT NULL,
        technical TEXT
      );
    `,
  },
  {
    version: 3,
    name: 'e-commerce sales and wallet payments',
    up: `
      CREATE TABLE ecommerce_sales (
        payment_id TEXT PRIMARY KEY,
        merchant_order_id TEXT NOT NULL,
        type TEXT NOT NULL,
        amount INTEGER NOT NULL,
        status INTEGER NOT NULL,
        reference_label TEXT UNIQUE,
        qr_expires_at INTEGER,
        refunded_amount INTEGER NOT NULL DEFAULT 0,
        refund_due_at INTEGER,
        created_at INTEGER NOT NULL,
        answer TEXT NOT NULL
      );
      CREATE TABLE wallet_payments (
        id TEXT PRIMARY KEY,
        reference_label TEXT NOT NULL UNIQUE,
        payer_document TEXT NOT NULL,
        card_match TEXT NOT NULL,
        amount INTEGER NOT NULL,
        payment_id TEXT,
        ecommerce_payment_id TEXT,
        answer TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE callbacks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        url TEXT NOT NULL,
        payload TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        delivered_at INTEGER,
        last_error TEXT
      );
    `,
  },
  {
    version: 4,
    name: 'e-commerce credit card sales (card not present)',
    up: `
      CREATE TABLE card_sales (
        payment_id TEXT PRIMARY KEY,
        merchant_order_id TEXT NOT NULL,
        amount INTEGER NOT NULL,
        status INTEGER NOT NULL,
        captured_amount INTEGER,
        voided_amount INTEGER NOT NULL DEFAULT 0,
        authorized_at INTEGER NOT NULL,
        answer TEXT NOT NULL
      );
      CREATE INDEX card_sales_order ON card_sales (merchant_order_id);
    `,
  },
  {
    version: 5,
    name: 'e-commerce saved cards and scheduled recurrences',
    // A saved card keeps its masked number, never the whole one (ecommerce-card-tokens.ts).
    up: `
      CREATE TABLE card_tokens (
        card_token TEXT PRIMARY KEY,
        masked TEXT NOT NULL,
        holder TEXT NOT NULL,
        expiry TEXT NOT NULL,
        brand TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE recurrences (
        recurrent_payment_id TEXT PRIMARY KEY,
        merchant_order_id TEXT NOT NULL,
        amount INTEGER NOT NULL,
        interval TEXT NOT NULL,
        start_date TEXT NOT NULL,
        end_date TEXT,
        next_date TEXT NOT NULL,
        status INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        first_payment_id TEXT,
        customer_name TEXT
      );
    `,
  },
  {
    version: 6,
    name: 'webservice 1.5 transactions',
    // The host model's transactions (webservice15/store.ts): the card as its keyed digest, never the number.
    up: `CREATE TABLE ws15_transactions (tid TEXT PRIMARY KEY, body TEXT NOT NULL);`,
  },
  {
    version: 7,
    name: 'webservice 1.5 tokens',
    // The host model's saved tokens (webservice15/store.ts `Ws15Tokens`): what a sale by token needs of the
    // card — its keyed digest, the manual's test card's scheme it is, the scheme it was saved with —, never the number.
    up: `CREATE TABLE ws15_tokens (
      code TEXT PRIMARY KEY,
      affiliation TEXT NOT NULL,
      pan TEXT NOT NULL,
      test_bandeira TEXT,
      bandeira TEXT
    );`,
  },
];

export function openSandboxDatabase(file: string, log?: Logger): Db {
  return openDatabase({ file, migrations: SANDBOX_MIGRATIONS, ...(log ? { log } : {}) });
}

export type { Db };
