import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/store/migrations.js';
import { openDatabase, type Db } from '../../../src/store/open.js';

/**
 * Migration 8 lets a card-not-present sale (`cnp`) into the journal by rebuilding it: a terminal's
 * database of version 7 keeps every row, transition and outbox task, with their ids and the
 * transitions' cascade, and the kinds the CHECK refuses are still refused.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function file(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-mig8-'));
  dirs.push(dir);
  return path.join(dir, 'omnipos.db');
}

const insert = (db: Db, kind: string, order: string): number =>
  Number(
    db
      .prepare(
        "INSERT INTO journal (kind, merchant_order_id, state, amount, data, created_at, updated_at) VALUES (?, ?, 'confirmed', 100, '{}', 't', 't')",
      )
      .run(kind, order).lastInsertRowid,
  );

const objects = (db: Db): unknown[] =>
  db.prepare("SELECT type, name, tbl_name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();

describe('migration 8: the journal takes card-not-present sales', () => {
  it('a version 7 database keeps its rows, ids, transitions and outbox, and its indexes', () => {
    const f = file();
    const v7 = openDatabase({ file: f, migrations: MIGRATIONS.slice(0, 7) });
    const a = insert(v7, 'sale', 'A1');
    insert(v7, 'pix', 'A2');
    v7.prepare("DELETE FROM journal WHERE merchant_order_id = 'A2'").run();
    const b = insert(v7, 'qr', 'A3');
    v7.prepare("INSERT INTO journal_transitions VALUES (?, 1, NULL, 'started', 'request', 't')").run(a);
    v7.prepare(
      "INSERT INTO outbox (journal_id, operation, idempotency_key, payload, next_try_at, created_at) VALUES (?, 'sale.undo', 'undo:A3', '{}', 't', 't')",
    ).run(b);
    expect(() => insert(v7, 'cnp', 'A4')).toThrow(/CHECK/);
    const before = objects(v7);
    v7.close();

    const db = openDatabase({ file: f, migrations: MIGRATIONS.slice(0, 8) });
    expect(db.pragma('user_version', { simple: true })).toBe(8);
    expect(db.prepare('SELECT id, kind, merchant_order_id AS o FROM journal ORDER BY id').all()).toEqual([
      { id: a, kind: 'sale', o: 'A1' },
      { id: b, kind: 'qr', o: 'A3' },
    ]);
    expect(db.prepare('SELECT journal_id FROM journal_transitions').all()).toEqual([{ journal_id: a }]);
    expect(db.prepare('SELECT journal_id, idempotency_key AS k FROM outbox').all()).toEqual([
      { journal_id: b, k: 'undo:A3' },
    ]);
    expect(objects(db)).toEqual(before);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

    // The new kind goes in, an unknown one does not; the references still hold and still cascade.
    insert(db, 'cnp', 'A4');
    expect(() => insert(db, 'card', 'A5')).toThrow(/CHECK/);
    expect(() => db.prepare('DELETE FROM journal WHERE id = ?').run(b)).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM journal WHERE id = ?').run(a);
    expect(db.prepare('SELECT count(*) AS n FROM journal_transitions').get()).toEqual({ n: 0 });
    db.close();
  });
});
