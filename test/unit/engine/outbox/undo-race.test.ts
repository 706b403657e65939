import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log/index.js';
import { OutboxForwarder } from '../../../../src/engine/outbox/forwarder.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type UndoTask } from '../../../../src/engine/outbox/tasks.js';
import { attemptUndo } from '../../../../src/engine/outbox/undo-race.js';
import { attemptVoidUndo } from '../../../../src/engine/outbox/void.js';
import type { Delivery, HostSaleState, SaleQuery } from '../../../../src/engine/ports.js';
import { Outbox, openTerminalDatabase, type OutboxTask } from '../../../../src/store/index.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const tempDir = useTempDirs();

/** A host whose answers the test scripts, each answered once, in order; the fake records every call. */
function scriptedHost(answers: {
  undo?: Delivery[];
  undoByOrderId?: Delivery[];
  confirm?: Delivery[];
  query?: SaleQuery[];
}): FakeAcquirer {
  const host = new FakeAcquirer();
  for (const d of answers.confirm ?? []) host.on('delivery.confirm').reply(d);
  for (const d of answers.undo ?? []) host.on('delivery.undo').reply(d);
  for (const d of answers.undoByOrderId ?? []) host.on('delivery.undoByOrderId').reply(d);
  for (const q of answers.query ?? []) host.on('delivery.queryByOrderId').reply(q);
  return host;
}

const SHORT: Record<string, string> = {
  'delivery.confirm': 'confirm',
  'delivery.undo': 'undo',
  'delivery.undoByOrderId': 'undo-order',
  'delivery.queryByOrderId': 'query',
};
/** The calls in short (`query 2632…`, `undo p-1`). */
const calls = (host: FakeAcquirer): string[] =>
  host.history.map((c) => `${SHORT[c.name] ?? c.name} ${String(c.args[0])}`);

const retry = (reason = 'HTTP 404'): Delivery => ({ action: 'retry', reason });
const sentAt = '2026-11-22T13:00:00.000Z';
const window = { processingWindowMs: 60_000 };
const task: UndoTask = { merchantOrderId: '263260010360003', sentAt };
const at = (iso: string) => new Date(iso);

