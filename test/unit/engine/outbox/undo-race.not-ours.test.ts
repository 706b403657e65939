import { describe, expect, it } from 'vitest';
import type { UndoTask } from '../../../../src/engine/outbox/tasks.js';
import { attemptUndo } from '../../../../src/engine/outbox/undo-race.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';

/** A host whose query shows only another terminal's sale under our order id; anything else it is asked fails the test. */
function otherTerminalHost(): FakeAcquirer {
  const host = new FakeAcquirer();
  host.on('delivery.queryByOrderId').persist().reply({ kind: 'not-ours', reason: 'a sale of terminal 42009999' });
  return host;
}

const sentAt = '2026-11-22T13:00:00.000Z';
const task: UndoTask = { merchantOrderId: '263260010360003', sentAt };
const options = { processingWindowMs: 60_000, visibilityWindowMs: 15 * 60_000 };

/**
 * Defect 9's rest (issue 29): our sale never reached the host and another terminal's sale holds our
 * order id. On cfef2df the query read "unknown" for ever (the it.fails "defect 9 (left)" of the
 * explorer): the race never ended. Now ours is "not found" by the visibility rule, and the undo by
 * order id (which would undo the other terminal's sale) is never sent.
 */
describe("the undo race under an order id another terminal's sale holds", () => {
  it('never undoes by order id, and is not final before the close of the sale’s day and its window', async () => {
    const host = otherTerminalHost();
    const early = await attemptUndo(host.delivery, task, new Date('2026-11-22T13:05:00.000Z'), options);
    expect(early.delivery.action).toBe('retry');
    const inWindow = await attemptUndo(host.delivery, task, new Date('2026-11-23T03:10:00.000Z'), options);
    expect(inWindow.delivery.action).toBe('retry');
    expect(host.calls().filter((c) => c !== 'delivery.queryByOrderId')).toEqual([]);
  });

  it('ends "nothing was charged" after two agreeing answers past the close and its window, naming the other sale', async () => {
    const host = otherTerminalHost();
    const first = await attemptUndo(host.delivery, task, new Date('2026-11-23T03:20:00.000Z'), options);
    expect(first.delivery.action).toBe('retry');
    const second = await attemptUndo(
      host.delivery,
      first.payload ?? task,
      new Date('2026-11-23T03:21:00.000Z'),
      options,
    );
    expect(second.delivery).toMatchObject({
      action: 'done',
      reason: expect.stringMatching(/nothing was charged \(the host shows only a sale of terminal 42009999\)/),
    });
    expect(host.calls().filter((c) => c !== 'delivery.queryByOrderId')).toEqual([]);
  });
});
