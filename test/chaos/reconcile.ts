/**
 * The chaos run's reconciliation of the terminals' journals with the sandbox's ledger. Strict:
 * - every journal row ends (a final state of its kind — card sale, wallet QR, Pix, void; a dead letter is a problem);
 * - a Pix the e-commerce host still holds money for is `confirmed` (or `needs-refund`) in the journal;
 * - no MerchantOrderId twice across terminals, no host sale twice for one order id;
 * - lost: a host sale that charges the customer (approved, confirmed or confirmed by the close,
 *   less its voids) with no journal row that says so (`confirmed`, or `needs-refund`);
 * - a journal row `confirmed` the host does not know, or the host did not confirm;
 * - a host sale still pending (approved, unconfirmed) at the end;
 * - what the host gave back by voids equals the journal's confirmed voids of that sale;
 * - every ledger problem is a problem, except the two issue 17 allows near the close: a sale the
 *   host confirmed at its close (`pending-at-close`) or an undo it refused after (`undo-after-close`)
 *   whose journal row says `needs-refund` and whose NEEDS_REFUND alarm holds, or (`pending-at-close`
 *   only) whose journal row says `confirmed` and whose undo the cash register did not have accepted
 *   (the close delivered the confirmation);
 * - a sale whose undo the API accepted (2xx) and that ends `confirmed` in the journal;
 * - card-not-present sales against their hosts' ledgers (reconcile-cnp.ts);
 * - no card number in clear in any state directory.
 */
import path from 'node:path';
import { CNP_FINAL, FINAL_STATES, FINAL_VOID_STATES, PIX_FINAL, QR_FINAL } from '../../src/engine/index.js';
import Database from '../../src/store/sqlite.js';
import type { JournalKind } from '../../src/store/index.js';
import type { LedgerReport, Ws15LedgerRow } from '../../src/sandbox/index.js';
import type { CnpIntent } from './cnp-sales.js';
import { reconcileCnp } from './reconcile-cnp.js';
import { scanForCardData } from '../helpers/scan-card-data.js';

export interface TerminalEvidence {
  name: string;
  stateDir: string;
  /** `GET /v1/health`'s alarms at the end. */
  alarms: readonly { code: string; message?: string; context?: Record<string, unknown> }[];
}

interface Row {
  id: number;
  kind: string;
  merchantOrderId: string;
  state: string;
  amount: number;
  data: string;
  terminal: string;
}

/** The engines' own lists of final states, one per journal kind (a kind the journal gains and this misses does not compile). */
const ENGINE_FINAL: Record<JournalKind, ReadonlySet<string>> = {
  sale: FINAL_STATES,
  qr: QR_FINAL,
  pix: PIX_FINAL,
  void: FINAL_VOID_STATES,
  cnp: CNP_FINAL,
};

/**
 * Where a chaos run's rows may end, read from the engines' lists (no hand copy to drift): every final
 * state but a dead letter (a person must decide: a problem here), and for a card-not-present sale
 * `authorized` too (a pre-authorization the host holds, left open: its capture deadline is days away).
 */
export const FINAL: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(ENGINE_FINAL).map(([kind, finals]) => [
    kind,
    [...[...finals].filter((s) => s !== 'dead-letter'), ...(kind === 'cnp' ? ['authorized'] : [])],
  ]),
);

