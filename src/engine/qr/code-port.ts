import { saleQrCode, type MerchantProfile } from './code.js';
import type { QrSaleRequest } from './types.js';

/** One sale's code to make. */
export interface QrCodeOrder {
  merchantOrderId: string;
  request: QrSaleRequest;
  /** The terminal's NSU for it (82.04 when the terminal builds the code). */
  nsu: string;
  issuedAt: Date;
}

/** A code ready to show; `paymentId` when the host made it (its sale exists before it is paid). */
export interface QrIssued {
  qrCode: string;
  paymentId?: string;
}

/**
 * Where a wallet QR sale's code comes from, the port the QR engine's adapters implement
 * (DESIGN.md, "Wallet QR sales"): `terminal` builds the `br.com.padraoq` code itself and the
 * wallet's payment shows up as a terminal sale found by MerchantOrderId; `ecommerce` asks the
 * e-commerce API for a QR code sale (`Payment.Type` `qrcode`, status 12 until paid, 2 once paid).
 * Either way the engine then watches, confirms and undoes through its AcquirerDeliveryPort.
 */
export interface QrCodePort {
  readonly provider: 'terminal' | 'ecommerce';
  /** Makes the code; rejects when there is none to show (the sale then ends `failed`). */
  issue(order: QrCodeOrder): Promise<QrIssued>;
}

/** The terminal's own codes, from the merchant's data (the default adapter). */
export function terminalQrCodes(merchant: MerchantProfile): QrCodePort {
  return {
    provider: 'terminal',
    issue: (order) => Promise.resolve({ qrCode: saleQrCode(merchant, order) }),
  };
}
