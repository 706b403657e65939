import {
  journalData,
  paymentStatus,
  statusOf,
  type SaleData,
  type SaleStateName,
  type QrSaleData,
  type QrStateName,
  type PixSaleData,
  type PixStateName,
  type CnpSaleData,
  type CnpStateName,
} from '../engine/index.js';
import type { PaymentKind } from '../core/index.js';
import type { JournalEntry } from '../store/index.js';
import { fiscalCard, fiscalPaid } from './payment-fiscal.js';

/** The receipt question is open: `printing` after the printer could not vouch for the receipt (the question set the deadline). */
export function receiptQuestion(entry: JournalEntry): boolean {
  return entry.state === 'printing' && typeof (entry.data as { deadline?: unknown }).deadline === 'string';
}

/** What every payment's view opens with: its row's ids, its status and state, its amount. */
function rowView(entry: JournalEntry, status: string | undefined): Record<string, unknown> {
  return { id: entry.id, merchantOrderId: entry.merchantOrderId, status, state: entry.state, amount: entry.amount };
}

/**
 * What every sale the cash register decides ends with (card, wallet QR, Pix): the decision's deadline,
 * the open receipt question, the reason, `extra` (the kind's own last words), the row's times.
 */
function decisionView(
  entry: JournalEntry,
  d: { deadline?: string; reason?: string },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...(d.deadline ? { decisionDeadline: d.deadline } : {}),
    ...(receiptQuestion(entry) ? { receiptQuestion: true } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...extra,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
}

/** A card-not-present sale: what the host echoed of the card (its masked number), never what was typed. */
function cnpView(entry: JournalEntry): Record<string, unknown> {
  const d = journalData<CnpSaleData>(entry);
  const state = entry.state as CnpStateName;
  return {
    ...rowView(entry, statusOf('cnp', state)),
    method: d.request.method,
    installments: d.request.installments,
    // Decided by the host's answer alone: the cash register confirms nothing (the document requires the field).
    confirmation: 'auto',
    ...(d.paymentId ? { paymentId: d.paymentId } : {}),
    ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
    ...(d.maskedNumber ? { card: { maskedPan: d.maskedNumber, ...(d.brand ? { brand: d.brand } : {}) } } : {}),
    ...(d.capturedAmount !== undefined ? { capturedAmount: d.capturedAmount } : {}),
    ...(d.voidedAmount !== undefined ? { voidedAmount: d.voidedAmount } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
}

/** The Pix states past the payment (paid at the provider: the fiscal group applies). */
const PIX_PAID: ReadonlySet<PixStateName> = new Set([
  'approved',
  'printing',
  'awaiting-decision',
  'confirmed',
  'refunding',
  'refunded',
]);

/** A Pix sale as the cash register reads it: the copy-and-paste code while it can be paid. */
function pixView(entry: JournalEntry): Record<string, unknown> {
  const d = journalData<PixSaleData>(entry);
  const state = entry.state as PixStateName;
  return {
    ...rowView(entry, statusOf('pix', state)),
    method: 'pix',
    confirmation: d.request.confirmation,
    ...(d.qrCode && state === 'showing' ? { qrCode: d.qrCode, expiresAt: d.expiresAt } : {}),
    ...(d.paymentId ? { paymentId: d.paymentId } : {}),
    ...(PIX_PAID.has(state) ? { fiscal: fiscalPaid({ ...(d.hostNsu ? { nsu: d.hostNsu } : {}) }) } : {}),
    ...decisionView(entry, d, d.expired ? { expired: true } : {}),
  };
}

/** The wallet QR states a wallet's payment reached (the `paid` input was taken: the fiscal group applies). */
const QR_PAID: ReadonlySet<QrStateName> = new Set([
  'approved',
  'printing',
  'awaiting-decision',
  'confirming',
  'confirmed',
  'undoing',
  'undone',
  'needs-refund',
  'dead-letter',
]);

/** A wallet QR sale as the cash register reads it: the code to show while pending. */
function qrView(entry: JournalEntry): Record<string, unknown> {
  const d = journalData<QrSaleData>(entry);
  const state = entry.state as QrStateName;
  return {
    ...rowView(entry, statusOf('qr', state)),
    method: 'wallet-qr',
    qrModality: d.request.method,
    installments: d.request.installments,
    confirmation: d.request.confirmation,
    ...(d.qrCode && state === 'showing' ? { qrCode: d.qrCode, expiresAt: d.expiresAt } : {}),
    ...(d.paymentId ? { paymentId: d.paymentId } : {}),
    ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
    ...(d.nsu ? { nsu: d.nsu } : {}),
    ...(QR_PAID.has(state)
      ? {
          fiscal: fiscalPaid({
            ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
            ...(d.hostNsu ? { nsu: d.hostNsu } : {}),
            ...(d.brandId !== undefined ? { brandId: d.brandId } : {}),
          }),
        }
      : {}),
    ...decisionView(entry, d),
  };
}

/**
 * What the cash register reads of a payment: its status, the host's ids and codes, the receipt,
 * and for an authorized card sale the fields of its fiscal document (`fiscal`).
 */
export function paymentView(entry: JournalEntry): Record<string, unknown> {
  return entry.kind === 'void' ? cardView(entry) : PAYMENT_VIEWS[entry.kind](entry);
}

function cardView(entry: JournalEntry): Record<string, unknown> {
  const d = journalData<SaleData>(entry);
  const state = entry.state as SaleStateName;
  const fiscal = fiscalCard({ authorizationCode: d.authorizationCode, nsu: d.nsu, brandId: d.card?.brandId });
  return {
    ...rowView(entry, paymentStatus(state)),
    method: d.request.method,
    installments: d.request.installments,
    interest: d.request.interest,
    confirmation: d.request.confirmation,
    ...(d.paymentId ? { paymentId: d.paymentId } : {}),
    ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
    ...(d.nsu ? { nsu: d.nsu } : {}),
    ...(d.returnCode ? { returnCode: d.returnCode } : {}),
    ...(d.returnMessage ? { returnMessage: d.returnMessage } : {}),
    ...(d.card
      ? {
          card: {
            maskedPan: d.card.maskedPan,
            inputMode: d.card.inputMode,
            brandId: d.card.brandId,
            productId: d.card.productId,
          },
        }
      : {}),
    ...(fiscal ? { fiscal } : {}),
    ...decisionView(entry, d, {
      ...(d.refusal ? { refusal: d.refusal } : {}),
      ...(d.hostReceipt ? { receipt: d.hostReceipt } : {}),
    }),
  };
}

/** The view of each kind of payment (src/core/payment-kinds.ts): a kind added there does not compile until it has one. */
const PAYMENT_VIEWS: Readonly<Record<PaymentKind, (entry: JournalEntry) => Record<string, unknown>>> = {
  sale: cardView,
  qr: qrView,
  pix: pixView,
  cnp: cnpView,
};