export function reconcile(o: {
  terminals: readonly TerminalEvidence[];
  ledger: LedgerReport;
  /** What the cash register asked of a sale (by MerchantOrderId) and the API's HTTP status. */
  intents?: ReadonlyMap<string, { decision: string; status: number }>;
  /** The webservice 1.5 host's transactions, and the card-not-present sales the cash register asked. */
  ws15?: readonly Ws15LedgerRow[];
  cnpIntents?: readonly CnpIntent[];
}): { problems: string[]; figures: Record<string, unknown> } {
  const problems: string[] = [];
  const intents = o.intents ?? new Map<string, { decision: string; status: number }>();
  const rows: Row[] = [];
  /** `terminal:journal id` of the Pix refunds whose request's answer was lost (the outbox task says `refundUnsure`). */
  const refundsUnsure = new Set<string>();
  for (const t of o.terminals) {
    const db = new Database(path.join(t.stateDir, 'omnipos.db'), { readonly: true });
    const list = db
      .prepare('SELECT id, kind, merchant_order_id AS merchantOrderId, state, amount, data FROM journal')
      .all() as Omit<Row, 'terminal'>[];
    const open = db
      .prepare("SELECT journal_id AS id, payload FROM outbox WHERE done_at IS NULL AND operation = 'pix.refund'")
      .all() as { id: number | null; payload: string }[];
    db.close();
    rows.push(...list.map((r) => ({ ...r, terminal: t.name })));
    for (const x of open)
      if ((JSON.parse(x.payload) as { refundUnsure?: boolean }).refundUnsure) refundsUnsure.add(`${t.name}:${x.id}`);
  }
  const journalStates: Record<string, number> = {};
  for (const r of rows) journalStates[`${r.kind}:${r.state}`] = (journalStates[`${r.kind}:${r.state}`] ?? 0) + 1;

  const sales = new Map<string, Row>();
  // A Pix refund whose request the run's transport fault on `ecommerceSaleVoid` lost (`reset: before`): the
  // host never saw it and shows the charge 2; the terminal never asks twice (ecom:1927, "não é uma operação
  // instantânea") and dead-letters it after PIX_REFUND_WAITS_MAX looks for a person. Said, not a problem,
  // when the host indeed gave nothing back for that sale.
  const refundsLost: string[] = [];
  for (const r of rows) {
    if (r.kind === 'void' && r.state === 'refunding' && refundsUnsure.has(`${r.terminal}:${r.id}`)) {
      const sale = (JSON.parse(r.data) as { sale?: { merchantOrderId?: string } }).sale?.merchantOrderId ?? '?';
      const host = o.ledger.ecommerce.filter((e) => e.merchantOrderId === sale);
      if (host.length > 0 && host.every((e) => e.refunded === 0)) {
        refundsLost.push(
          `${r.terminal}: refund ${r.merchantOrderId} of Pix ${sale}: its request's answer was lost (a transport fault on ecommerceSaleVoid) and the host shows nothing asked back; never asked twice, awaiting PIX_REFUND_DEAD_LETTER`,
        );
        continue;
      }
    }
    if (!(FINAL[r.kind] ?? []).includes(r.state))
      problems.push(`${r.terminal}: journal ${r.kind} ${r.merchantOrderId} is ${r.state}`);
    if (r.kind === 'void') continue;
    const other = sales.get(r.merchantOrderId);
    if (other)
      problems.push(`MerchantOrderId ${r.merchantOrderId} in the journals of ${other.terminal} and ${r.terminal}`);
    sales.set(r.merchantOrderId, r);
  }
  // What the journals' confirmed voids gave back, per sale.
  const voidedByJournal = new Map<string, number>();
  for (const r of rows) {
    if (r.kind !== 'void' || r.state !== 'confirmed') continue;
    const d = JSON.parse(r.data) as { amount?: number; sale?: { merchantOrderId?: string } };
    const sale = d.sale?.merchantOrderId ?? '?';
    voidedByJournal.set(sale, (voidedByJournal.get(sale) ?? 0) + (d.amount ?? r.amount));
  }
  const alarmed = (r: Row): boolean =>
    (o.terminals.find((t) => t.name === r.terminal)?.alarms ?? []).some(
      (a) =>
        a.code === 'NEEDS_REFUND' &&
        (a.context?.id === r.id ||
          a.context?.merchantOrderId === r.merchantOrderId ||
          (a.message ?? '').includes(r.merchantOrderId)),
    );
  for (const r of sales.values())
    if (r.state === 'needs-refund' && !alarmed(r))
      problems.push(`${r.terminal}: ${r.merchantOrderId} needs-refund without its NEEDS_REFUND alarm`);

  const seen = new Map<string, number>();
  for (const s of o.ledger.sales) seen.set(s.merchantOrderId, (seen.get(s.merchantOrderId) ?? 0) + 1);
  for (const [id, n] of seen) if (n > 1) problems.push(`charged twice? the host has ${n} sales for ${id}`);
  for (const s of o.ledger.sales) {
    const j = sales.get(s.merchantOrderId);
    const state = j?.state;
    if (s.charged > 0 && !((state === 'confirmed' || state === 'needs-refund') && s.confirmationStatus === 1)) {
      problems.push(
        `lost: ${s.merchantOrderId} charged ${s.charged} at the host (Status ${s.status}, ConfirmationStatus ${s.confirmationStatus}) but the journal says ${state ?? 'nothing'}`,
      );
    }
    if (state === 'confirmed' && s.confirmationStatus !== 1)
      problems.push(
        `${s.merchantOrderId} confirmed in the journal, ConfirmationStatus ${s.confirmationStatus} at the host`,
      );
    if (s.status === 2 && s.confirmationStatus === 0)
      problems.push(
        `${s.merchantOrderId} still pending at the host (journal: ${state ?? 'nothing'}, status ${s.status})`,
      );
    const given = voidedByJournal.get(s.merchantOrderId) ?? 0;
    if (s.voided !== given)
      problems.push(
        `${s.merchantOrderId}: the host gave back ${s.voided} by voids, the journal's confirmed voids ${given}`,
      );
  }
  for (const [id, i] of intents) {
    const r = sales.get(id);
    if (i.decision === 'undo' && i.status < 300 && r?.state === 'confirmed')
      problems.push(`${r.terminal}: ${id}: the API accepted its undo (${i.status}), the journal says confirmed`);
  }
  // Pix charges and e-commerce QR sales live at the e-commerce host: what it still holds must be a
  // confirmed (or needs-refund) payment in the journal.
  const ecommerceHeld = new Map<string, number>();
  for (const e of o.ledger.ecommerce) {
    ecommerceHeld.set(e.merchantOrderId, (ecommerceHeld.get(e.merchantOrderId) ?? 0) + e.charged);
    const state = sales.get(e.merchantOrderId)?.state;
    if (e.charged > 0 && state !== 'confirmed' && state !== 'needs-refund')
      problems.push(
        `lost: ${e.type} ${e.merchantOrderId} holds ${e.charged} at the e-commerce host (Status ${e.status}) but the journal says ${state ?? 'nothing'}`,
      );
  }
  for (const r of sales.values()) {
    // A wallet QR is at the terminal API's host (qr.provider terminal) or the e-commerce host (ecommerce).
    const held = (ecommerceHeld.get(r.merchantOrderId) ?? 0) > 0;
    const known = r.kind === 'pix' ? held : held || seen.has(r.merchantOrderId);
    if (r.state === 'confirmed' && !known)
      problems.push(`${r.terminal}: ${r.kind} ${r.merchantOrderId} confirmed in the journal, unknown to the host`);
  }

  const atClose: Record<string, number> = {};
  for (const p of o.ledger.problems) {
    const j = p.merchantOrderId ? sales.get(p.merchantOrderId) : undefined;
    const refund = j?.state === 'needs-refund' && alarmed(j);
    if ((p.kind === 'pending-at-close' || p.kind === 'undo-after-close') && refund) {
      atClose[`${p.kind} → needs-refund`] = (atClose[`${p.kind} → needs-refund`] ?? 0) + 1;
      continue;
    }
    const undoAsked =
      p.merchantOrderId !== null &&
      intents.get(p.merchantOrderId)?.decision === 'undo' &&
      (intents.get(p.merchantOrderId)?.status ?? 0) < 300;
    if (p.kind === 'pending-at-close' && j?.state === 'confirmed' && !undoAsked) {
      atClose['pending-at-close → confirmed'] = (atClose['pending-at-close → confirmed'] ?? 0) + 1;
      continue;
    }
    problems.push(
      `ledger problem: ${p.kind} ${p.merchantOrderId ?? ''} ${p.detail} (journal: ${j ? `${j.terminal} ${j.state}` : 'nothing'})`,
    );
  }
  const cnp = reconcileCnp({
    rows: rows.filter((r) => r.kind === 'cnp'),
    cards: o.ledger.cards,
    ws15: o.ws15 ?? [],
    intents: o.cnpIntents ?? [],
  });
  problems.push(...cnp.problems);
  for (const t of o.terminals)
    for (const leak of scanForCardData(t.stateDir)) problems.push(`${t.name}: card data in clear: ${leak}`);
  const alarmsAtEnd: Record<string, number> = {};
  for (const t of o.terminals) for (const a of t.alarms) alarmsAtEnd[a.code] = (alarmsAtEnd[a.code] ?? 0) + 1;
  return {
    problems,
    figures: {
      journal: journalStates,
      hostSales: o.ledger.sales.length,
      hostVoided: o.ledger.sales.reduce((a, s) => a + s.voided, 0),
      charged: o.ledger.totals.charged,
      atClose,
      alarmsAtEnd,
      refundsLost,
      cnp: cnp.figures,
    },
  };
}
