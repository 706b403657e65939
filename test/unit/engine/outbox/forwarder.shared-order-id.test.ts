import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log/index.js';
import { OutboxForwarder, type ForwarderDeps } from '../../../../src/engine/outbox/forwarder.js';
import { OUTBOX_OPERATIONS, idempotencyKey } from '../../../../src/engine/outbox/tasks.js';
import { Outbox, openTerminalDatabase } from '../../../../src/store/index.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const tempDir = useTempDirs();

/** A host whose query by order id shows only another terminal's sale under ours; anything else it is asked fails the test. */
function sharedHost(): FakeAcquirer {
  const host = new FakeAcquirer();
  host.on('delivery.queryByOrderId').persist().reply({ kind: 'not-ours', reason: 'a sale of terminal 42009999' });
  return host;
}

type Alarm = Parameters<NonNullable<ForwarderDeps['onAlarm']>>[0];

/**
 * Issue 29, defect 9's alarm: `orderIdTerminal` shared by two of a merchant's terminals. The terminal
 * was made safe (it never undoes by an order id another terminal's sale holds); now the first time the
 * host shows such a sale, ORDER_ID_SHARED is raised through the outbox's alarm (the daemon's alarms:
 * health, the webhook), once per order id. On 4ef2f17 nothing was raised.
 */
describe('the outbox when the host shows another terminal’s sale under our order id', () => {
  it('raises ORDER_ID_SHARED once per order id, naming it and the key to fix, and still undoes nothing by it', async () => {
    const clock = new FakeClock('2026-11-22T13:00:00.000Z');
    const db = openTerminalDatabase(tempDir());
    const outbox = new Outbox(db);
    const host = sharedHost();
    const alarms: Alarm[] = [];
    const forwarder = new OutboxForwarder({
      db,
      outbox,
      port: host.delivery,
      clock,
      log: createLogger({ level: 'silent' }),
      onSettled: () => undefined,
      undoRace: { processingWindowMs: 60_000 },
      random: () => 0,
      backoff: { baseMs: 1000, maxMs: 1000 },
      onAlarm: (a) => void alarms.push(a),
    });
    const undo = (merchantOrderId: string) =>
      outbox.enqueue({
        operation: OUTBOX_OPERATIONS.undo,
        idempotencyKey: idempotencyKey('undo', merchantOrderId),
        payload: { merchantOrderId, sentAt: clock.now().toISOString(), amount: 1000 },
        at: clock.now(),
      });
    const first = undo('263260010360003');
    for (let i = 0; i < 3; i++) {
      await forwarder.runOnce();
      clock.advance(2000);
    }
    undo('263260010360004');
    await forwarder.runOnce();
    const shared = alarms.filter((a) => a.code === 'ORDER_ID_SHARED');
    expect(shared.map((a) => a.message.match(/order id (\d+)/)?.[1])).toEqual(['263260010360003', '263260010360004']);
    expect(shared[0]).toMatchObject({
      taskId: first.id,
      message: expect.stringMatching(/another terminal .*42009999.*terminal\.orderIdTerminal/),
    });
    expect(host.calls().filter((c) => c !== 'delivery.queryByOrderId')).toEqual([]);
    db.close();
  });
});
