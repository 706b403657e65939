import { describe, expect, it } from 'vitest';
import { PaymentOwners } from '../../../src/api/index.js';
import { Journal, PaymentOwnerRows } from '../../../src/store/index.js';
import { declinedSaleRow, useTempStores } from '../../helpers/store.js';

const store = useTempStores('omnipos-owners-');

describe('payment_owners: which screen started which payment, kept with the payment', () => {
  it('keeps the owner, the last one written standing; none for a payment no screen started', () => {
    const db = store();
    const journal = new Journal(db);
    const rows = new PaymentOwnerRows(db);
    const [a, b] = [declinedSaleRow(journal), declinedSaleRow(journal)];
    rows.record(a, 'cashier');
    rows.record(a, 'kiosk');
    expect(rows.ownerOf(a)).toBe('kiosk');
    expect(rows.ownerOf(b)).toBeUndefined();
  });

  it('goes with its payment (retention deletes the rows of an archived day); its id is never given again', () => {
    const db = store();
    const journal = new Journal(db);
    const rows = new PaymentOwnerRows(db);
    const id = declinedSaleRow(journal);
    rows.record(id, 'kiosk');
    db.prepare('DELETE FROM journal_transitions WHERE journal_id = ?').run(id);
    db.prepare('DELETE FROM journal WHERE id = ?').run(id);
    expect(rows.ownerOf(id)).toBeUndefined();
    // The next payment takes a new id (migration 15), never the deleted one.
    expect(declinedSaleRow(journal)).toBe(id + 1);
    expect(rows.ownerOf(id)).toBeUndefined();
  });

  it('refuses an owner for a payment that does not exist', () => {
    const rows = new PaymentOwnerRows(store());
    expect(() => rows.record(999, 'kiosk')).toThrow(/FOREIGN KEY/);
  });

  it('PaymentOwners over the rows: a new instance (a restart) still knows; a failed write keeps memory and fails nothing', () => {
    const db = store();
    const journal = new Journal(db);
    const id = declinedSaleRow(journal);
    new PaymentOwners(new PaymentOwnerRows(db)).claim(id, 'kiosk');
    const after = new PaymentOwners(new PaymentOwnerRows(db));
    expect([after.owns(id, 'kiosk'), after.owns(id, 'cashier'), after.owns(id + 1, 'kiosk')]).toEqual([
      true,
      false,
      false,
    ]);
    const broken = new PaymentOwners({
      record: () => {
        throw new Error('SQLITE_FULL');
      },
      ownerOf: () => undefined,
    });
    expect(() => broken.claim(7, 'cashier')).not.toThrow();
    expect(broken.owns(7, 'cashier')).toBe(true);
    expect(new PaymentOwners().owns(id, 'kiosk')).toBe(false);
  });
});
