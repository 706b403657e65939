import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log/index.js';
import { OutboxForwarder } from '../../../../src/engine/outbox/forwarder.js';
import { OUTBOX_OPERATIONS, idempotencyKey } from '../../../../src/engine/outbox/tasks.js';
import { Outbox, openTerminalDatabase } from '../../../../src/store/index.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const tempDir = useTempDirs();

/** A host that confirms every time (the confirmation is delivered); anything else it is asked fails the test. */
function confirmingHost(): FakeAcquirer {
  const host = new FakeAcquirer();
  host.on('delivery.confirm').persist().reply({ action: 'done', reason: 'confirmed' });
  return host;
}

// A full disk: a delivery whose result the database cannot record (SQLITE_FULL, EIO) stays
// due, and is sent again; before, it was sent again on every pass (each second), hammering the host
// for as long as the disk stayed full. Now each such task waits a backoff of its own.
describe('the outbox when it cannot record a delivery', () => {
  it('a task whose record failed is not sent again before its backoff; once a record commits it is done', async () => {
    const clock = new FakeClock('2026-11-25T13:00:00Z');
    const host = confirmingHost();
    const confirms = (): number => host.calledWith('delivery.confirm').length;
    const db = openTerminalDatabase(tempDir());
    const outbox = new Outbox(db);
    let diskFull = true;
    const forwarder = new OutboxForwarder({
      db,
      outbox,
      port: host.delivery,
      clock,
      log: createLogger({ level: 'silent' }),
      // The journal's move in the same transaction: a full disk fails it, the transaction rolls back.
      onSettled: () => {
        if (diskFull) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      },
      undoRace: { processingWindowMs: 60_000 },
      random: () => 0,
      backoff: { baseMs: 1000 },
    });
    const task = outbox.enqueue({
      operation: OUTBOX_OPERATIONS.confirm,
      idempotencyKey: idempotencyKey('confirm', 'p-1'),
      payload: { paymentId: 'p-1', merchantOrderId: '263290001000001' },
      at: clock.now(),
    });
    await forwarder.runOnce();
    expect(confirms()).toBe(1);
    expect(outbox.get(task.id)?.doneAt).toBeNull();
    // Passes in the same instant: held, not sent again.
    for (let i = 0; i < 5; i++) await forwarder.runOnce();
    expect(confirms()).toBe(1);
    // After the backoff: sent again, the record fails again, the next hold is longer.
    clock.advance(1000);
    await forwarder.runOnce();
    expect(confirms()).toBe(2);
    clock.advance(500);
    await forwarder.runOnce();
    expect(confirms()).toBe(2);
    // Room again: the next attempt after the hold is recorded.
    diskFull = false;
    clock.advance(10_000);
    await forwarder.runOnce();
    expect(confirms()).toBe(3);
    expect(outbox.get(task.id)?.doneAt).not.toBeNull();
    expect(host.calls().filter((c) => c !== 'delivery.confirm')).toEqual([]);
    db.close();
  });
});
