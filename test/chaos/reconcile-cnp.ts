/**
 * The chaos run's reconciliation of the card-not-present sales with their hosts' ledgers: the
 * e-commerce API's (`LedgerReport.cards`) and the webservice 1.5's (`Ws15Host.ledger`). Strict:
 * - one host transaction per MerchantOrderId, captured at most once (nothing captured twice);
 * - every host transaction has its journal row (kind `cnp`, the same backend) in the same state:
 *   authorized ↔ `authorized` (the same amount held); captured ↔ `captured` with what it still charges
 *   (captured less voided) equal to the host's, or `needs-refund` (its alarm is reconcile.ts's check);
 *   voided ↔ `voided` or `undone`; declined ↔ `declined` or `undone`;
 * - a journal row the host has nothing for is `failed` or `undone` (never sent, or never reached it);
 * - what the cash register was told: a capture answered 200 ends `captured` (its amount), a whole void
 *   answered 200 ends `voided` (nothing captured that the terminal thinks voided), a part's void 200
 *   leaves `captured` with at least that amount voided; the create asked again with the same key names
 *   the same sale.
 * The rows' final states (nothing `sending`, `capturing`, `voiding`, `undoing` or dead after the day's
 * close) are reconcile.ts's check, as for every kind.
 */
import type { LedgerReport, Ws15LedgerRow } from '../../src/sandbox/index.js';
import type { CnpIntent } from './cnp-sales.js';

export interface CnpRow {
  id: number;
  merchantOrderId: string;
  state: string;
  amount: number;
  data: string;
  terminal: string;
}

type HostState = 'authorized' | 'captured' | 'voided' | 'declined';

interface HostCnp {
  backend: 'ecommerce' | 'webservice15';
  merchantOrderId: string;
  id: string;
  amount: number;
  status: number;
  state: HostState | undefined;
  charged: number;
  held: number;
  captures: number;
}

/** The e-commerce page's "Status transacional" (1, 2, 3/13, 10/11: docs/card-not-present.md); ws15:783-792 (4, 6, 5, 9). */
const ECOMMERCE_STATE: Readonly<Record<number, HostState>> = {
  1: 'authorized',
  2: 'captured',
  3: 'declined',
  13: 'declined',
  10: 'voided',
  11: 'voided',
};
const WS15_STATE: Readonly<Record<number, HostState>> = { 4: 'authorized', 6: 'captured', 5: 'declined', 9: 'voided' };

/** The journal states each host state may be read as. */
const SAME: Readonly<Record<HostState, readonly string[]>> = {
  authorized: ['authorized'],
  captured: ['captured', 'needs-refund'],
  voided: ['voided', 'undone'],
  declined: ['declined', 'undone'],
};

function hostSales(cards: LedgerReport['cards'], ws15: readonly Ws15LedgerRow[]): HostCnp[] {
  return [
    ...cards.map((c) => ({
      backend: 'ecommerce' as const,
      merchantOrderId: c.merchantOrderId,
      id: c.paymentId,
      amount: c.amount,
      status: c.status,
      state: ECOMMERCE_STATE[c.status],
      charged: c.charged,
      held: c.held,
      captures: c.captures,
    })),
    ...ws15.map((w) => ({
      backend: 'webservice15' as const,
      merchantOrderId: w.orderNumber,
      id: w.tid,
      amount: w.amount,
      status: w.status,
      state: WS15_STATE[w.status],
      charged: w.charged,
      held: w.held,
      captures: w.captured > 0 ? 1 : 0,
    })),
  ];
}

interface CnpData {
  backend?: string;
  capturedAmount?: number;
  voidedAmount?: number;
}

