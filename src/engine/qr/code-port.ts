import type { Logger } from '../../core/log/index.js';
import { saleQrCode, type MerchantProfile } from './code.js';

export type { QrCodeOrder, QrCodePort } from '../ports.js';
import type { QrCodePort } from '../ports.js';

/** The terminal's own codes, from the merchant's data (the default adapter). */
export function terminalQrCodes(merchant: MerchantProfile): QrCodePort {
  return {
    provider: 'terminal',
    issue: (order) => Promise.resolve({ qrCode: saleQrCode(merchant, order) }),
  };
}

/** What the customer is asked to pay, for the text shown when the pinpad cannot show the image. */
export interface QrDisplayCaption {
  kind: 'wallet-qr' | 'pix';
  /** Cents. */
  amount: number;
}

/**
 * The customer's side of a QR payment: the code on the pinpad's display, as an image when the
 * pinpad can show one, else a short text pointing at the screen. The wallet QR and Pix engines
 * call it when the code is shown (never waiting on it: the pinpad is not on the payment path).
 */
export interface QrDisplayPort {
  show(qrCode: string, caption: QrDisplayCaption): Promise<'image' | 'text'>;
  /** Ends the showing (the payment was made, expired or cancelled). */
  clear(): Promise<void>;
}

/**
 * Starts showing a code on the display (when there is one) without waiting for it; `clear()`
 * queues the end of the showing (without waiting for it either). Display failures are logged, never thrown: a
 * pinpad that cannot show the code must not fail the payment.
 */
export function showQr(
  display: QrDisplayPort | undefined,
  log: Pick<Logger, 'warn'>,
  qrCode: string,
  caption: QrDisplayCaption,
): { clear(): Promise<void> } {
  if (!display || !qrCode) return { clear: () => Promise.resolve() };
  const shown = display
    .show(qrCode, caption)
    .catch((e: unknown) => log.warn({ err: e }, 'the QR code could not be shown on the pinpad'));
  return {
    // Queued after the showing, never awaited: a pinpad that hangs must not hold the payment.
    clear: () => {
      void shown
        .then(() => display.clear())
        .catch((e: unknown) => log.warn({ err: e }, 'the pinpad display could not be cleared'));
      return Promise.resolve();
    },
  };
}
