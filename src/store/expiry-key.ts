import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OmniposError } from '../core/index.js';
import { readCounter, writeCounter } from './counters.js';
import type { Db } from './open.js';
import { createSecretFileOnce } from './secret-file.js';

/**
 * The terminal's key for card expiry dates. The journal keeps no expiry: a void matches its sale's
 * card by a keyed hash of the expiry (HMAC-SHA256 under this key), never by the date itself. An
 * expiry has about 1,200 values, so a plain hash would be read back by trying them all; the key
 * lives outside the database, in `<stateDir>/expiry-key` (32 random bytes, base64url, mode 0600),
 * as the tokens and the pinpad's key do.
 */
export class ExpiryKey {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length < 32) throw new OmniposError('INVALID_ARGUMENT', 'the expiry key has fewer than 32 bytes');
    this.#key = Buffer.from(key);
  }

  /** The keyed hash of an expiry (MMYY), base64url: what the journal keeps in its place. */
  mac(expiry: string): string {
    return createHmac('sha256', this.#key).update(`omnipos card expiry v1\0${expiry}`).digest('base64url');
  }

  /** Whether `expiry` is the one `mac` was made of (compared in constant time). */
  matches(expiry: string, mac: string): boolean {
    const a = Buffer.from(this.mac(expiry));
    const b = Buffer.from(mac);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

const FILE = 'expiry-key';

/**
 * The terminal's expiry key, made at first start; the file is set back to 0600 on every start. A
 * file that holds no 32-byte key is refused, never replaced: a new key would make every stored
 * sale's card unmatchable by its voids.
 */
export function ensureExpiryKey(stateDir: string): { key: ExpiryKey; file: string } {
  const { bytes, file } = ensureKeyFile(stateDir, FILE);
  return { key: new ExpiryKey(bytes), file };
}

/**
 * A terminal key of 32 random bytes in `<stateDir>/<name>` (base64url, mode 0600), made once at
 * first start (fsync and a hard link: secret-file.ts) and set back to 0600 on every start. A file
 * that holds no 32-byte key is refused (`STORE_DAMAGED`), never replaced: what it sealed would be lost.
 */
export function ensureKeyFile(stateDir: string, name: string): { bytes: Buffer; file: string } {
  const file = path.join(stateDir, name);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    createSecretFileOnce(file, `${randomBytes(32).toString('base64url')}\n`);
    text = readFileSync(file, 'utf8');
  }
  chmodSync(file, 0o600);
  const bytes = Buffer.from(text.trim(), 'base64url');
  if (bytes.length !== 32)
    throw new OmniposError('STORE_DAMAGED', `${file}: expected 32 bytes in base64url, read ${bytes.length}`, { file });
  return { bytes, file };
}

/** A card object of a journal row with its `expiry` replaced by `expiryMac`, or undefined when it has none. */
function sealed(card: unknown, key: ExpiryKey): Record<string, unknown> | undefined {
  if (card === null || typeof card !== 'object' || Array.isArray(card)) return undefined;
  const { expiry, ...rest } = card as Record<string, unknown>;
  if (expiry === undefined) return undefined;
  return typeof expiry === 'string' ? { ...rest, expiryMac: key.mac(expiry) } : rest;
}

/** Where a journal row holds a card: a sale's `card`, a void's `card` (read again) and `sale.card`. */
function sealRow(data: Record<string, unknown>, key: ExpiryKey): boolean {
  let changed = false;
  const card = sealed(data.card, key);
  if (card) {
    data.card = card;
    changed = true;
  }
  const sale = data.sale as Record<string, unknown> | undefined;
  const saleCard = sale && typeof sale === 'object' ? sealed(sale.card, key) : undefined;
  if (sale && saleCard) {
    sale.card = saleCard;
    changed = true;
  }
  return changed;
}

/**
 * The counter (a row of `counters`) that says the journal was sealed: written in the rewrite's own
 * transaction, so every later start skips the scan of every row's JSON. This version's engines
 * never write an expiry; a database of before (restored from a copy too) has no mark and is sealed.
 */
export const EXPIRY_SEALED = 'journal_expiry_sealed';

/**
 * Replaces the expiry dates that journal rows of earlier versions kept by their keyed hash, in one
 * transaction, with `secure_delete` on so the old bytes are zeroed, then checkpoints the WAL so no
 * older page holding them is left; and marks the journal sealed ({@link EXPIRY_SEALED}). Runs once
 * per database: a marked one is not read again. Returns how many rows changed (0 on every later start).
 */
export function sealJournalExpiries(db: Db, key: ExpiryKey): number {
  if (readCounter(db, EXPIRY_SEALED) !== undefined) return 0;
  const rows = db
    .prepare(
      `SELECT id, data FROM journal WHERE json_extract(data, '$.card.expiry') IS NOT NULL
         OR json_extract(data, '$.sale.card.expiry') IS NOT NULL`,
    )
    .all() as { id: number; data: string }[];
  const mark = (): void => writeCounter(db, EXPIRY_SEALED, new Date().toISOString());
  if (rows.length === 0) {
    db.transaction(mark).immediate();
    return 0;
  }
  const update = db.prepare('UPDATE journal SET data = ? WHERE id = ?');
  const before = db.pragma('secure_delete', { simple: true }) as number;
  db.pragma('secure_delete = ON');
  try {
    db.transaction(() => {
      for (const r of rows) {
        const data = JSON.parse(r.data) as Record<string, unknown>;
        if (sealRow(data, key)) update.run(JSON.stringify(data), r.id);
      }
      mark();
    }).immediate();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.pragma(`secure_delete = ${before}`);
  }
  return rows.length;
}
