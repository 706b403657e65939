import type { Delivery, WalletCancellationPort } from '../ports.js';
import { WALLET_CANCELLATION, decide, notFoundVerdict, type VisibilityOptions } from '../rules/index.js';
import { AWAITING_HOST_CLOSE } from './watch.js';

/** `void.code-watch`: a wallet QR void's cancellation code that ended unpaid on the terminal. */
export interface CodeWatchTask {
  merchantVoidId: string;
  /** The voided sale's PaymentId: the host lists the applied cancellation under it. */
  paymentId: string;
  /** The code's validity plus the watch margin (ISO): the last instant the wallet may have applied it. */
  until: string;
  /** "Not applied" answers counted past the close of the code's day and the window after it (rules/visibility.ts). */
  notFoundAfterWindow?: number;
}

export interface CodeWatchAttempt {
  delivery: Delivery;
  payload?: CodeWatchTask;
}

/**
 * One look for a cancellation code the wallet applied after the terminal stopped showing it,
 * decided by the rulebook's `void (wallet QR cancellation code)` table (rules/book-create.ts
 * `WALLET_CANCELLATION`): applied → done, `late` (the money went back: the void stands); not
 * applied → the visibility rule, the same as the wallet QR sale's watch and every undo: never final
 * before the close of the day `until` falls in, and only after the window after that close, when
 * `agreeing` answers agree. Until then the void holds its amount (`expiring` is in
 * VOID_HOLDS_AMOUNT), so nobody voids again what the wallet may still give back.
 */
export async function attemptCodeWatch(
  port: WalletCancellationPort,
  task: CodeWatchTask,
  now: Date,
  visibility: VisibilityOptions,
): Promise<CodeWatchAttempt> {
  let found;
  try {
    found = await port.applied(task.paymentId, task.merchantVoidId);
  } catch (e) {
    return { delivery: { action: 'retry', reason: `query: ${(e as Error).message}` } };
  }
  const rule = decide(WALLET_CANCELLATION, found ? 'applied' : 'not-applied');
  if (found && rule.decision === 'done')
    return {
      delivery: {
        action: 'done',
        reason: `the wallet applied the code late (VoidId ${found.voidId})`,
        late: true,
        voidId: found.voidId,
      },
    };
  if (now.getTime() < Date.parse(task.until))
    return { delivery: { action: 'retry', reason: 'not applied yet; watching until the code ends', watching: true } };
  const v = notFoundVerdict(task.until, now, task.notFoundAfterWindow, visibility, 'the code');
  const keep =
    v.count !== (task.notFoundAfterWindow ?? 0) ? { payload: { ...task, notFoundAfterWindow: v.count } } : {};
  if (v.final) return { delivery: { action: 'done', reason: `not applied: ${v.reason}` }, ...keep };
  return {
    delivery: { action: 'retry', reason: `the code ended; ${AWAITING_HOST_CLOSE} (${v.reason})`, watching: true },
    ...keep,
  };
}
