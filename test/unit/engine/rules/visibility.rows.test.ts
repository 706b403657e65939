import { describe, expect, it } from 'vitest';
import type {
  AcquirerDeliveryPort,
  Delivery,
  SaleQuery,
  WalletCancellationPort,
} from '../../../../src/engine/ports.js';
import type { CnpDeliveryPort } from '../../../../src/engine/cnp-ports.js';
import { ATTEMPTS } from '../../../../src/engine/outbox/attempts.js';
import { attemptCodeWatch } from '../../../../src/engine/outbox/code-watch.js';
import { attemptCnpVoidPart } from '../../../../src/engine/outbox/cnp-changes.js';
import { attemptUndo } from '../../../../src/engine/outbox/undo-race.js';
import { attemptVoidUndo } from '../../../../src/engine/outbox/void.js';
import { attemptWatch } from '../../../../src/engine/outbox/watch.js';
import { RULEBOOK } from '../../../../src/engine/rules/rulebook.js';
import {
  DEFAULT_VISIBILITY_WINDOW_MS,
  operationClose,
  type VisibilityOptions,
} from '../../../../src/engine/rules/visibility.js';
import { FINAL_DECISIONS, type Rule } from '../../../../src/engine/rules/vocabulary.js';

/**
 * The adversary of "the host may not show it yet" (rules/visibility.ts), written once: every row of
 * the rulebook where the host does not show the operation (its `not-found`, `not-applied`,
 * `not-shown` answer) or that names the `visibility` rule is listed from the rulebook itself, and
 * each must have a probe below that drives the real outbox attempt with a host that never shows
 * it. The probe fails unless the attempt keeps to the one rule: not final before the close of the
 * operation's day, nor inside the window after it, and final only once two answers past it agree.
 * A table added with such a row and no probe fails here; an attempt that ends on its own deadline
 * (as the wallet QR void's cancellation code did at its validity plus a margin) fails its probe.
 */

const NOT_SHOWN = new Set(['not-found', 'not-applied', 'not-shown']);

/** Rows the visibility rule must govern: `table/answer`. */
function governedRows(): string[] {
  const rows: string[] = [];
  for (const [table, rules] of Object.entries(RULEBOOK)) {
    for (const [answer, rule] of Object.entries(rules as Record<string, Rule>)) {
      if (NOT_SHOWN.has(answer) || rule.decision === 'visibility') rows.push(`${table}/${answer}`);
    }
  }
  return rows.sort();
}

function rowDecision(row: string): Rule['decision'] {
  const at = row.lastIndexOf('/');
  const table = RULEBOOK[row.slice(0, at) as keyof typeof RULEBOOK] as Record<string, Rule>;
  return table[row.slice(at + 1)]!.decision;
}

const SENT = '2026-11-24T14:00:00.000Z';
const OPTIONS: VisibilityOptions = { processingWindowMs: 60_000 };
const UNDO_OPTIONS = { processingWindowMs: 60_000 };

type Step = (now: Date, payload: object) => Promise<{ delivery: Delivery; payload?: object | undefined }>;

const notFoundQuery = (): Promise<SaleQuery> => Promise.resolve({ kind: 'not-found' });
const retry = (reason: string): Promise<Delivery> => Promise.resolve({ action: 'retry', reason });
const never = (): Promise<never> => Promise.reject(new Error('not asked in this probe'));

/** The card host, showing nothing under any order id (and refusing undos: nothing to undo). */
const emptyHost = (o: { cancelPending?: boolean } = {}): AcquirerDeliveryPort => ({
  confirm: never,
  undo: () => retry('no such sale'),
  undoByOrderId: () => retry('no such sale'),
  queryByOrderId: notFoundQuery,
  ...(o.cancelPending
    ? { cancelPending: () => Promise.resolve({ action: 'done' as const, reason: 'nothing held' }) }
    : {}),
});

const emptyCnp: CnpDeliveryPort = { ...emptyHost(), capture: never, query: notFoundQuery };

const noWallet: WalletCancellationPort = { applied: () => Promise.resolve(undefined) };