describe("the undo race, bounded by the close of the SALE's business day (issue 17)", () => {
  it('a sale that landed late is found by the query and undone by its PaymentId next', async () => {
    const host = scriptedHost({
      undoByOrderId: [retry()],
      query: [{ kind: 'found', paymentId: 'p-1', state: 'approved' }],
      undo: [{ action: 'done', reason: 'undone' }],
    });
    const first = await attemptUndo(host.delivery, task, at('2026-11-22T13:00:05Z'), window);
    expect(first).toEqual({
      delivery: { action: 'retry', reason: 'found; undo by PaymentId next' },
      payload: { ...task, paymentId: 'p-1' },
    });
    const second = await attemptUndo(host.delivery, first.payload!, at('2026-11-22T13:00:07Z'), window);
    expect(second.delivery.action).toBe('done');
    // The query first: a sale it shows is undone by its PaymentId only (issue 29 defect 9).
    expect(calls(host)).toEqual(['query 263260010360003', 'undo p-1']);
  });

  it('"not found" is never final before the close: a sale visible only minutes later is still undone', async () => {
    const host = scriptedHost({
      undoByOrderId: [retry(), retry(), retry()],
      query: [{ kind: 'not-found' }, { kind: 'not-found' }, { kind: 'found', paymentId: 'p-late', state: 'approved' }],
      undo: [{ action: 'done', reason: 'undone' }],
    });
    // Two not-founds well after the old 60-second window: the old race called that "nothing was charged".
    let r = await attemptUndo(host.delivery, task, at('2026-11-22T13:02:00Z'), window);
    expect(r.delivery.action).toBe('retry');
    r = await attemptUndo(host.delivery, r.payload ?? task, at('2026-11-22T13:05:00Z'), window);
    expect(r.delivery.action).toBe('retry');
    r = await attemptUndo(host.delivery, r.payload ?? task, at('2026-11-22T13:30:00Z'), window);
    expect(r.payload?.paymentId).toBe('p-late');
    r = await attemptUndo(host.delivery, r.payload!, at('2026-11-22T13:30:05Z'), window);
    expect(r.delivery.action).toBe('done');
  });

  it('"nothing was charged" only past the close of the sale\'s day, when a final query agrees', async () => {
    const host = scriptedHost({ query: [{ kind: 'not-found' }, { kind: 'not-found' }] });
    // The close is 03:00Z; the window after it (15 min by default) counts from the close.
    const first = await attemptUndo(host.delivery, task, at('2026-11-23T03:15:01Z'), window);
    expect(first.delivery.action).toBe('retry');
    expect(first.payload?.notFoundAfterWindow).toBe(1);
    const second = await attemptUndo(host.delivery, first.payload!, at('2026-11-23T03:15:05Z'), window);
    expect(second.delivery).toEqual({
      action: 'done',
      reason: "not found 2 times after the close of the sale's day: nothing was charged",
    });
    expect(calls(host)).toEqual(['query 263260010360003', 'query 263260010360003']);
  });

  it('confirmed at the host, seen while undoing before the close: needs-refund at once', async () => {
    const host = scriptedHost({
      undoByOrderId: [retry('HTTP 400')],
      query: [{ kind: 'found', paymentId: 'p-3', state: 'confirmed' }],
    });
    const r = await attemptUndo(host.delivery, task, at('2026-11-22T13:10:00Z'), window);
    expect(r.delivery).toMatchObject({ action: 'needs-refund' });
  });

  it.each(['undone', 'declined', 'cancelled'] as const)('%s is final: nothing to undo', async (state) => {
    const host = scriptedHost({
      undoByOrderId: [retry()],
      query: [{ kind: 'found', paymentId: 'p-4', state }],
    });
    expect((await attemptUndo(host.delivery, task, at('2026-11-22T13:10:00Z'), window)).delivery.action).toBe('done');
  });

  it('a query that fails settles nothing', async () => {
    const host = scriptedHost({ undoByOrderId: [retry()], query: [{ kind: 'unknown', reason: 'timeout' }] });
    expect((await attemptUndo(host.delivery, task, at('2026-11-22T14:00:00Z'), window)).delivery).toEqual({
      action: 'retry',
      reason: 'query: timeout',
    });
  });

  it('past the close: confirmed by the host → needs-refund, undone → done, no undo by order id', async () => {
    const confirmed = scriptedHost({
      query: [{ kind: 'found', paymentId: 'p-2', state: 'confirmed' }],
    });
    expect(
      (await attemptUndo(confirmed.delivery, { ...task, paymentId: 'p-2' }, at('2026-11-23T03:00:01Z'), window))
        .delivery.action,
    ).toBe('needs-refund');
    expect(calls(confirmed)).toEqual(['query 263260010360003']);
    const undone = scriptedHost({
      query: [{ kind: 'found', paymentId: 'p-2', state: 'cancelled' }],
    });
    expect(
      (await attemptUndo(undone.delivery, { ...task, paymentId: 'p-2' }, at('2026-11-23T04:00:00Z'), window)).delivery
        .action,
    ).toBe('done');
  });

  it('past the close, a sale the host still shows pending is undone by its PaymentId, attempt after attempt', async () => {
    const pending: SaleQuery = { kind: 'found', paymentId: 'p-5', state: 'approved' };
    const host = scriptedHost({
      query: [pending, pending],
      undo: [retry('HTTP 500'), { action: 'done', reason: 'undone' }],
    });
    const r1 = await attemptUndo(host.delivery, task, at('2026-11-23T03:10:00Z'), window);
    expect(r1.delivery.action).toBe('retry');
    const r2 = await attemptUndo(host.delivery, r1.payload ?? task, at('2026-11-23T03:20:00Z'), window);
    expect(r2.delivery.action).toBe('done');
    expect(calls(host)).toEqual(['query 263260010360003', 'undo p-5', 'query 263260010360003', 'undo p-5']);
  });

  it('in the last minutes before the close the order-id undo stops; a pending sale is undone by PaymentId', async () => {
    const host = scriptedHost({
      query: [{ kind: 'found', paymentId: 'p-6', state: 'approved' }],
      undo: [{ action: 'done', reason: 'undone' }],
    });
    const r = await attemptUndo(host.delivery, task, at('2026-11-23T02:57:00Z'), window);
    expect(r.delivery.action).toBe('done');
    expect(calls(host)).toEqual(['query 263260010360003', 'undo p-6']);
  });

  it('an undo the host settles (done, needs-refund, dead letter) needs no query', async () => {
    for (const action of ['done', 'needs-refund', 'dead-letter'] as const) {
      const host = scriptedHost({ undo: [{ action, reason: action }] });
      expect(
        (await attemptUndo(host.delivery, { ...task, paymentId: 'p' }, at('2026-11-22T14:00:00Z'), window)).delivery
          .action,
      ).toBe(action);
      expect(calls(host)).toEqual(['undo p']);
    }
  });
});

