import { describe, expect, it } from 'vitest';
import { healthView } from '../../../src/api/health.js';
import { Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';

const tempStore = useTempStores();

/**
 * Health tells the watches of wallet QR codes that ended unpaid, awaiting the host's close by the
 * visibility rule (src/engine/outbox/watch.ts): counted beside the outbox's pending tasks, and never
 * a problem (they are not stuck).
 */
describe("health: the QR codes awaiting the host's close", () => {
  it('counts them under the outbox, and stays ok', () => {
    const db = tempStore();
    const outbox = new Outbox(db);
    const view = healthView({ outbox, engine: { busy: false }, health: { awaitingHostClose: () => 2 } });
    expect(view.outbox).toMatchObject({ pending: 0, deadLetters: 0, awaitingHostClose: 2 });
    expect(view).toMatchObject({ status: 'ok', problems: [] });
    // A daemon that does not tell it (no source) shows the outbox as before.
    expect(healthView({ outbox, engine: { busy: false } }).outbox).not.toHaveProperty('awaitingHostClose');
    db.close();
  });
});
