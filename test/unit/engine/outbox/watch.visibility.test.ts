import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log/index.js';
import { OutboxForwarder } from '../../../../src/engine/outbox/forwarder.js';
import { OUTBOX_OPERATIONS, idempotencyKey } from '../../../../src/engine/outbox/tasks.js';
import { AWAITING_HOST_CLOSE, attemptWatch, type WatchTask } from '../../../../src/engine/outbox/watch.js';
import type { Delivery, SaleQuery } from '../../../../src/engine/ports.js';
import { Outbox, openTerminalDatabase } from '../../../../src/store/index.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const tempDir = useTempDirs();

/**
 * The QR code's watch obeys the one visibility rule (rules/visibility.ts), as the undo races of a
 * sale and of a void do: a "not found" after the code ended is never final before the close of the
 * day the code's watch ends in, and only after the window after that close, when two answers agree.
 * The explorer found why (its wallet QR family, the terminal's code): a wallet's payment the query
 * host shows late was not found at the code's end plus its margin, the sale ended `expired`, and the
 * host confirmed the payment at the close. On 333e812 the first test fails: `done` at the code's end.
 */
const ORDER = '263330001000042';
const PID = '6f1c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f';
/** The code and its margin end at 14:00 in São Paulo (17:00 UTC); the close of that day is 03:00 UTC. */
const UNTIL = '2026-11-28T17:00:00.000Z';
const CLOSE = Date.parse('2026-11-29T03:00:00.000Z');
const WINDOW = 15 * 60_000;
const VISIBILITY = { processingWindowMs: 60_000 };

/**
 * The query host: shows the wallet's payment (a terminal sale, Status 2, unconfirmed) from `visibleAt`
 * on, undone once undone; a watch never confirms nor undoes by order id (the fake rejects what is not scripted).
 */
function host(visibleAt: number, clock: FakeClock): FakeAcquirer {
  const h = new FakeAcquirer();
  const undone = (): boolean => h.calledWith('delivery.undo').length > 0;
  h.on('delivery.undo').persist().reply({ action: 'done', reason: 'undone' });
  h.on('delivery.queryByOrderId')
    .persist()
    .reply((): SaleQuery =>
      undone()
        ? { kind: 'found', paymentId: PID, state: 'undone' }
        : clock.now().getTime() >= visibleAt
          ? { kind: 'found', paymentId: PID, state: 'approved' }
          : { kind: 'not-found' },
    );
  return h;
}

/** The payments the watch undid. */
const undone = (h: FakeAcquirer): string[] => h.calledWith('delivery.undo').map(([id]) => id);

describe("the QR code's watch: the visibility rule", () => {
  it('a payment the query host shows after the code ended (and its margin) is found and undone', async () => {
    const clock = new FakeClock('2026-11-28T17:00:01.000Z');
    // Taken by the wallet before the code ended, shown by the query host only at 21:00 local.
    const h = host(Date.parse('2026-11-29T00:00:00.000Z'), clock);
    let task: WatchTask = { merchantOrderId: ORDER, until: UNTIL, amount: 2500 };
    const seen: Delivery[] = [];
    while (seen.at(-1)?.action !== 'done' && clock.now().getTime() < CLOSE + 2 * WINDOW) {
      const r = await attemptWatch(h.delivery, task, clock.now(), VISIBILITY);
      seen.push(r.delivery);
      task = r.payload ?? task;
      clock.advance(30 * 60_000);
    }
    // 333e812: done at 17:00:01 ("no payment before the code ended"), the payment confirmed at the close.
    expect(seen[0]).toMatchObject({ action: 'retry', watching: true });
    expect(seen[0]?.reason).toContain(AWAITING_HOST_CLOSE);
    expect(seen.at(-1)).toMatchObject({ action: 'done', late: true });
    expect(undone(h)).toEqual([PID]);
  });

  it('nothing paid: awaiting the close, then the window after it, then two agreeing answers', async () => {
    const clock = new FakeClock(UNTIL);
    const h = host(Number.POSITIVE_INFINITY, clock);
    let task: WatchTask = { merchantOrderId: ORDER, until: UNTIL };
    const at = async (iso: string): Promise<Delivery> => {
      clock.set(iso);
      const r = await attemptWatch(h.delivery, task, clock.now(), VISIBILITY);
      task = r.payload ?? task;
      return r.delivery;
    };
    for (const iso of ['2026-11-28T17:00:00.000Z', '2026-11-29T02:59:59.999Z', '2026-11-29T03:14:59.999Z']) {
      const d = await at(iso);
      expect([iso, d.action, d.watching]).toEqual([iso, 'retry', true]);
      expect(d.reason).toContain(AWAITING_HOST_CLOSE);
    }
    expect(task.notFoundAfterWindow).toBeUndefined();
    const first = await at('2026-11-29T03:15:00.000Z');
    expect([first.action, task.notFoundAfterWindow]).toEqual(['retry', 1]);
    const second = await at('2026-11-29T03:16:00.000Z');
    expect(second).toMatchObject({ action: 'done' });
    expect(second.late).toBeUndefined();
    expect(undone(h)).toEqual([]);
  });

  it('a code whose watch ends at 23:59 gets the whole window after the close, not a minute of it', async () => {
    const clock = new FakeClock('2026-11-29T02:59:30.000Z');
    const h = host(Number.POSITIVE_INFINITY, clock);
    const task: WatchTask = { merchantOrderId: ORDER, until: '2026-11-29T02:59:00.000Z' };
    for (const iso of ['2026-11-29T02:59:30.000Z', '2026-11-29T03:05:00.000Z', '2026-11-29T03:14:00.000Z']) {
      clock.set(iso);
      expect((await attemptWatch(h.delivery, task, clock.now(), VISIBILITY)).delivery.action).toBe('retry');
    }
  });

  it('through the forwarder: the wait for the close raises no OUTBOX_STUCK, and the watch ends after it', async () => {
    const clock = new FakeClock('2026-11-28T17:00:00.000Z');
    const db = openTerminalDatabase(tempDir());
    const outbox = new Outbox(db);
    const settled: Delivery[] = [];
    const alarms: string[] = [];
    const forwarder = new OutboxForwarder({
      db,
      outbox,
      port: host(Number.POSITIVE_INFINITY, clock).delivery,
      clock,
      log: createLogger({ level: 'silent' }),
      onSettled: (_t, d) => void settled.push(d),
      onAlarm: (a) => void alarms.push(a.code),
      undoRace: VISIBILITY,
      random: () => 0,
      attemptCeiling: 3,
    });
    const task = outbox.enqueue({
      operation: OUTBOX_OPERATIONS.watch,
      idempotencyKey: idempotencyKey('watch', ORDER),
      payload: { merchantOrderId: ORDER, until: UNTIL },
      at: clock.now(),
    });
    let passes = 0;
    while (settled.length === 0 && passes++ < 500) {
      await forwarder.runOnce();
      const next = outbox.open()[0]?.nextTryAt;
      if (next) clock.set(new Date(Math.max(Date.parse(next), clock.now().getTime() + 1)).toISOString());
    }
    expect(settled).toEqual([expect.objectContaining({ action: 'done' })]);
    expect(outbox.byKey(task.idempotencyKey)?.doneAt).not.toBeNull();
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(CLOSE + WINDOW);
    expect(alarms).toEqual([]);
    db.close();
  });
});
