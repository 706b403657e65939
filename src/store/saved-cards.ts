import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { OmniposError } from '../core/index.js';
import { ensureKeyFile } from './expiry-key.js';
import type { Db } from './open.js';

/**
 * Cards saved at the acquirer for sales without the card: what the host gave back is a
 * token that sells without the card, so it is a secret at rest. The database keeps it sealed:
 * AES-256-GCM under the terminal's own key, `<stateDir>/card-token-key` (32 random bytes, mode
 * 0600, outside the database, as `expiry-key` is), with the row's backend, masked number and brand
 * as its additional data (a sealed token moved to another row does not open). What may be shown is
 * the masked number and the brand; the token is opened in memory for the one sale that needs it.
 * A removed card is deleted with `secure_delete` on and the WAL checkpointed, so neither its row nor
 * its sealed token stays in the files (docs/security.md, "Saved cards").
 */

export interface SavedCardView {
  id: number;
  /** The backend whose host holds the token (`ecommerce`, `webservice15`): a token sells there only. */
  backend: string;
  /** First 6 and last 4 digits at most (PCI DSS 3.4.1). */
  maskedNumber: string;
  brand: string;
  createdAt: string;
}

interface Row {
  id: number;
  backend: string;
  masked_number: string;
  brand: string;
  sealed_token: string;
  created_at: string;
  idempotency_key: string | null;
}

const KEY_FILE = 'card-token-key';
const VERSION = 'v1';

/** A masked number as shown: digits and `*` only, at most 6 digits before the mask and 4 after it. */
const MASKED = /^\d{0,6}\*+\d{0,4}$/;

function view(r: Row): SavedCardView {
  return { id: r.id, backend: r.backend, maskedNumber: r.masked_number, brand: r.brand, createdAt: r.created_at };
}

function aad(r: { backend: string; maskedNumber: string; brand: string }): Buffer {
  return Buffer.from(`omnipos saved card ${VERSION}\0${r.backend}\0${r.maskedNumber}\0${r.brand}`);
}

export class SavedCards {
  readonly #db: Db;
  readonly #key: Buffer;

  constructor(db: Db, key: Buffer) {
    if (key.length !== 32) throw new OmniposError('INVALID_ARGUMENT', 'the saved cards key is not 32 bytes');
    this.#db = db;
    this.#key = Buffer.from(key);
  }

  /** The saved cards of the state directory, under its key (made at first use). */
  static open(db: Db, stateDir: string): SavedCards {
    return new SavedCards(db, ensureKeyFile(stateDir, KEY_FILE).bytes);
  }

  #seal(token: string, card: { backend: string; maskedNumber: string; brand: string }): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(aad(card));
    const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  #open(r: Row): string {
    const [version, text] = r.sealed_token.split('.', 2);
    const raw = Buffer.from(text ?? '', 'base64url');
    if (version !== VERSION || raw.length < 29)
      throw new OmniposError('STORE_DAMAGED', `saved card ${r.id}: its token is not sealed as ${VERSION}`);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    decipher.setAAD(aad({ backend: r.backend, maskedNumber: r.masked_number, brand: r.brand }));
    decipher.setAuthTag(raw.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new OmniposError('STORE_DAMAGED', `saved card ${r.id}: its token does not open under card-token-key`);
    }
  }

  /** Keeps a token the host gave, sealed; refuses a number that is not masked (never the whole PAN). */
  save(
    card: { backend: string; maskedNumber: string; brand: string; token: string },
    at: Date,
    idempotencyKey?: string,
  ): SavedCardView {
    if (!MASKED.test(card.maskedNumber))
      throw new OmniposError('INVALID_ARGUMENT', 'a saved card is kept by its masked number only');
    if (card.token === '') throw new OmniposError('INVALID_ARGUMENT', 'an empty token');
    const info = this.#db
      .prepare(
        `INSERT INTO saved_cards (backend, masked_number, brand, sealed_token, created_at, idempotency_key)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        card.backend,
        card.maskedNumber,
        card.brand,
        this.#seal(card.token, card),
        at.toISOString(),
        idempotencyKey ?? null,
      );
    return this.get(Number(info.lastInsertRowid)) as SavedCardView;
  }

  #row(id: number): Row | undefined {
    return this.#db.prepare(`SELECT * FROM saved_cards WHERE id = ?`).get(id) as Row | undefined;
  }

  get(id: number): SavedCardView | undefined {
    const r = this.#row(id);
    return r ? view(r) : undefined;
  }

  /** The card the request of this Idempotency-Key saved, while it is kept (a removed card frees its key). */
  byIdempotencyKey(key: string): SavedCardView | undefined {
    const r = this.#db.prepare(`SELECT * FROM saved_cards WHERE idempotency_key = ?`).get(key) as Row | undefined;
    return r ? view(r) : undefined;
  }

  /** Every saved card, newest first: masked number and brand, never the token. */
  list(): SavedCardView[] {
    return (this.#db.prepare(`SELECT * FROM saved_cards ORDER BY id DESC`).all() as Row[]).map(view);
  }

  /** The token of a saved card, opened in memory for the one sale that sends it. */
  reveal(id: number): (SavedCardView & { token: string }) | undefined {
    const r = this.#row(id);
    return r ? { ...view(r), token: this.#open(r) } : undefined;
  }

  /**
   * Removes a saved card: its row deleted with `secure_delete` on (its bytes zeroed in the page), then
   * the WAL checkpointed and truncated so no older page keeps it. Answers whether there was one.
   */
  remove(id: number): boolean {
    const before = this.#db.pragma('secure_delete', { simple: true }) as number;
    this.#db.pragma('secure_delete = ON');
    try {
      const changed = this.#db.prepare(`DELETE FROM saved_cards WHERE id = ?`).run(id).changes > 0;
      if (changed) this.#db.pragma('wal_checkpoint(TRUNCATE)');
      return changed;
    } finally {
      this.#db.pragma(`secure_delete = ${before}`);
    }
  }
}
