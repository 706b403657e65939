import { HOST_TIME_ZONE, OmniposError } from '../../core/index.js';
import { buildPadraoq, normalizeAmount, parsePadraoq, type CurrentFields } from '../../qr/index.js';
import { qrTimestamp } from './code.js';

/** What a cancellation code needs besides the sale's own code. */
export interface CancellationOrder {
  /** The sale's code exactly as it was shown (the journal keeps it as `qrCode`). */
  original: string;
  /** 82.04: this cancellation's own terminal NSU (6 digits, the next of the NSU counter). */
  nsu: string;
  /** 81.01 and 82.01: when the cancellation code is issued. */
  issuedAt: Date;
  /** 54: cents to cancel; the sale's whole amount unless given (never more than it). */
  amount?: number;
  /** 62.05 of the cancellation; the sale's reference label (its MerchantOrderId) unless given. */
  referenceLabel?: string;
  /** Time zone of 81.01 (default the host's, America/Sao_Paulo). */
  timeZone?: string;
}

function invalid(where: string, message: string, context: Record<string, unknown> = {}): OmniposError {
  return new OmniposError('QR_INVALID', `${where}: ${message}`, { object: where, ...context });
}

/**
 * The current-model cancellation code for voiding a wallet QR sale (wallet document 000,
 * "Current model"): the sale's merchant, terminal, modality and installments, with 81.04 and
 * 82.03 `02` (cancellation), 81.06 the original NSU, and 82.05–82.07 the original transaction's
 * NSU (its 82.04), date (MMDD of its 82.01) and terminal id (its 27.03). Pure; the result is
 * checked by the parser. QR_INVALID naming the object when the original is not a current-model
 * sale code or the amount exceeds the sale's.
 */
export function buildCancellationCode(order: CancellationOrder): string {
  const parsed = parsePadraoq(order.original);
  if (parsed.model !== 'current')
    throw invalid('00', `expected a current-model sale code to cancel, found the ${parsed.model} model`, {
      model: parsed.model,
    });
  const sale = parsed.fields as CurrentFields;
  if (sale.transactionType !== '01')
    throw invalid('81.04', `expected a sale ("01") to cancel, found ${JSON.stringify(sale.transactionType)}`);
  if (!/^\d{6}$/.test(order.nsu))
    throw invalid('82.04', 'expected the cancellation NSU as 6 digits', { found: order.nsu });
  let amount = sale.amount;
  if (order.amount !== undefined) {
    const saleCents = Math.round(Number(sale.amount) * 100);
    if (!Number.isSafeInteger(order.amount) || order.amount <= 0 || order.amount > saleCents) {
      throw invalid('54', `expected 1 to ${saleCents} cents (the sale's amount)`, { found: order.amount });
    }
    amount = normalizeAmount(order.amount / 100);
  }
  // What the cancellation keeps of the sale; the derived and sale-only objects are rebuilt.
  const kept: Omit<
    CurrentFields,
    'schemeDate' | 'schemeTransactionType' | 'original' | 'originalNsu' | 'transactionType' | 'amount'
  > = {
    model: 'current',
    merchantId: sale.merchantId,
    terminalId: sale.terminalId,
    ...(sale.merchantDocument !== undefined ? { merchantDocument: sale.merchantDocument } : {}),
    ...(sale.secondSchemeGui !== undefined ? { secondSchemeGui: sale.secondSchemeGui } : {}),
    ...(sale.secondSchemeAcquirerId !== undefined ? { secondSchemeAcquirerId: sale.secondSchemeAcquirerId } : {}),
    deviceType: sale.deviceType,
    mcc: sale.mcc,
    ...(sale.currency !== undefined ? { currency: sale.currency } : {}),
    merchantName: sale.merchantName,
    merchantCity: sale.merchantCity,
    ...(sale.postalCode !== undefined ? { postalCode: sale.postalCode } : {}),
    referenceLabel: sale.referenceLabel,
    timestamp: sale.timestamp,
    modality: sale.modality,
    ...(sale.installments !== undefined ? { installments: sale.installments } : {}),
    ...(sale.ruf !== undefined ? { ruf: sale.ruf } : {}),
    // 82.02 names the product and installments of the sale being cancelled.
    ...(sale.productType !== undefined ? { productType: sale.productType } : {}),
    nsu: sale.nsu,
    ...(sale.version !== undefined ? { version: sale.version } : {}),
  };
  return buildPadraoq({
    ...kept,
    amount,
    referenceLabel: order.referenceLabel ?? sale.referenceLabel,
    timestamp: qrTimestamp(order.issuedAt, order.timeZone ?? HOST_TIME_ZONE),
    transactionType: 'cancellation',
    originalNsu: sale.nsu,
    nsu: order.nsu,
    original: { nsu: sale.nsu, date: (sale.schemeDate ?? '').slice(0, 4), terminalId: sale.terminalId },
  });
}