describe('the outbox forwarder', () => {
  function setup(host: FakeAcquirer, clock: FakeClock) {
    const db = openTerminalDatabase(tempDir());
    const outbox = new Outbox(db);
    const settled: { task: OutboxTask; delivery: Delivery }[] = [];
    const forwarder = new OutboxForwarder({
      db,
      outbox,
      port: host.delivery,
      clock,
      log: createLogger({ level: 'silent' }),
      onSettled: (t, d) => void settled.push({ task: t, delivery: d }),
      undoRace: window,
      random: () => 0,
    });
    return { db, outbox, forwarder, settled };
  }

  it('retries with backoff, keeps what the race learnt, and settles the journal in the same commit', async () => {
    const clock = new FakeClock('2026-11-22T13:00:05Z');
    const host = scriptedHost({
      undoByOrderId: [retry()],
      query: [
        { kind: 'found', paymentId: 'p-1', state: 'approved' },
        { kind: 'found', paymentId: 'p-1', state: 'approved' },
      ],
      undo: [
        { action: 'retry', reason: 'HTTP 503' },
        { action: 'done', reason: 'undone' },
      ],
    });
    const { db, outbox, forwarder, settled } = setup(host, clock);
    const t = outbox.enqueue({
      operation: OUTBOX_OPERATIONS.undo,
      idempotencyKey: idempotencyKey('undo', task.merchantOrderId),
      payload: { ...task },
      at: clock.now(),
    });
    expect(await forwarder.runOnce()).toBe(1);
    expect(outbox.byKey(t.idempotencyKey)).toMatchObject({
      attempts: 1,
      payload: { paymentId: 'p-1' },
      nextTryAt: '2026-11-22T13:00:05.500Z',
    });
    expect(await forwarder.runOnce()).toBe(0);
    clock.advance(500);
    await forwarder.runOnce();
    expect(outbox.byKey(t.idempotencyKey)).toMatchObject({
      attempts: 2,
      lastError: 'still pending at the host',
      nextTryAt: '2026-11-22T13:00:06.500Z',
    });
    clock.advance(1000);
    await forwarder.runOnce();
    expect(outbox.byKey(t.idempotencyKey)?.doneAt).not.toBeNull();
    expect(settled.map((s) => s.delivery.action)).toEqual(['done']);
    expect(calls(host)).toEqual(['query 263260010360003', 'undo p-1', 'query 263260010360003', 'undo p-1']);
    db.close();
  });

  it('dead-letters only what the host answered with a permanent code, and reports it', async () => {
    const clock = new FakeClock('2026-11-22T13:00:05Z');
    const host = scriptedHost({ confirm: [{ action: 'dead-letter', reason: 'sale was undone; cannot confirm' }] });
    const { db, outbox, forwarder, settled } = setup(host, clock);
    outbox.enqueue({
      operation: OUTBOX_OPERATIONS.confirm,
      idempotencyKey: 'confirm:1',
      payload: { merchantOrderId: '1', paymentId: 'p-9' },
      at: clock.now(),
    });
    await forwarder.runOnce();
    expect(outbox.depth()).toEqual({ pending: 0, deadLetters: 1, oldestDeadline: null });
    expect(settled[0]?.delivery.reason).toBe('sale was undone; cannot confirm');
    db.close();
  });

  it('a port that throws is a retry, never a lost task', async () => {
    const clock = new FakeClock('2026-11-22T13:00:05Z');
    const host = scriptedHost({});
    const { db, outbox, forwarder } = setup(host, clock);
    outbox.enqueue({
      operation: OUTBOX_OPERATIONS.confirm,
      idempotencyKey: 'confirm:2',
      payload: { merchantOrderId: '2', paymentId: 'p-8' },
      at: clock.now(),
    });
    await forwarder.runOnce();
    expect(outbox.byKey('confirm:2')).toMatchObject({
      attempts: 1,
      doneAt: null,
      deadLetterReason: null,
      lastError: 'attempt failed: the fake acquirer has no answer scripted for delivery.confirm("p-8", undefined)',
    });
    db.close();
  });
});

