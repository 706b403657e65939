import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { onWriteFailure, openTerminalDatabase, type Db } from '../../../src/store/index.js';

/** The transactions of a watched database run through one runner made per database (issue 37): same rules as better-sqlite3's. */
function database(): Db {
  return openTerminalDatabase(mkdtempSync(path.join(tmpdir(), 'omnipos-tx-')));
}
const put = (db: Db, name: string): void =>
  void db.prepare('INSERT INTO counters (name, value) VALUES (?, ?)').run(name, '1');
const names = (db: Db): string[] =>
  (db.prepare("SELECT name FROM counters WHERE name LIKE 't-%' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('transactions of a watched database', () => {
  it('commit, pass arguments and results through, and roll back whatever a throwing body wrote', () => {
    const db = database();
    expect(db.transaction((a: string, b: string) => (put(db, a), put(db, b), 7)).immediate('t-a', 't-b')).toBe(7);
    expect(() =>
      db.transaction(() => {
        put(db, 't-c');
        throw new Error('no');
      })(),
    ).toThrow('no');
    expect(names(db)).toEqual(['t-a', 't-b']);
    expect(db.inTransaction).toBe(false);
  });

  it('nest as savepoints: an inner failure caught keeps the outer writes, not the inner ones', () => {
    const db = database();
    db.transaction(() => {
      put(db, 't-outer');
      try {
        db.transaction(() => {
          put(db, 't-inner');
          throw new Error('inner');
        })();
      } catch {
        // the outer goes on
      }
    }).immediate();
    expect(names(db)).toEqual(['t-outer']);
  });

  it('refuse a body that returns a promise, writing nothing', () => {
    const db = database();
    const tx = db.transaction(() => (put(db, 't-async'), Promise.resolve()));
    expect(() => tx.deferred()).toThrow(TypeError);
    expect(names(db)).toEqual([]);
    expect(() => db.transaction(undefined as never)).toThrow(TypeError);
  });

  it('tell the listener once per outermost commit, never for a nested one', () => {
    const db = database();
    let heard = 0;
    onWriteFailure(
      db,
      () => undefined,
      () => heard++,
    );
    db.transaction(() => db.transaction(() => put(db, 't-x'))()).exclusive();
    expect(heard).toBe(1);
  });
});

describe('a commit that wrote nothing is not heard as the store writing again', () => {
  // A transaction or statement that changed no row commits without writing a page (no WAL frame, no
  // fsync): it "succeeds" on a device that fails every write. Heard as a commit, it cleared
  // STORE_WRITE_FAILED (before: each of these was heard).
  it('a transaction that only read, one whose writes changed nothing, and a statement that changed no row', () => {
    const db = database();
    let heard = 0;
    onWriteFailure(
      db,
      () => undefined,
      () => heard++,
    );
    db.transaction(() => names(db)).immediate();
    db.transaction(() => db.prepare("UPDATE counters SET value = '2' WHERE name = 't-none'").run())();
    db.prepare("DELETE FROM counters WHERE name = 't-none'").run();
    db.prepare("INSERT INTO counters (name, value) VALUES ('t-one', '1') ON CONFLICT DO NOTHING").run();
    expect(heard).toBe(1);
    db.prepare("INSERT INTO counters (name, value) VALUES ('t-one', '1') ON CONFLICT DO NOTHING").run();
    db.transaction(() => put(db, 't-two'))();
    expect(heard).toBe(2);
  });
});
