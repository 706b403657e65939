import { formatBRL, OmniposError } from '../core/index.js';
import { journalData, type CnpEngine, type CnpSaleData, type ReceiptSubject } from '../engine/index.js';
import type { JournalEntry } from '../store/index.js';
import { ApiError } from './http-kit.js';

/** What the receipt routes need to serve the receipt of a card-not-present sale. */
export interface CnpReceiptDeps {
  /** The card-not-present engine (absent without `cardNotPresent`: its sales' receipts answer 409 NOT_AVAILABLE). */
  cnpEngine?: Pick<CnpEngine, 'receiptOf'> | undefined;
}

/**
 * The states a card-not-present sale has a receipt in: a pre-authorization the host holds, and a
 * captured sale (whole, or what a partial capture took, less what was voided of it since).
 */
const CNP_RECEIPT_STATES: readonly string[] = ['authorized', 'captured'];

/**
 * The receipt of card-not-present sale `entry`, from its journal row through its engine: the masked
 * number and the brand journaled when the row opened, the authorization code, "VENDA DIGITADA"
 * (src/receipt `cardNotPresent`). The row never holds the card's expiry nor its security code, so
 * no receipt can show them. The amount is what the host holds: authorized, or captured (a partial
 * capture's part) less what was voided of it, the voided part on a line of its own.
 */
export function cnpReceiptSubject(deps: CnpReceiptDeps, entry: JournalEntry): ReceiptSubject {
  if (!deps.cnpEngine)
    throw new ApiError(409, 'NOT_AVAILABLE', 'card-not-present sales are not available in this daemon');
  if (!CNP_RECEIPT_STATES.includes(entry.state)) {
    throw new OmniposError(
      'RECEIPT_NOT_AVAILABLE',
      `payment ${entry.id} is ${entry.state}: a sale without the card present has a receipt once authorized or captured`,
      { id: entry.id, state: entry.state },
    );
  }
  const d = journalData<CnpSaleData>(entry);
  const subject = deps.cnpEngine.receiptOf(entry.id).subject;
  const held = entry.state === 'captured' ? (d.capturedAmount ?? d.request.amount) : d.request.amount;
  const voided = entry.state === 'captured' ? (d.voidedAmount ?? 0) : 0;
  return {
    ...subject,
    amount: held - voided,
    cardNotPresent: { preAuthorization: entry.state === 'authorized' },
    ...(voided > 0
      ? {
          hostReceipt: {
            fields: [{ field: 'CNP_VOIDED', label: 'CANCELADO', content: formatBRL(voided) }],
            messages: [],
          },
        }
      : {}),
  };
}
