/**
 * The chaos run's wallet QR and Pix sales: the terminal shows a code (`qrCode` on the payment), and
 * the customer pays it at once, never, or — a wallet QR code only — after the terminal's validity has
 * passed, while the host (whose own validity is longer, as it may be: its validity is unpublished,
 * QR manual v4 line 355) still takes the payment. The terminal's watch must find and undo that one.
 */
import type { LedgerReport } from '../../src/sandbox/index.js';
import { walletPays } from '../helpers/wallet-pay.js';
import { settle } from './settle.js';
import { sleep, type Terminal } from './terminal.js';

export type CodePlan = 'now' | 'late' | 'never';

/** A payment scheduled after the terminal stopped showing the code; awaited before the final settle. */
export type LatePayment = Promise<string>;

interface Hooks {
  /** The sandbox's ledger (its Pix sales by order id). */
  ledger(): Promise<LedgerReport>;
  /** `POST /sandbox/pix/{paymentId}/pay`. */
  payPix(paymentId: string): Promise<void>;
  walletUrl: string;
}

/** Waits until the payment shows its code (or ends without one), within `ms`. */
async function codeOf(t: Terminal, id: string, ms: number): Promise<{ qrCode?: string; merchantOrderId?: string }> {
  const until = Date.now() + ms;
  for (;;) {
    const s = await t.call('GET', `/v1/payments/${id}`);
    if (s.body?.qrCode || s.body?.status !== 'pending' || Date.now() > until) return s.body ?? {};
    await sleep(50);
  }
}

/** Pays the shown code: the wallet (`omnipos wallet pay`) for a wallet QR code, the Pix provider for a Pix. */
async function pay(kind: 'wallet-qr' | 'pix', code: string, merchantOrderId: string, hooks: Hooks): Promise<string> {
  if (kind === 'wallet-qr') {
    const r = await walletPays(hooks.walletUrl, code);
    return r.code === 0 ? 'paid' : `refused (${r.err.trim().split('\n').at(-1) ?? r.code})`;
  }
  const row = (await hooks.ledger()).ecommerce.find((e) => e.merchantOrderId === merchantOrderId);
  if (!row) return 'no host sale';
  await hooks.payPix(row.paymentId);
  return 'paid';
}

/**
 * Drives a wallet QR or Pix payment already created (`id`) after the plan: pays it at once, leaves it,
 * or (a wallet QR code) schedules its payment `lateAfterMs` after the code appeared. Returns what was
 * done now and the late payment, if any.
 */
export async function qrOrPixSale(
  t: Terminal,
  id: string,
  kind: 'wallet-qr' | 'pix',
  plan: CodePlan,
  hooks: Hooks & { lateAfterMs: number; waitMs: number },
): Promise<{ shown: boolean; now?: string; late?: LatePayment }> {
  const p = await codeOf(t, id, hooks.waitMs);
  if (!p.qrCode || !p.merchantOrderId) return { shown: false };
  const code = p.qrCode;
  const orderId = p.merchantOrderId;
  if (plan === 'now') {
    const now = await pay(kind, code, orderId, hooks).catch((e: unknown) => `failed (${String(e)})`);
    await settle(t, `/v1/payments/${id}`, hooks.waitMs).catch(() => undefined);
    return { shown: true, now };
  }
  if (plan === 'late') return { shown: true, late: payLate(kind, code, orderId, hooks) };
  return { shown: true };
}

/** The payment after the terminal's validity: the host still takes it; the terminal's watch must undo it. */
export function payLate(
  kind: 'wallet-qr' | 'pix',
  code: string,
  merchantOrderId: string,
  hooks: Hooks & { lateAfterMs: number },
): LatePayment {
  return sleep(hooks.lateAfterMs).then(() =>
    pay(kind, code, merchantOrderId, hooks).catch((e: unknown) => `failed (${String(e)})`),
  );
}
