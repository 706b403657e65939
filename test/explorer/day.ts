import { CHARGED_OUTCOMES, businessDateOf } from '../../src/operations/day/index.js';
import type { Verdict } from './search.js';
import type { World } from './world.js';

/** The invariant of the merchant's day, as the day's report is read (`GET /v1/day/report`). */
export const DAY_INVARIANT = "the day's reports miscount a charge";

/**
 * Every sale the host holds charged at the end is counted charged by the report of its business day
 * (the close's lines, or its `afterClose` beside them: opened or settled after it), and no sale the host does not hold is: the
 * money the merchant's day says it took is the money the host took. Read only in the timelines
 * where the merchant closed a day (the live report is the journal itself); dead letters are left to
 * the person their alarm calls.
 */
export function dayMiscounts(w: World): Verdict['broken'] {
  if (w.closedDays.length === 0) return [];
  const broken: Verdict['broken'] = [];
  for (const e of w.entries()) {
    // A dead letter is a person's to reconcile (its alarm): the report counts it as possibly charged.
    if (e.kind !== 'sale' || e.state === 'dead-letter') continue;
    const hostSales = w.host.sales.filter((s) => s.merchantOrderId === e.merchantOrderId && s.terminal === 'ours');
    const charged = hostSales.some((s) => w.host.charged(s) && w.host.refundsOf(s.paymentId) === 0);
    const report = w.day.report(businessDateOf(new Date(e.createdAt)));
    const after = [...(report.afterClose?.lines ?? []), ...(report.afterClose?.settled ?? [])];
    const line = after.find((l) => l.id === e.id) ?? report.lines.find((l) => l.id === e.id);
    const counted = line !== undefined && CHARGED_OUTCOMES.has(line.outcome);
    if (charged !== counted)
      broken.push({
        invariant: DAY_INVARIANT,
        detail: `sale ${e.merchantOrderId} ends ${e.state}, the host holds it ${charged ? 'charged' : 'not charged'}; the report of ${report.date}${report.closedAt ? ` (closed at ${report.closedAt})` : ''} has it ${line ? `${line.outcome}${after.includes(line) ? ' after the close' : ''}` : 'nowhere'}`,
      });
  }
  return broken;
}
