/**
 * The BIN lookup on the 200,000-range tables (tables/initialization/generate-large.ts): the
 * in-memory BinIndex beside the SQLite index and a linear scan, in the same run, on the same
 * queries (8-digit card prefixes: two thirds inside a range, one third anywhere). Loading is
 * measured once at start (CPU time, printed): validate, build the index, store in SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import {
  BinIndex,
  InitializationStore,
  linearLookup,
  parseInitialization,
  type InitializationTables,
} from '../../src/initialization/index.js';
import { MIGRATIONS, openDatabase } from '../../src/store/index.js';
import { generateLargeTables } from '../../tables/initialization/generate-large.js';

function cpu<T>(label: string, f: () => T): T {
  const c = process.cpuUsage();
  const t = performance.now();
  const r = f();
  const u = process.cpuUsage(c);
  console.log(
    `${label}: ${((u.user + u.system) / 1000).toFixed(0)} ms CPU, ${(performance.now() - t).toFixed(0)} ms wall`,
  );
  return r;
}

cpu('reference: 10^8 integer additions (a machine yardstick; ~70 ms on a 2020s laptop)', () => {
  let x = 0;
  for (let k = 0; k < 1e8; k++) x += k;
  return x;
});
// The generated answer (~260 MB of JSON objects) is dropped once validated: a big heap would slow every GC pause.
function validated(): InitializationTables {
  const raw = cpu('generate 200,000 ranges', () => generateLargeTables({ ranges: 200_000, seed: 1 }));
  return cpu('validate (zod schema + cross-checks)', () => parseInitialization(raw));
}
const tables = validated();
const index = cpu('build the BIN index', () => BinIndex.build(tables.bins));
const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-bench-'));
const db = openDatabase({ file: path.join(dir, 'omnipos.db'), migrations: MIGRATIONS });
const store = new InitializationStore(db, { now: () => new Date() });
cpu('store in SQLite (write beside + switch)', () => store.install(tables));
cpu('read back from SQLite + build the index (a restart)', () => BinIndex.build(store.current()!.bins));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const queries: string[] = [];
let seed = 12345;
const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
for (let i = 0; i < 3000; i++) {
  if (i % 3 === 2) queries.push(String(10000000 + Math.floor(next() * 89999999)));
  else queries.push(tables.bins[Math.floor(next() * tables.bins.length)]!.InitialBin.padEnd(8, '5'));
}
let hitsIndex = 0;
let hitsSql = 0;
for (const q of queries) {
  if (index.lookup(q)) hitsIndex++;
  if (store.lookupSql(q).length) hitsSql++;
}
console.log(
  `${index.size} range groups; of ${queries.length} queries the index finds ${hitsIndex}, the SQL query ${hitsSql}`,
);

const BATCH = 100;
let i = 0;
describe(`BIN lookup, 200,000 ranges: in memory vs SQLite (${BATCH} 8-digit prefixes per call)`, () => {
  bench('omnipos BinIndex.lookup (in memory)', () => {
    for (let k = 0; k < BATCH; k++) index.lookup(queries[i++ % queries.length]!);
  });
  bench('SQLite indexed query (better-sqlite3, index on type, lo19, hi19)', () => {
    for (let k = 0; k < BATCH; k++) store.lookupSql(queries[i++ % queries.length]!);
  });
});

describe('BIN lookup, 200,000 ranges: in memory vs a linear scan (1 prefix per call)', () => {
  bench('omnipos BinIndex.lookup (in memory)', () => {
    index.lookup(queries[i++ % queries.length]!);
  });
  bench(
    'linear scan of every range',
    () => {
      linearLookup(index.groups, queries[i++ % queries.length]!);
    },
    { time: 2000, iterations: 5 },
  );
});
