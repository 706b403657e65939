import type { OmniClient } from './client.js';
import { queryOutcome, exchangeOf, type OperationOutcome, type QueryOutcome } from './outcomes.js';
import { findOurSale } from './ownership.js';
import { isOutcomeUnknown } from '../errors.js';
import type { ConfirmChipData, UndoChipData } from './types.js';
import { encodeTlv, toHex } from '../../emv/index.js';
import { CONFIRM, decide, type AcquirerDeliveryPort, type Delivery, type SaleQuery } from '../../engine/index.js';
import { omniSaleState, shownDetail } from './states.js';
import { hostAuthorization } from './authorization.js';

/** Issuer script results travel in their own field, not inside EmvData. */
const SCRIPT_RESULTS_TAG = '9F5B';

function emvData(emv: Record<string, string> | undefined): { EmvData: string; scripts?: string } | undefined {
  if (!emv || Object.keys(emv).length === 0) return undefined;
  const tags = Object.entries(emv).filter(([tag]) => tag !== SCRIPT_RESULTS_TAG);
  const EmvData = toHex(encodeTlv(tags.map(([tag, value]) => ({ tag, value }))));
  const scripts = emv[SCRIPT_RESULTS_TAG];
  return scripts ? { EmvData, scripts } : { EmvData };
}

function confirmBody(emv: Record<string, string> | undefined): ConfirmChipData | undefined {
  const d = emvData(emv);
  return d ? { EmvData: d.EmvData, ...(d.scripts ? { IssuerScriptResults: d.scripts } : {}) } : undefined;
}

function undoBody(emv: Record<string, string> | undefined): UndoChipData | undefined {
  const d = emvData(emv);
  return d ? { EmvData: d.EmvData, ...(d.scripts ? { IssuerScriptsResults: d.scripts } : {}) } : undefined;
}

/** An operation outcome as the outbox sees it: `query` (the answer decided nothing) is tried again after a query. */
export function delivered(o: OperationOutcome): Delivery {
  return {
    action: o.action === 'query' ? 'retry' : o.action,
    reason: o.reason,
    ...(o.shown ? { shown: o.shown } : {}),
  };
}

/** The outbox's requests on the acquirer's omni API, decided by its outcome tables. */
export class OmniDeliveryAdapter implements AcquirerDeliveryPort {
  readonly #client: OmniClient;
  readonly #terminal: { terminalId: string; subordinatedMerchantId: string } | undefined;

  /**
   * `terminal`: this terminal's logical number and merchant; with them, a sale found by order id
   * is checked to be ours (terminal, merchant, amount) before the race undoes it by PaymentId.
   */
  constructor(client: OmniClient, terminal?: { terminalId: string; subordinatedMerchantId: string }) {
    this.#client = client;
    this.#terminal = terminal;
  }

  /**
   * A confirmation decided by the rulebook's `sale.confirm` table (src/engine/rules/book.ts): on
   * its 2xx body when that shows a final state, else on the query by PaymentId. Confirmed → done;
   * undone, denied, cancelled or aborted → dead letter (the host does not pay for a sale the
   * terminal approved: an alarm, whichever of the two showed it); still pending or unreadable →
   * confirm again later.
   */
  async confirm(paymentId: string, emv?: Record<string, string>): Promise<Delivery> {
    const o = await this.#client.settle('confirm', () => this.#client.confirmSale(paymentId, confirmBody(emv)));
    if (o.action !== 'query') return delivered(o);
    const q = await this.#query(() => this.#client.getSale(paymentId));
    if (q.kind === 'unknown') return { action: 'retry', reason: `${o.reason}; query: ${q.reason}` };
    const rule = decide(CONFIRM, q.kind === 'not-found' ? 'not-found' : omniSaleState(q));
    const shown = q.kind === 'not-found' ? 'not found' : shownDetail(q);
    const action = rule.decision === 'done' || rule.decision === 'dead-letter' ? rule.decision : 'retry';
    // Given up on what the query showed: the sale records it (`hostShows`), as the day report reads every dead letter.
    const seen = q.kind === 'found' && action === 'dead-letter' ? { shown: omniSaleState(q) } : {};
    return { action, reason: `${o.reason}; the query shows ${shown}: ${rule.why}`, ...seen };
  }

  /** An undo decided by its 2xx body; otherwise `retry`, and the undo race's query decides. */
  async undo(paymentId: string, emv?: Record<string, string>): Promise<Delivery> {
    return delivered(await this.#client.settle('undo', () => this.#client.undoSale(paymentId, undoBody(emv))));
  }

  async undoByOrderId(merchantOrderId: string, emv?: Record<string, string>): Promise<Delivery> {
    return delivered(
      await this.#client.settle('undo', () => this.#client.undoSaleByOrderId(merchantOrderId, undoBody(emv))),
    );
  }

  async #query(call: () => Promise<unknown>): Promise<QueryOutcome> {
    try {
      return queryOutcome({ kind: 'answer', status: 200, body: await call() });
    } catch (e) {
      const q = queryOutcome(exchangeOf({ error: e }));
      return q.kind === 'found'
        ? { kind: 'unknown', reason: isOutcomeUnknown(e) ? 'outcome unknown' : (e as Error).message }
        : q;
    }
  }

  /**
   * The query by order id. With the terminal's identity and the sale's amount, a sale shown is
   * checked to be ours first: another terminal's or merchant's sale under the same order id is
   * never reported as found (nor undone), and an answer that cannot tell is asked again.
   */
  async queryByOrderId(merchantOrderId: string, expected?: { amount: number }): Promise<SaleQuery> {
    let raw: unknown;
    const q = await this.#query(async () => (raw = await this.#client.getSaleByOrderId(merchantOrderId)));
    if (q.kind === 'not-found' || raw === undefined || !this.#terminal || !expected) return shownOf(q, raw);
    // Checked to be ours first, in a list of several sales too (another terminal's may share the id).
    const own = findOurSale(raw, { merchantOrderId, ...this.#terminal, amount: expected.amount });
    if (own.ours === false)
      return { kind: 'not-ours', reason: `a sale under order id ${merchantOrderId} that is not ours: ${own.reason}` };
    if (own.ours === 'unknown')
      return { kind: 'unknown', reason: `cannot tell whether the sale found is ours: ${own.reason}` };
    const ours = salesIn(raw)
      .map((body) => ({ body, q: queryOutcome({ kind: 'answer', status: 200, body }) }))
      .find((x) => x.q.kind === 'found' && x.q.paymentId === own.paymentId);
    return shownOf(ours?.q ?? { kind: 'unknown', reason: 'our sale is not in the answer' }, ours?.body);
  }
}

/** The sales a query-by-order-id answer lists (one sale, a list, or `{Payments: [...]}`). */
function salesIn(answer: unknown): unknown[] {
  if (Array.isArray(answer)) return answer;
  const list = answer && typeof answer === 'object' ? (answer as Record<string, unknown>).Payments : undefined;
  return Array.isArray(list) ? list : [answer];
}

/** A query's outcome in the engine's words, with the host's authorization read from the sale's `body`. */
function shownOf(q: QueryOutcome, body: unknown): SaleQuery {
  if (q.kind !== 'found') return q;
  const authorization = body === undefined ? undefined : hostAuthorization(body);
  return {
    kind: 'found',
    ...(q.paymentId !== undefined ? { paymentId: q.paymentId } : {}),
    state: omniSaleState(q),
    detail: shownDetail(q),
    ...(authorization ? { authorization } : {}),
  };
}