/** One host transaction against its journal row. */
function compare(h: HostCnp, r: CnpRow | undefined, problems: string[]): void {
  const at = `${h.backend} ${h.merchantOrderId} (${h.id}, status ${h.status})`;
  if (h.captures > 1) problems.push(`${at}: captured ${h.captures} times at the host`);
  if (!r) {
    problems.push(
      `lost: ${at} ${h.state ?? '?'} at the host (charges ${h.charged}, holds ${h.held}), nothing in the journal`,
    );
    return;
  }
  const d = JSON.parse(r.data) as CnpData;
  if (d.backend !== h.backend) problems.push(`${at}: the journal's row names the backend ${String(d.backend)}`);
  if (!h.state) {
    problems.push(`${at}: a status the run does not expect (journal: ${r.state})`);
    return;
  }
  if (!SAME[h.state].includes(r.state)) {
    problems.push(`${r.terminal}: ${at} is ${h.state} at the host, ${r.state} in the journal`);
    return;
  }
  if (h.state === 'authorized' && r.amount !== h.held)
    problems.push(`${at}: the host holds ${h.held}, the journal ${r.amount}`);
  if (h.state === 'captured' && r.state === 'captured') {
    const charged = (d.capturedAmount ?? r.amount) - (d.voidedAmount ?? 0);
    if (charged !== h.charged) problems.push(`${at}: the host charges ${h.charged}, the journal ${charged}`);
  }
}

/** What the cash register was told against where the sale ended. */
function told(i: CnpIntent, r: CnpRow | undefined, problems: string[]): void {
  const at = `${i.terminal}: ${i.backend} ${i.merchantOrderId}`;
  if (i.replay && !i.replay.same && i.replay.status < 300)
    problems.push(`${at}: the create asked again with the same key answered another sale`);
  if (!r) return;
  const d = JSON.parse(r.data) as CnpData;
  for (const a of i.asked) {
    if (a.status !== 200) continue;
    if (a.op === 'capture' && (r.state !== 'captured' || d.capturedAmount !== (a.amount ?? r.amount)))
      problems.push(
        `${at}: its capture${a.amount ? ` of ${a.amount}` : ''} answered 200, the journal: ${r.state}, captured ${String(d.capturedAmount)}`,
      );
    if (a.op === 'void' && a.amount === undefined && r.state !== 'voided')
      problems.push(`${at}: its void answered 200, the journal says ${r.state}`);
    if (a.op === 'void' && a.amount !== undefined && (r.state !== 'captured' || (d.voidedAmount ?? 0) < a.amount))
      problems.push(
        `${at}: its void of ${a.amount} answered 200, the journal: ${r.state}, voided ${String(d.voidedAmount)}`,
      );
  }
}

export function reconcileCnp(o: {
  rows: readonly CnpRow[];
  cards: LedgerReport['cards'];
  ws15: readonly Ws15LedgerRow[];
  intents: readonly CnpIntent[];
}): { problems: string[]; figures: Record<string, unknown> } {
  const problems: string[] = [];
  const hosts = hostSales(o.cards, o.ws15);
  const byOrder = new Map<string, HostCnp[]>();
  for (const h of hosts) byOrder.set(h.merchantOrderId, [...(byOrder.get(h.merchantOrderId) ?? []), h]);
  const rows = new Map(o.rows.map((r) => [r.merchantOrderId, r]));
  for (const [id, list] of byOrder)
    if (list.length > 1) problems.push(`charged twice? the host has ${list.length} card-not-present sales for ${id}`);
  for (const h of hosts) compare(h, rows.get(h.merchantOrderId), problems);
  for (const r of o.rows)
    if (!byOrder.has(r.merchantOrderId) && r.state !== 'failed' && r.state !== 'undone')
      problems.push(`${r.terminal}: cnp ${r.merchantOrderId} is ${r.state} in the journal, the host has nothing`);
  for (const i of o.intents)
    told(
      i,
      o.rows.find((r) => r.terminal === i.terminal && r.id === i.id),
      problems,
    );
  const hostStates: Record<string, number> = {};
  for (const h of hosts)
    hostStates[`${h.backend} ${h.state ?? h.status}`] = (hostStates[`${h.backend} ${h.state ?? h.status}`] ?? 0) + 1;
  return {
    problems,
    figures: {
      hostStates,
      held: hosts.reduce((a, h) => a + h.held, 0),
      charged: hosts.reduce((a, h) => a + h.charged, 0),
      plans: o.intents.reduce<Record<string, number>>((m, i) => ({ ...m, [i.plan]: (m[i.plan] ?? 0) + 1 }), {}),
    },
  };
}