describe('the undo race and a sale captured when paid (the e-commerce QR sale: no confirmation of its own)', () => {
  const paid: SaleQuery = { kind: 'found', paymentId: 'e-1', state: 'approved', captured: true };

  it('past the close, still paid → needs-refund, with no undo sent', async () => {
    const host = scriptedHost({ query: [paid] });
    const r = await attemptUndo(host.delivery, { ...task, paymentId: 'e-1' }, at('2026-11-23T03:01:00Z'), window);
    expect(r.delivery).toEqual({
      action: 'needs-refund',
      reason: 'captured when paid, and still paid after the daily close',
    });
    expect(calls(host)).toEqual([`query ${task.merchantOrderId}`]);
  });

  it('before the close, the same answer is a retry (the void is tried again), never needs-refund', async () => {
    const host = scriptedHost({ undo: [retry('still in status 2')], query: [paid] });
    const r = await attemptUndo(host.delivery, { ...task, paymentId: 'e-1' }, at('2026-11-23T02:50:00Z'), window);
    expect(r.delivery.action).toBe('retry');
  });
});

describe('a void undo without a VoidId whose refusal decides nothing', () => {
  const voidTask = { merchantVoidId: '263260010360009', paymentId: 'p-v', sentAt };
  const port = (state: HostSaleState | undefined): FakeAcquirer['voids'] => {
    const host = new FakeAcquirer({ saleState: true });
    host.on('voids.confirmVoid').persist().reply({ action: 'done', reason: 'x' });
    host.on('voids.undoVoid').persist().reply({ action: 'retry', reason: 'HTTP 400' });
    host
      .on('voids.undoVoidByMerchantVoidId')
      .persist()
      .reply({ action: 'retry', reason: 'HTTP 400 ReturnCode 309: the answer decides nothing' });
    host.on('voids.saleState').persist().reply(state);
    return host.voids;
  };
  it('before the close of its day: retried', async () => {
    expect(
      (await attemptVoidUndo(port('cancelled'), voidTask, at('2026-11-22T20:00:00Z'), { processingWindowMs: 60_000 }))
        .delivery.action,
    ).toBe('retry');
  });
  it('past the close: the sale voided (cancelled) → the void stood; anything else → dead letter (ask the acquirer); unreadable → retried', async () => {
    const past = at('2026-11-23T03:10:00Z');
    expect(
      (await attemptVoidUndo(port('cancelled'), voidTask, past, { processingWindowMs: 60_000 })).delivery.action,
    ).toBe('needs-refund');
    for (const other of ['approved', 'confirmed', 'undone', 'declined', 'pending', 'unknown'] as const)
      expect((await attemptVoidUndo(port(other), voidTask, past, { processingWindowMs: 60_000 })).delivery.action).toBe(
        'dead-letter',
      );
    expect(
      (await attemptVoidUndo(port(undefined), voidTask, past, { processingWindowMs: 60_000 })).delivery.action,
    ).toBe('retry');
  });
});
