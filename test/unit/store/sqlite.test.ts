import { describe, expect, it } from 'vitest';
import Database, { SQLITE_PACKAGE, sqlitePackageFor } from '../../../src/store/sqlite.js';

describe('the SQLite binding for the running Node', () => {
  it('better-sqlite3 12 on Node 20 (13 crashes there), 13 (better-sqlite3-napi) on 22 and 24 (12 aborts on 24)', () => {
    expect(sqlitePackageFor('20.20.2')).toBe('better-sqlite3');
    expect(sqlitePackageFor('21.7.3')).toBe('better-sqlite3');
    expect(sqlitePackageFor('22.11.0')).toBe('better-sqlite3-napi');
    expect(sqlitePackageFor('24.21.0')).toBe('better-sqlite3-napi');
  });

  it('the one loaded here opens a database, runs a transaction and closes', () => {
    expect(SQLITE_PACKAGE).toBe(sqlitePackageFor(process.versions.node));
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x INTEGER)');
    db.transaction(() => db.prepare('INSERT INTO t VALUES (?)').run(7))();
    expect(db.prepare('SELECT x FROM t').get()).toEqual({ x: 7 });
    db.close();
  });
});
