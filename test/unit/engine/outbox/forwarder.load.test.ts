import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log/index.js';
import { OutboxForwarder, type ForwarderDeps } from '../../../../src/engine/outbox/forwarder.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type UndoTask } from '../../../../src/engine/outbox/tasks.js';
import type { AcquirerDeliveryPort, Delivery, SaleQuery } from '../../../../src/engine/ports.js';
import { Outbox, openTerminalDatabase } from '../../../../src/store/index.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const tempDir = useTempDirs();

/**
 * A host in a brown-out: the fake acquirer whose every answer waits until the test lets it go,
 * counting how many calls are in flight at once. Queries answer what `query` says (the sale shown,
 * approved, by default); confirmations and undoes time out.
 */
class BrownOutHost {
  readonly fake = new FakeAcquirer();
  inFlight = 0;
  maxInFlight = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(
    query: (id: string) => SaleQuery = (id) => ({
      kind: 'found',
      paymentId: `p-${id}`,
      state: 'approved',
    }),
  ) {
    const timeout: Delivery = { action: 'retry', reason: 'timeout' };
    for (const name of ['delivery.confirm', 'delivery.undo', 'delivery.undoByOrderId'] as const)
      this.fake
        .on(name)
        .persist()
        .reply(() => this.#held(timeout));
    this.fake
      .on('delivery.queryByOrderId')
      .persist()
      .reply((id) => this.#held(query(id)));
  }
  /** The calls in order, in short (`query 2632…`). */
  get order(): string[] {
    return this.fake.history.map((c) => `${c.name.replace('delivery.', '')} ${String(c.args[0])}`);
  }
  async #held<T>(answer: T): Promise<T> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.inFlight--;
    return answer;
  }
  /** Lets every waiting call go, until `done` settles. */
  async drain(done: Promise<unknown>): Promise<void> {
    let finished = false;
    void done.then(() => (finished = true));
    while (!finished) {
      const w = this.#waiting.splice(0);
      for (const go of w) go();
      await new Promise((r) => setImmediate(r));
    }
  }
}

function setup(host: AcquirerDeliveryPort, clock: FakeClock, extra: Partial<ForwarderDeps> = {}) {
  const db = openTerminalDatabase(tempDir());
  const outbox = new Outbox(db);
  const settled: Delivery[] = [];
  const alarms: { taskId: number; message: string }[] = [];
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: host,
    clock,
    log: createLogger({ level: 'silent' }),
    onSettled: (_t, d) => void settled.push(d),
    onAlarm: (a) => void alarms.push({ taskId: a.taskId, message: a.message }),
    undoRace: { processingWindowMs: 60_000 },
    random: () => 0,
    ...extra,
  });
  const undo = (merchantOrderId: string, sentAt: string, at: Date) => {
    const payload: UndoTask = { merchantOrderId, sentAt };
    return outbox.enqueue({
      operation: OUTBOX_OPERATIONS.undo,
      idempotencyKey: idempotencyKey('undo', merchantOrderId),
      payload: { ...payload },
      at,
    });
  };
  return { db, outbox, forwarder, settled, alarms, undo };
}

