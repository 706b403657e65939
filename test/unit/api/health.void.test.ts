import { describe, expect, it } from 'vitest';
import { healthView } from '../../../src/api/health.js';
import { Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';

const tempStore = useTempStores();

describe('health while a void holds the pinpad', () => {
  it('busy is true while a sale or a void uses the pinpad, false when neither does', () => {
    const db = tempStore();
    const outbox = new Outbox(db);
    const busy = (sale: boolean, v?: boolean) =>
      healthView({ outbox, engine: { busy: sale }, ...(v === undefined ? {} : { voids: { busy: v } }) }).busy;
    expect(busy(false, true)).toBe(true);
    expect(busy(true, false)).toBe(true);
    expect(busy(false, false)).toBe(false);
    expect(busy(false)).toBe(false);
    db.close();
  });
});
