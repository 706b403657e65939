import Database from '../../../src/store/sqlite.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';

// Issue 23, memory over months: each db.prepare() compiles the SQL again and holds a native
// statement until a garbage collection frees it (RSS grows while the heap stays flat). The store's
// own statements are compiled once per connection.
const tempStore = useTempStores();
afterEach(() => vi.restoreAllMocks());

describe("the store's prepared statements", () => {
  it('a sale-sized round of journal and outbox work compiles no SQL after the first round', () => {
    const db = tempStore();
    const journal = new Journal(db);
    const outbox = new Outbox(db);
    const round = (i: number): void => {
      const e = journal.open({
        kind: 'sale',
        merchantOrderId: String(263290010000000 + i),
        state: 'started',
        amount: 100,
        input: 'request',
        at: new Date(),
      });
      journal.transition(e.id, { from: 'started', to: 'authorizing', input: 'card', at: new Date() });
      journal.get(e.id);
      const t = outbox.enqueue({
        journalId: e.id,
        operation: 'confirm',
        idempotencyKey: `c${i}`,
        payload: {},
        at: new Date(),
      });
      outbox.done(t.id, new Date());
      outbox.depth();
    };
    round(0);
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    for (let i = 1; i <= 50; i++) round(i);
    expect(prepare).not.toHaveBeenCalled();
    db.close();
  });
});
