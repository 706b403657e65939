import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTerminalDatabase, SavedCards, type Db } from '../../../src/store/index.js';

/**
 * The saved cards' store on a real SQLite file: the host's token is a secret at rest, so the scans
 * read every file of the state directory (database, WAL, shm, key) for it.
 */

const TOKEN = 'db62dc71-d07b-4745-9969-42697b988ccb';
const AT = new Date('2026-11-29T10:00:00Z');

let dir: string;
let db: Db;
let cards: SavedCards;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'omnipos-saved-cards-'));
  db = openTerminalDatabase(dir);
  cards = SavedCards.open(db, dir);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every file of the state directory that holds `needle` (as text). */
function filesHolding(needle: string): string[] {
  return readdirSync(dir).filter((f) => readFileSync(path.join(dir, f)).includes(Buffer.from(needle)));
}

const card = { backend: 'ecommerce', maskedNumber: '453211******3700', brand: 'Visa', token: TOKEN };

describe('SavedCards', () => {
  it('keeps a token sealed: no file of the state directory holds it in clear, the WAL included', () => {
    cards.save(card, AT);
    expect(filesHolding(TOKEN)).toEqual([]);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(filesHolding(TOKEN)).toEqual([]);
    // What may be shown is there: the scan reads what the store writes.
    expect(filesHolding('453211******3700').length).toBeGreaterThan(0);
  });

  it('finds the card an Idempotency-Key saved, one card per key, the key gone with its card', () => {
    const a = cards.save(card, AT, 'gym-7');
    expect(cards.byIdempotencyKey('gym-7')).toEqual(cards.get(a.id));
    expect(cards.byIdempotencyKey('gym-8')).toBeUndefined();
    expect(() => cards.save({ ...card, token: 'other' }, AT, 'gym-7')).toThrow(/UNIQUE/);
    expect(cards.remove(a.id)).toBe(true);
    expect(cards.byIdempotencyKey('gym-7')).toBeUndefined();
    expect(cards.save(card, AT, 'gym-7').id).toBeGreaterThan(a.id);
  });

  it('lists by masked number and brand only, and opens the token in memory', () => {
    const a = cards.save(card, AT);
    const b = cards.save({ ...card, maskedNumber: '401200******3335', token: 'TuS6LeBHWjqFFtE7' }, AT);
    expect(cards.list()).toEqual([
      { id: b.id, backend: 'ecommerce', maskedNumber: '401200******3335', brand: 'Visa', createdAt: AT.toISOString() },
      { id: a.id, backend: 'ecommerce', maskedNumber: '453211******3700', brand: 'Visa', createdAt: AT.toISOString() },
    ]);
    expect(JSON.stringify(cards.list())).not.toContain(TOKEN);
    expect(cards.reveal(a.id)?.token).toBe(TOKEN);
    expect(cards.reveal(b.id)?.token).toBe('TuS6LeBHWjqFFtE7');
    expect(cards.reveal(999)).toBeUndefined();
  });

  it('the key is its own file, mode 0600, outside the database', () => {
    const key = path.join(dir, 'card-token-key');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    cards.save(card, AT);
    expect(filesHolding(readFileSync(key, 'utf8').trim())).toEqual(['card-token-key']);
  });

  it('refuses a number that is not masked (never the whole PAN)', () => {
    expect(() => cards.save({ ...card, maskedNumber: '4532117080573700' }, AT)).toThrow(/masked number only/);
    expect(() => cards.save({ ...card, maskedNumber: '4532117*080573700' }, AT)).toThrow(/masked number only/);
  });

  it('a sealed token moved to another row does not open there (its row is its additional data)', () => {
    const a = cards.save(card, AT);
    const b = cards.save({ ...card, maskedNumber: '401200******3335' }, AT);
    db.prepare(
      `UPDATE saved_cards SET sealed_token = (SELECT sealed_token FROM saved_cards WHERE id = ?) WHERE id = ?`,
    ).run(a.id, b.id);
    expect(() => cards.reveal(b.id)).toThrow(/does not open/);
  });

  it('another key does not open it', () => {
    const a = cards.save(card, AT);
    const other = new SavedCards(db, Buffer.alloc(32, 7));
    expect(() => other.reveal(a.id)).toThrow(/does not open/);
  });

  it('removed means gone from the disk: neither the row nor its sealed token stays in any file', () => {
    const a = cards.save(card, AT);
    const sealed = (
      db.prepare(`SELECT sealed_token FROM saved_cards WHERE id = ?`).get(a.id) as { sealed_token: string }
    ).sealed_token;
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(filesHolding(sealed)).toEqual(['omnipos.db']);
    expect(cards.remove(a.id)).toBe(true);
    expect(cards.list()).toEqual([]);
    expect(filesHolding(sealed)).toEqual([]);
    expect(filesHolding('453211******3700')).toEqual([]);
    expect(cards.remove(a.id)).toBe(false);
  });
});
