import type { Clock } from '../../core/index.js';
import type { Logger } from '../../core/log/index.js';
import type { Db, Outbox, OutboxTask } from '../../store/index.js';
import { nextTryAt, type BackoffOptions } from '../backoff.js';
import { nextDailyClose } from '../daily-close.js';
import type { AcquirerDeliveryPort, Delivery, WalletCancellationPort } from '../ports.js';
import { attemptTask, isOutboxOperation } from './attempts.js';
import type { UndoRaceOptions } from './undo-race.js';
import type { PixHostPort } from './pix.js';
import type { VoidDeliveryPort } from '../void/ports.js';
import type { CnpDeliveryPort } from '../cnp-ports.js';

export interface ForwarderDeps {
  db: Db;
  outbox: Outbox;
  port: AcquirerDeliveryPort;
  /** The e-commerce API for Pix cancels and refunds (absent without e-commerce credentials). */
  pix?: PixHostPort | undefined;
  /** The omni API's void confirmations and undos (card voids). */
  voids?: VoidDeliveryPort | undefined;
  /** Where a wallet QR void's cancellation code shows applied (`void.code-watch`; absent: no wallet QR voids). */
  wallet?: WalletCancellationPort | undefined;
  /** The card-not-present backend's delivery port (`cnp.undo`; absent without `cardNotPresent`). */
  cnp?: CnpDeliveryPort | undefined;
  clock: Clock;
  log: Logger;
  /**
   * Called inside the database transaction that closes a task (done, needs-refund or dead
   * letter), so the journal moves in the same commit as the outbox.
   */
  onSettled(task: OutboxTask, delivery: Delivery): void;
  undoRace: UndoRaceOptions;
  backoff?: BackoffOptions;
  random?: () => number;
  /** Attempts in flight at once (each bounded by the client's timeouts). Default 8. */
  concurrency?: number;
  /** Due tasks taken per pass. Default 500. */
  batch?: number;
  /** Attempts after which a task still open raises OUTBOX_STUCK. Default 20. */
  attemptCeiling?: number;
  /** A task still open this close to its sale's close raises OUTBOX_STUCK, ms. Default 2 h. */
  alarmBeforeCloseMs?: number;
  /** Told once per task (per run of the daemon) when it is stuck: the caller raises the alarm. */
  onAlarm?: (alarm: {
    journalId: number | null;
    taskId: number;
    code: 'OUTBOX_STUCK' | 'ORDER_ID_SHARED';
    message: string;
  }) => void;
}

/** The close of the business day of the sale (or void) a task belongs to: from when it was sent, else from the task's creation. */
export function taskClose(task: OutboxTask): Date {
  const sentAt = task.payload.sentAt;
  const from = typeof sentAt === 'string' && !Number.isNaN(Date.parse(sentAt)) ? sentAt : task.createdAt;
  return nextDailyClose(new Date(from));
}

/**
 * Delivers the outbox: each due task is attempted, and its result recorded in one transaction
 * with the journal's move. At least once, in order per sale (a sale has one open task at a
 * time), with backoff capped against the daily close of the sale's day. A pass runs up to
 * `concurrency` attempts at once, the tasks whose sale closes first first, so a brown-out with
 * many pending undos costs one timeout per `concurrency` tasks, not one per task; a task past
 * its attempt ceiling, or still open near its sale's close, raises OUTBOX_STUCK.
 */
export class OutboxForwarder {
  readonly #deps: ForwarderDeps;
  #running: Promise<number> | undefined;
  readonly #alarmed = new Set<number>();
  /** Order ids ORDER_ID_SHARED was raised for (per run of the daemon). */
  readonly #shared = new Set<string>();
  /**
   * Tasks delivered whose result the database could not record (a full disk, an I/O error): each
   * is sent again only after a backoff of its own, not every pass, until a record commits.
   */
  readonly #unrecorded = new Map<number, { failures: number; notBefore: number }>();

  constructor(deps: ForwarderDeps) {
    this.#deps = deps;
  }

