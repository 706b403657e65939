import { payable, walletPays } from './qr-host.js';
import type { World } from './world.js';

/**
 * The codes a payer can pay while the timeline runs, whoever made them:
 * - an e-commerce QR sale the host made (qr-host.ts), while it shows `Status` 12;
 * - a wallet QR code the terminal made (`qr.provider: terminal`): the wallet pays it at the wallet API
 *   (qr:227 `POST /padraoq/v1/payment/card`) until its 81.01 plus the validity has passed (qr:355
 *   "QRCode expirado"), and the host then holds a terminal sale under the code's 62.05 (the order id),
 *   `Status` 2 awaiting the terminal's confirmation like a card sale (docs/decisions.md, "The sandbox
 *   host"), which the query host may show late (host-model.ts, late visibility);
 * - a Pix charge whose code the terminal showed, while it is 12 (ecom:1781-1790), in the timelines
 *   where the payer's payment is a choice (`World.pixPaidByChoice`).
 */
export interface PayableCode {
  what: string;
  pay(): void;
}

/** The wallet QR codes the terminal made (no host provider on the journal row). */
function terminalCodes(w: World): PayableCode[] {
  const now = w.now();
  const codes: PayableCode[] = [];
  for (const e of w.entries()) {
    if (e.kind !== 'qr' || e.data.provider !== undefined || typeof e.data.qrCode !== 'string') continue;
    if (now >= Date.parse(String(e.data.expiresAt))) continue;
    if (w.host.sales.some((s) => s.merchantOrderId === e.merchantOrderId)) continue;
    codes.push({ what: `the wallet QR code ${e.merchantOrderId}`, pay: () => walletPaysTerminalCode(w, e) });
  }
  return codes;
}

/** A wallet pays the terminal's code of row `e`: a terminal sale at the host, shown at once or late. */
function walletPaysTerminalCode(w: World, e: { merchantOrderId: string; amount: number }): void {
  const shown = w.choose(`the wallet's payment of ${e.merchantOrderId} shows at the query host`, [
    'at once',
    'late (up to the lag after the close)',
  ] as const);
  const now = w.now();
  w.host.sales.push({
    merchantOrderId: e.merchantOrderId,
    paymentId: w.host.id('wallet'),
    amount: e.amount,
    terminal: 'ours',
    status: 2,
    confirmation: 0,
    visibleAt: shown === 'at once' ? now : w.host.latestVisible(now),
    takenAt: now,
  });
  w.say(`a wallet pays the terminal's QR code ${e.merchantOrderId} (a terminal sale, Status 2, shown ${shown})`);
}

/** The Pix charges whose code was shown and that are still unpaid. */
function pixCharges(w: World): PayableCode[] {
  if (!w.pixPaidByChoice) return [];
  const shown = new Set(
    w
      .entries()
      .filter((e) => e.kind === 'pix' && typeof e.data.qrCode === 'string')
      .map((e) => e.merchantOrderId),
  );
  return w.host.pix
    .filter((p) => p.status === 12 && shown.has(p.merchantOrderId))
    .map((p) => ({
      what: `the Pix ${p.merchantOrderId}`,
      pay: () => {
        p.status = 2;
        w.say(`the payer pays Pix ${p.merchantOrderId} (Status 2)`);
      },
    }));
}

export function payableCodes(w: World): PayableCode[] {
  const ecommerce = payable(w).map((s) => ({
    what: `the e-commerce QR sale ${s.merchantOrderId}`,
    pay: () => walletPays(w, s),
  }));
  return [...ecommerce, ...terminalCodes(w), ...pixCharges(w)];
}
