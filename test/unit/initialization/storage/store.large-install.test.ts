import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../../src/core/clock.js';
import { InitializationStore, parseInitialization } from '../../../../src/initialization/index.js';
import { generateLargeTables } from '../../../../tables/initialization/generate-large.js';
import { useTempStores } from '../../../helpers/store.js';

const openStore = useTempStores();

describe('a large install (the range index rebuilt once at the end)', () => {
  it('answers SQL lookups after the index is built at the end, and a missing index is rebuilt at open', () => {
    const tables = parseInitialization(generateLargeTables({ ranges: 12_000, seed: 7 }));
    const db = openStore();
    const store = new InitializationStore(db, systemClock);
    store.install(tables);
    const indexes = () =>
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'init_bins_range'").all().length;
    expect(indexes()).toBe(1);
    const queries = tables.bins.slice(0, 300).map((b) => `${b.InitialBin}00`.slice(0, 8));
    const answers = queries.map((q) => store.lookupSql(q));
    expect(answers.filter((a) => a.length > 0).length).toBeGreaterThan(250);

    // A load killed after dropping the index: the next open rebuilds it and lookups still answer.
    db.exec('DROP INDEX init_bins_range');
    expect(indexes()).toBe(0);
    const again = new InitializationStore(db, systemClock);
    expect(indexes()).toBe(1);
    expect(queries.map((q) => again.lookupSql(q))).toEqual(answers);
    db.close();
  });
});
