import type { Logger } from '../../core/log/index.js';
import type { ReceiptPort, ReceiptSubject } from '../ports.js';
import { printReceipt } from '../receipt-step.js';
import type { VoidData } from './types.js';

/**
 * The void's receipt: the void's own id, amount and (wallet QR) NSU, and the sale it gives money
 * back for (its MerchantOrderId, NSU and authorization code), printed as "CANCELAMENTO" /
 * "ESTORNO DA VENDA ORIGINAL".
 */
export function voidReceiptSubject(d: VoidData): ReceiptSubject {
  const s = d.sale;
  return {
    kind: 'void',
    merchantOrderId: d.merchantVoidId,
    paymentType: s.kind === 'wallet-qr' || s.kind === 'ecommerce-qr' ? 'wallet-qr' : s.method,
    amount: d.amount,
    installments: 1,
    ...(d.nsu ? { nsu: d.nsu } : {}),
    ...(s.card ? { maskedPan: s.card.maskedPan } : {}),
    ...(d.card?.authenticationMethod === 'OnlineAuthentication' ? { cvm: 'pin' as const } : {}),
    original: {
      merchantOrderId: s.merchantOrderId,
      ...(s.nsu ? { nsu: s.nsu } : {}),
      ...(s.authorizationCode ? { authorizationCode: s.authorizationCode } : {}),
    },
  };
}

/**
 * Prints the customer's and the merchant's copies once the void was approved, through the receipt
 * step every machine prints with (../receipt-step.ts). A failed print does not undo the void (the
 * money already goes back); it is reported as `failed` or `unsure` for the caller to alarm. Never throws.
 */
export async function printVoidReceipt(
  port: ReceiptPort,
  subject: ReceiptSubject,
  log: Pick<Logger, 'warn'>,
): Promise<'printed' | 'failed' | 'unsure'> {
  const result = await printReceipt(port, subject, log, VOID_COPIES);
  return result === 'skipped' ? 'printed' : result;
}

const VOID_COPIES = ['customer', 'merchant'] as const;
