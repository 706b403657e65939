import type { Statement } from 'better-sqlite3';
import type { Db } from './open.js';

/** Distinct SQL texts kept per connection; past it the cache starts again (dynamic IN lists stay bounded). */
const MAX_PER_DB = 256;
const caches = new WeakMap<Db, Map<string, Statement>>();

/**
 * The prepared statement for `sql` on `db`, compiled once and reused. Each `db.prepare()` compiles
 * the SQL again and holds a native statement that only a V8 garbage collection frees: about a
 * hundred per sale before this (memory over months). Only for `get`/`all`/`run`, which
 * finish before they return (an `iterate()` in progress would make a shared statement busy).
 */
export function statement(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let s = cache.get(sql);
  if (!s) {
    if (cache.size >= MAX_PER_DB) cache.clear();
    s = db.prepare(sql);
    cache.set(sql, s);
  }
  return s;
}
