import type { OmniClient} from '../acquirer/index.js';
import { isOutcomeUnknown, queryOutcome, exchangeOf, type ConfirmChipData, type UndoChipData } from '../acquirer/index.js';
import { encodeTlv, toHex } from '../emv/index.js';
import type { AcquirerDeliveryPort, Delivery, SaleQuery } from '../engine/ports.js';

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

/** The outbox's requests on the acquirer's omni API, decided by its outcome tables. */
export class OmniDeliveryAdapter implements AcquirerDeliveryPort {
  readonly #client: OmniClient;

  constructor(client: OmniClient) {
    this.#client = client;
  }

  async confirm(paymentId: string, emv?: Record<string, string>): Promise<Delivery> {
    const o = await this.#client.settle('confirm', () => this.#client.confirmSale(paymentId, confirmBody(emv)));
    return { action: o.action, reason: o.reason };
  }

  async undo(paymentId: string, emv?: Record<string, string>): Promise<Delivery> {
    const o = await this.#client.settle('undo', () => this.#client.undoSale(paymentId, undoBody(emv)));
    return { action: o.action, reason: o.reason };
  }

  async undoByOrderId(merchantOrderId: string, emv?: Record<string, string>): Promise<Delivery> {
    const o = await this.#client.settle('undo', () => this.#client.undoSaleByOrderId(merchantOrderId, undoBody(emv)));
    return { action: o.action, reason: o.reason };
  }

  async queryByOrderId(merchantOrderId: string): Promise<SaleQuery> {
    let q;
    try {
      const body = await this.#client.getSaleByOrderId(merchantOrderId);
      q = queryOutcome({ kind: 'answer', status: 200, body });
    } catch (e) {
      q = queryOutcome(exchangeOf({ error: e }));
      if (q.kind === 'found') return { kind: 'unknown', reason: isOutcomeUnknown(e) ? 'outcome unknown' : (e as Error).message };
    }
    if (q.kind !== 'found') return q;
    return {
      kind: 'found',
      ...(q.paymentId !== undefined ? { paymentId: q.paymentId } : {}),
      ...(q.status !== undefined ? { status: q.status } : {}),
      ...(q.confirmationStatus !== undefined ? { confirmationStatus: q.confirmationStatus } : {}),
    };
  }
}
