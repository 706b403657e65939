import type { Db } from './open.js';
import { statement } from './statements.js';

/**
 * The table `payment_owners` (migration 12): which screen's token started which payment. A row
 * goes with its payment's row (ON DELETE CASCADE).
 */
export class PaymentOwnerRows {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** `owner` started payment `id` (written again, the last owner stands). */
  record(id: number, owner: string): void {
    statement(this.#db, 'INSERT OR REPLACE INTO payment_owners (journal_id, owner) VALUES (?, ?)').run(id, owner);
  }

  /** Who started payment `id`, when a screen did. */
  ownerOf(id: number): string | undefined {
    const row = statement(this.#db, 'SELECT owner FROM payment_owners WHERE journal_id = ?').get(id) as
      { owner: string } | undefined;
    return row?.owner;
  }
}