/** Each governed row's probe: its real attempt, its first payload, and the instant its not-found counts from. */
const PROBES: Record<string, { start: object; step: Step }> = {
  'sale.undo/not-found': {
    start: { merchantOrderId: '1', sentAt: SENT },
    step: (now, t) => attemptUndo(emptyHost(), t as never, now, UNDO_OPTIONS),
  },
  'qr.watch/not-found': {
    start: { merchantOrderId: '1', until: SENT, hostCancelled: true },
    step: (now, t) => attemptWatch(emptyHost(), t as never, now, OPTIONS),
  },
  'qr.watch (e-commerce QR)/not-found': {
    start: { merchantOrderId: '1', until: SENT },
    step: (now, t) => attemptWatch(emptyHost({ cancelPending: true }), t as never, now, OPTIONS),
  },
  'void.undo/not-found': {
    start: { merchantVoidId: '2', paymentId: 'p', sentAt: SENT },
    step: (now, t) =>
      attemptVoidUndo(
        {
          confirmVoid: never,
          undoVoid: never,
          undoVoidByMerchantVoidId: () => Promise.resolve({ action: 'retry', reason: 'no such void', notFound: true }),
        },
        t as never,
        now,
        OPTIONS,
      ),
  },
  // A confirmation not found: the host approved it, so it is asked again, never ended (the adapter answers the row's retry).
  'sale.confirm/not-found': {
    start: { merchantOrderId: '1', paymentId: 'p' },
    step: (now, t) =>
      ATTEMPTS['sale.confirm'](
        { port: { ...emptyHost(), confirm: () => retry('not shown yet') }, undoRace: UNDO_OPTIONS, now },
        t as never,
      ),
  },
  'void.confirm/not-found': {
    start: { merchantVoidId: '2', paymentId: 'p', voidId: 'v' },
    step: (now, t) =>
      ATTEMPTS['void.confirm'](
        {
          port: emptyHost(),
          voids: { confirmVoid: () => retry('not shown yet'), undoVoid: never, undoVoidByMerchantVoidId: never },
          undoRace: UNDO_OPTIONS,
          now,
        },
        t as never,
      ),
  },
  'void (wallet QR cancellation code)/not-applied': {
    start: { merchantVoidId: '2', paymentId: 'p', until: SENT },
    step: (now, t) => attemptCodeWatch(noWallet, t as never, now, OPTIONS),
  },
  'cnp.void (part)/not-shown': {
    start: { merchantOrderId: '1', paymentId: 'p', amount: 100, voidedBefore: 0, sentAt: SENT },
    step: (now, t) => attemptCnpVoidPart(emptyCnp, t as never, now, UNDO_OPTIONS),
  },
};

const FINAL = new Set(['done', 'needs-refund', 'dead-letter']);

/** Runs `n` attempts at `now`, keeping the payload as the forwarder does; the actions seen. */
async function attempts(
  step: Step,
  payload: object,
  now: Date,
  n: number,
): Promise<{ actions: string[]; payload: object }> {
  const actions: string[] = [];
  let p = payload;
  for (let i = 0; i < n; i++) {
    const a = await step(now, p);
    actions.push(a.delivery.action);
    if (a.payload) p = a.payload;
    if (FINAL.has(a.delivery.action)) break;
  }
  return { actions, payload: p };
}

describe('the visibility rule, written once: every rulebook row where the host does not show the operation', () => {
  it('is listed from the rulebook and has a probe of its real attempt (a new such row fails here until it has one)', () => {
    expect(governedRows()).toEqual(Object.keys(PROBES).sort());
  });

  it('never decides a final outcome by itself', () => {
    for (const row of governedRows()) expect(FINAL_DECISIONS.has(rowDecision(row)), row).toBe(false);
  });

  const close = operationClose(SENT).getTime();
  for (const [row, probe] of Object.entries(PROBES)) {
    it(`${row}: open before the close of its day and inside the window after it; final only when two answers past it agree`, async () => {
      const sameDay = new Date(Date.parse(SENT) + 2 * 3600_000);
      expect(sameDay.getTime()).toBeLessThan(close);
      let r = await attempts(probe.step, probe.start, sameDay, 4);
      expect(r.actions, `${row}, same day`).toEqual(['retry', 'retry', 'retry', 'retry']);
      r = await attempts(probe.step, r.payload, new Date(close + 60_000), 4);
      expect(r.actions, `${row}, inside the window after the close`).toEqual(['retry', 'retry', 'retry', 'retry']);
      // A row that asks again (a confirmation) never ends on "not found": it stays open past the window too.
      if (rowDecision(row) === 'retry') {
        r = await attempts(probe.step, r.payload, new Date(close + DEFAULT_VISIBILITY_WINDOW_MS + 60_000), 4);
        expect(r.actions).toEqual(['retry', 'retry', 'retry', 'retry']);
        return;
      }
      r = await attempts(probe.step, r.payload, new Date(close + DEFAULT_VISIBILITY_WINDOW_MS + 60_000), 4);
      expect(r.actions.length, `${row}, past the window`).toBe(2);
      expect(r.actions[0]).toBe('retry');
      expect(FINAL.has(r.actions[1]!), `${row} ends once two answers agree`).toBe(true);
    });
  }
});
