/**
 * Is a sale the host shows ours? One OAuth client serves many merchants and the host keeps
 * `MerchantOrderId`s per client, so a query or undo by order id can find another terminal's sale.
 * Before undoing by `PaymentId` a sale found by order id, the terminal checks it is
 * its own: the order id, the logical terminal (`Payment.PinPadInformation.TerminalId`, bound to one
 * merchant at registration), the amount, and the merchant (`Payment.SubordinatedMerchantId`) when
 * the answer carries it — the manual's query answer does not (Conecta pt page lines 7712-7760).
 */

/** What the terminal knows of the sale it sent. */
export interface OurSale {
  merchantOrderId: string;
  terminalId: string;
  subordinatedMerchantId: string;
  /** Cents. */
  amount: number;
}

export type Ownership =
  | { ours: true; paymentId: string }
  /** A field the answer carries differs: another terminal's or merchant's sale. Never undo it. */
  | { ours: false; reason: string }
  /** The answer lacks what would tell (no Payment, no PaymentId, no TerminalId or Amount): query again. */
  | { ours: 'unknown'; reason: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** Checks one sale answer (`{MerchantOrderId, Payment: {…}}`) against ours. */
export function saleOwnership(answer: unknown, ours: OurSale): Ownership {
  if (!isObject(answer) || !isObject(answer.Payment)) return { ours: 'unknown', reason: 'the answer has no Payment' };
  const p = answer.Payment;
  const paymentId = text(p.PaymentId);
  if (!paymentId) return { ours: 'unknown', reason: 'the answer has no PaymentId' };
  const orderId = text(answer.MerchantOrderId);
  if (orderId !== undefined && orderId !== ours.merchantOrderId)
    return { ours: false, reason: `MerchantOrderId ${orderId} is not ${ours.merchantOrderId}` };
  const merchant = text(p.SubordinatedMerchantId);
  if (merchant !== undefined && merchant.toLowerCase() !== ours.subordinatedMerchantId.toLowerCase()) {
    return { ours: false, reason: `the sale belongs to merchant ${merchant}` };
  }
  const pinpad = isObject(p.PinPadInformation) ? p.PinPadInformation : undefined;
  const terminal = text(pinpad?.TerminalId) ?? text(p.TerminalId);
  if (terminal === undefined) return { ours: 'unknown', reason: 'the answer names no TerminalId' };
  if (terminal !== ours.terminalId) return { ours: false, reason: `the sale belongs to terminal ${terminal}` };
  const amount =
    typeof p.Amount === 'number'
      ? p.Amount
      : typeof p.Amount === 'string' && /^\d+$/.test(p.Amount)
        ? Number(p.Amount)
        : undefined;
  if (amount === undefined) return { ours: 'unknown', reason: 'the answer has no Amount' };
  if (amount !== ours.amount) return { ours: false, reason: `the sale is of ${amount} cents, ours of ${ours.amount}` };
  return { ours: true, paymentId };
}

/**
 * The same check on a query-by-order-id answer in any shape the host may give: one sale, a list
 * of sales, or `{Payments: [...]}`. Ours when exactly one sale is ours; not ours when every sale
 * shown is someone else's; unknown otherwise (nothing shown, or an answer that cannot tell).
 */
export function findOurSale(answer: unknown, ours: OurSale): Ownership {
  const list = Array.isArray(answer)
    ? answer
    : isObject(answer) && Array.isArray(answer.Payments)
      ? (answer.Payments as unknown[])
      : [answer];
  if (list.length === 0) return { ours: 'unknown', reason: 'the answer shows no sale' };
  const checks = list.map((a) =>
    saleOwnership(
      isObject(a) && !isObject(a.Payment) && 'PaymentId' in a
        ? { MerchantOrderId: a.MerchantOrderId ?? ours.merchantOrderId, Payment: a }
        : a,
      ours,
    ),
  );
  const mine = checks.filter((c): c is Extract<Ownership, { ours: true }> => c.ours === true);
  if (mine.length === 1) return mine[0]!;
  if (mine.length > 1) return { ours: 'unknown', reason: `${mine.length} sales match ours` };
  const unknown = checks.find((c) => c.ours === 'unknown');
  if (unknown) return unknown;
  return { ours: false, reason: checks.map((c) => (c.ours === false ? c.reason : '')).join('; ') };
}