  /** Attempts every due task once; returns how many were attempted. Never runs twice at once. */
  runOnce(): Promise<number> {
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(): Promise<number> {
    const { outbox, clock } = this.#deps;
    const nowMs = clock.now().getTime();
    const due = outbox
      .due(clock.now(), this.#deps.batch ?? 500)
      .filter((task) => {
        // A hold further off than the longest backoff is a clock stepped back: not kept.
        const notBefore = this.#unrecorded.get(task.id)?.notBefore ?? 0;
        return notBefore <= nowMs || notBefore - nowMs > (this.#deps.backoff?.maxMs ?? 300_000);
      })
      .map((task) => ({ task, close: taskClose(task).getTime() }))
      .sort((a, b) => a.close - b.close || a.task.nextTryAt.localeCompare(b.task.nextTryAt) || a.task.id - b.task.id);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < due.length; i = next++) {
        const { task } = due[i] as { task: OutboxTask };
        try {
          await this.#attempt(task);
        } catch (e) {
          // Recording the result failed (the task stays due and is tried again, after a backoff): never crash the daemon.
          const failures = (this.#unrecorded.get(task.id)?.failures ?? 0) + 1;
          const at = this.#deps.clock.now();
          this.#unrecorded.set(task.id, {
            failures,
            notBefore: nextTryAt(
              failures - 1,
              at,
              taskClose(task),
              (this.#deps.random ?? Math.random)(),
              this.#deps.backoff,
            ).getTime(),
          });
          this.#deps.log.error(
            { task: task.id, operation: task.operation, err: e, failures },
            'outbox attempt not recorded',
          );
        }
      }
    };
    const width = Math.max(1, Math.min(this.#deps.concurrency ?? 8, due.length));
    await Promise.all(Array.from({ length: width }, () => worker()));
    return due.length;
  }

  /** OUTBOX_STUCK, once per task: past the attempt ceiling, or still open near the close of its sale's day. */
  #checkStuck(task: OutboxTask, attempts: number, close: Date, now: Date, reason: string): void {
    if (this.#alarmed.has(task.id)) return;
    const ceiling = this.#deps.attemptCeiling ?? 20;
    const nearClose = now.getTime() >= close.getTime() - (this.#deps.alarmBeforeCloseMs ?? 2 * 3_600_000);
    if (attempts < ceiling && !nearClose) return;
    this.#alarmed.add(task.id);
    const { merchantVoidId, merchantOrderId } = task.payload;
    const order =
      typeof merchantVoidId === 'string'
        ? merchantVoidId
        : typeof merchantOrderId === 'string'
          ? merchantOrderId
          : `task ${task.id}`;
    const why =
      attempts >= ceiling
        ? `${attempts} attempts`
        : `still open ${Math.max(0, Math.round((close.getTime() - now.getTime()) / 60_000))} min before the close of its day`;
    const message = `${task.operation} of ${order} undelivered (${why}; last: ${reason}); the close of its day is ${close.toISOString()}`;
    this.#deps.log.error(
      { task: task.id, operation: task.operation, attempts, close: close.toISOString() },
      'outbox task stuck',
    );
    this.#deps.onAlarm?.({ journalId: task.journalId, taskId: task.id, code: 'OUTBOX_STUCK', message });
  }

  /**
   * ORDER_ID_SHARED, once per order id: the host showed another terminal's sale under it. The terminal is
   * safe (the undo race never undoes by that id); the merchant's terminals must get distinct terminal.orderIdTerminal.
   */
  #orderIdShared(task: OutboxTask, what: string): void {
    const order = typeof task.payload.merchantOrderId === 'string' ? task.payload.merchantOrderId : `task ${task.id}`;
    if (this.#shared.has(order)) return;
    this.#shared.add(order);
    const message = `order id ${order} is shared with another terminal of the merchant (${what}): give each terminal its own terminal.orderIdTerminal`;
    this.#deps.log.error({ task: task.id, merchantOrderId: order }, 'order id shared across terminals');
    this.#deps.onAlarm?.({ journalId: task.journalId, taskId: task.id, code: 'ORDER_ID_SHARED', message });
  }

  async #attempt(task: OutboxTask): Promise<void> {
    const { db, outbox, clock, log } = this.#deps;
    const now = clock.now();
    const close = taskClose(task);
    let delivery: Delivery;
    let payload: Record<string, unknown> | undefined;
    try {
      if (isOutboxOperation(task.operation)) {
        const { port, pix, voids, wallet, cnp, undoRace } = this.#deps;
        // One statement, committed (synchronous=FULL) before the request it precedes leaves.
        const save = (p: object): void => outbox.updatePayload(task.id, { ...(p as Record<string, unknown>) });
        const ctx = { port, pix, voids, wallet, cnp, undoRace, now, save };
        const attempt = await attemptTask(task.operation, task.payload, ctx);
        delivery = attempt.delivery;
        payload = attempt.payload as Record<string, unknown> | undefined;
      } else {
        delivery = { action: 'dead-letter', reason: `unknown operation ${task.operation}` };
      }
    } catch (e) {
      delivery = { action: 'retry', reason: `attempt failed: ${(e as Error).message}` };
    }
    const after = clock.now();
    db.transaction(() => {
      if (payload) {
        // The sale may have replaced the task's EMV tags (the card finished) while this attempt ran: keep those.
        const emv = outbox.byKey(task.idempotencyKey)?.payload.emv;
        outbox.updatePayload(task.id, emv === undefined ? payload : { ...payload, emv });
      }
      if (delivery.action === 'retry') {
        const random = this.#deps.random ?? Math.random;
        const closeForBackoff = after.getTime() < close.getTime() ? close : nextDailyClose(after);
        outbox.failed(
          task.id,
          delivery.reason,
          nextTryAt(task.attempts, after, closeForBackoff, random(), this.#deps.backoff),
        );
        return;
      }
      if (delivery.action === 'dead-letter') outbox.deadLetter(task.id, delivery.reason);
      else outbox.done(task.id, after);
      this.#deps.onSettled(task, delivery);
    }).immediate();
    this.#unrecorded.delete(task.id);
    if (delivery.sharedOrderId !== undefined) this.#orderIdShared(task, delivery.sharedOrderId);
    if (delivery.action === 'retry' && !delivery.watching)
      this.#checkStuck(task, task.attempts + 1, close, after, delivery.reason);
    else this.#alarmed.delete(task.id);
    const level = delivery.action === 'retry' ? 'info' : delivery.action === 'done' ? 'info' : 'error';
    log[level](
      {
        task: task.id,
        operation: task.operation,
        action: delivery.action,
        reason: delivery.reason,
        attempts: task.attempts + 1,
      },
      'outbox attempt',
    );
  }
}