describe('the outbox under load (issue 17)', () => {
  it('a pass runs its attempts concurrently, never more than the bound at once', async () => {
    const clock = new FakeClock('2026-11-22T13:05:00Z');
    const host = new BrownOutHost();
    const { db, forwarder, undo } = setup(host.fake.delivery, clock, { concurrency: 8 });
    for (let i = 0; i < 50; i++) undo(String(263260010000000 + i), '2026-11-22T13:00:00Z', clock.now());
    const pass = forwarder.runOnce();
    await host.drain(pass);
    expect(await pass).toBe(50);
    expect(host.maxInFlight).toBe(8);
    // Each of the 50 tasks: a query, which shows the sale: no undo by order id (issue 29 defect 9).
    expect(host.order).toHaveLength(50);
    db.close();
  });

  it("the tasks whose sale closes first are attempted first (the close of the sale's day, not the task's)", async () => {
    const clock = new FakeClock('2026-11-23T03:30:00Z');
    const host = new BrownOutHost();
    const { db, forwarder, undo } = setup(host.fake.delivery, clock, { concurrency: 1 });
    // Created first, but its sale was sent today: its close is tomorrow.
    undo('263270010000001', '2026-11-23T03:20:00Z', clock.now());
    // Created later (recovery after a restart past midnight) for a sale sent yesterday: its close has passed.
    clock.advance(1000);
    undo('263260010000002', '2026-11-23T02:50:00Z', clock.now());
    const pass = forwarder.runOnce();
    await host.drain(pass);
    expect(host.order[0]).toBe('queryByOrderId 263260010000002');
    db.close();
  });

  it('a sale sent before midnight and recovered after it is past its close: no undo by order id, the query decides', async () => {
    const clock = new FakeClock('2026-11-23T03:30:00Z');
    const host = new BrownOutHost(() => ({ kind: 'found', paymentId: 'p-x', state: 'confirmed' }));
    const { db, forwarder, undo, settled } = setup(host.fake.delivery, clock);
    undo('263260010000003', '2026-11-23T02:59:00Z', clock.now());
    const pass = forwarder.runOnce();
    await host.drain(pass);
    expect(host.order).toEqual(['queryByOrderId 263260010000003']);
    expect(settled).toEqual([{ action: 'needs-refund', reason: 'the host confirmed it at the daily close' }]);
    db.close();
  });

  it('a task past its attempt ceiling raises OUTBOX_STUCK once', async () => {
    const clock = new FakeClock('2026-11-22T13:05:00Z');
    const host = new BrownOutHost();
    const { db, forwarder, undo, alarms } = setup(host.fake.delivery, clock, { attemptCeiling: 3 });
    const t = undo('263260010000004', '2026-11-22T13:00:00Z', clock.now());
    for (let i = 0; i < 5; i++) {
      const pass = forwarder.runOnce();
      await host.drain(pass);
      clock.advance(60_000);
    }
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ taskId: t.id });
    expect(alarms[0]?.message).toMatch(/sale\.undo of 263260010000004 undelivered \(3 attempts/);
    db.close();
  });

  it("a task still open near the close of its sale's day raises OUTBOX_STUCK at its first failed attempt", async () => {
    const clock = new FakeClock('2026-11-23T01:30:00Z');
    const host = new BrownOutHost();
    const { db, forwarder, undo, alarms } = setup(host.fake.delivery, clock, { alarmBeforeCloseMs: 2 * 3_600_000 });
    undo('263260010000005', '2026-11-22T13:00:00Z', clock.now());
    const pass = forwarder.runOnce();
    await host.drain(pass);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.message).toMatch(/still open 90 min before the close of its day/);
    db.close();
  });

  it('a watch for a late payment is open by design: no OUTBOX_STUCK near the close, however often it looks', async () => {
    // Found between 01:00 and 03:00 UTC (2 h before the Sao Paulo close): every QR sale whose watch was
    // still looking raised an error alarm and turned health degraded, nightly, with nothing wrong.
    const clock = new FakeClock('2026-11-23T01:30:00Z');
    const host = new BrownOutHost(() => ({ kind: 'not-found' }));
    const { db, outbox, forwarder, alarms, undo } = setup(host.fake.delivery, clock, { attemptCeiling: 3 });
    outbox.enqueue({
      operation: OUTBOX_OPERATIONS.watch,
      idempotencyKey: idempotencyKey('watch', '263260010000006'),
      payload: { merchantOrderId: '263260010000006', until: '2026-11-23T01:50:00Z' },
      at: clock.now(),
    });
    for (let i = 0; i < 5; i++) {
      await host.drain(forwarder.runOnce());
      clock.advance(60_000);
    }
    expect(alarms).toEqual([]);
    // The same hour, a delivery that fails is still told at once.
    const t = undo('263260010000007', '2026-11-22T13:00:00Z', clock.now());
    await host.drain(forwarder.runOnce());
    expect(alarms.map((a) => a.taskId)).toEqual([t.id]);
    db.close();
  });
});
