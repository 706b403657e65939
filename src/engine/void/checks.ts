import { journalData } from '../journal-data.js';
import { localTime, OmniposError } from '../../core/index.js';
import { voidAllowed, type TableSet } from '../../initialization/index.js';
import type { ExpiryKey, JournalEntry } from '../../store/index.js';
import type { CardSummary, SaleData } from '../sale/types.js';
import type { QrSaleData } from '../qr/types.js';
import type { VoidedSale } from './types.js';

/**
 * The checks a void passes before anything is sent, each failing with a typed error that says
 * what and where: the sale can be voided, the amount fits what remains and the issuer's limits,
 * and the card presented is the sale's.
 */

/** Sale states the host shows confirmed: only those can be voided (a pending sale is undone instead). */
const VOIDABLE = new Set(['confirmed', 'needs-refund']);

/** The sale behind journal entry `entry`, or VOID_NOT_ALLOWED saying why it cannot be voided. */
export function voidableSale(entry: JournalEntry | undefined, id: number): VoidedSale {
  if (!entry) throw new OmniposError('ENGINE_NOT_FOUND', `no payment ${id}`, { id });
  if (entry.kind === 'pix') {
    const p = entry.data as { merchantOrderId: string; paymentId?: string };
    if (entry.state !== 'confirmed')
      throw new OmniposError('VOID_NOT_ALLOWED', `Pix ${id} is ${entry.state}: only a confirmed Pix is refunded`, {
        id,
        state: entry.state,
      });
    if (!p.paymentId) throw new OmniposError('VOID_NOT_ALLOWED', `Pix ${id} has no PaymentId on record`, { id });
    return {
      kind: 'pix',
      id,
      merchantOrderId: p.merchantOrderId,
      paymentId: p.paymentId,
      amount: entry.amount,
      method: 'pix',
    };
  }
  if (entry.kind === 'qr') return walletQrSale(entry, id);
  if (entry.kind !== 'sale') {
    throw new OmniposError(
      'VOID_NOT_ALLOWED',
      `payment ${id} is a ${entry.kind} payment: card sales are voided with the card, wallet QR sales with a cancellation code, Pix sales refunded`,
      { id, kind: entry.kind },
    );
  }
  const d = journalData<SaleData>(entry);
  if (!VOIDABLE.has(entry.state)) {
    const hint =
      entry.state === 'awaiting-decision' || entry.state === 'approved' ? ' (not confirmed yet: undo it instead)' : '';
    throw new OmniposError(
      'VOID_NOT_ALLOWED',
      `payment ${id} is ${entry.state}: only a confirmed sale can be voided${hint}`,
      { id, state: entry.state },
    );
  }
  if (!d.paymentId || !d.card)
    throw new OmniposError('VOID_NOT_ALLOWED', `payment ${id} has no PaymentId or card on record`, { id });
  return {
    id,
    merchantOrderId: d.merchantOrderId,
    paymentId: d.paymentId,
    amount: entry.amount,
    method: d.request.method,
    card: d.card,
    ...(d.authorizationCode ? { authorizationCode: d.authorizationCode } : {}),
    ...(d.nsu ? { nsu: d.nsu } : {}),
  };
}

/** A confirmed wallet QR sale of the terminal's own code: voided by the cancellation code the wallet pays. */
function walletQrSale(entry: JournalEntry, id: number): VoidedSale {
  const q = journalData<QrSaleData & { provider?: string }>(entry);
  if (!VOIDABLE.has(entry.state))
    throw new OmniposError('VOID_NOT_ALLOWED', `QR sale ${id} is ${entry.state}: only a confirmed sale can be voided`, {
      id,
      state: entry.state,
    });
  if (q.provider === 'ecommerce') return ecommerceQrSale(q, entry, id);
  if (q.provider !== undefined && q.provider !== 'terminal') {
    throw new OmniposError(
      'VOID_NOT_ALLOWED',
      `QR sale ${id} was made by the ${q.provider} API: only the terminal's own codes are voided with a cancellation code`,
      { id, provider: q.provider },
    );
  }
  if (!q.paymentId || !q.qrCode)
    throw new OmniposError('VOID_NOT_ALLOWED', `QR sale ${id} has no PaymentId or code on record`, { id });
  return {
    kind: 'wallet-qr',
    id,
    merchantOrderId: q.merchantOrderId,
    paymentId: q.paymentId,
    amount: entry.amount,
    method: q.request.method,
    qrCode: q.qrCode,
    ...(q.authorizationCode ? { authorizationCode: q.authorizationCode } : {}),
    ...(q.nsu ? { nsu: q.nsu } : {}),
  };
}

/**
 * A confirmed e-commerce QR sale (`qr.provider: ecommerce`): captured when the wallet paid it, it is
 * given back like a Pix, on the e-commerce API by its PaymentId (`PUT /1/sales/{PaymentId}/void`,
 * ecom:1952-1966; the voided sale shows 10, ecom:6235), asked once through the outbox.
 */
function ecommerceQrSale(q: QrSaleData, entry: JournalEntry, id: number): VoidedSale {
  if (!q.paymentId) throw new OmniposError('VOID_NOT_ALLOWED', `QR sale ${id} has no PaymentId on record`, { id });
  return {
    kind: 'ecommerce-qr',
    id,
    merchantOrderId: q.merchantOrderId,
    paymentId: q.paymentId,
    amount: entry.amount,
    method: q.request.method,
    ...(q.authorizationCode ? { authorizationCode: q.authorizationCode } : {}),
    ...(q.nsu ? { nsu: q.nsu } : {}),
  };
}

/** First 6 and last 4 digits of a masked PAN (the pinpad gives 8 + 4, the journal keeps 6 + 4). */
function sixFour(masked: string): string {
  const digits = masked.replace(/\s/g, '');
  return `${digits.slice(0, 6)}|${digits.slice(-4)}|${digits.length}`;
}

/**
 * Whether the card read for the void is the sale's (docs/decisions.md, "Voids": masked PAN, expiry and PAN
 * sequence number). The sale's expiry is known by its keyed hash only (`expiryMac`, under `key`).
 * Returns what differs, or undefined when it matches. An expiry the sale has is a mismatch when the
 * read has none; a sequence number missing on one side is a mismatch only when the other side has it.
 */
export function cardMismatch(sale: CardSummary, read: CardSummary, key: ExpiryKey): string | undefined {
  if (sixFour(sale.maskedPan) !== sixFour(read.maskedPan)) return 'masked PAN differs';
  if (sale.expiryMac !== undefined && (read.expiry === undefined || !key.matches(read.expiry, sale.expiryMac)))
    return 'expiry differs';
  // A row not rewritten yet (the start rewrites them all: src/store/expiry-key.ts) is still held to its expiry.
  if (sale.expiry !== undefined && sale.expiry !== read.expiry) return 'expiry differs';
  if (
    sale.panSequenceNumber !== undefined &&
    read.panSequenceNumber !== undefined &&
    Number(sale.panSequenceNumber) !== Number(read.panSequenceNumber)
  ) {
    return 'PAN sequence number differs';
  }
  return undefined;
}

/** Whole days between two instants' host dates (America/Sao_Paulo). */
export function hostDaysBetween(from: Date, to: Date): number {
  const day = (d: Date): number => {
    const t = localTime(d);
    return Date.UTC(t.year, t.month - 1, t.day) / 86_400_000;
  };
  return day(to) - day(from);
}

export interface LimitCheck {
  sale: VoidedSale;
  /** When the sale was made (its journal row's creation). */
  saleAt: Date;
  amount: number;
  /** What earlier voids of the sale gave back or may still give back, cents. */
  voided: number;
  now: Date;
  /** The initialization tables in force (none: only the remaining amount is checked). */
  tables: TableSet | undefined;
}

/**
 * The remaining amount, the terminal's cancellation parameter
 * (`AllowCancellationWithValueGreaterThanTheValueOfTheSale`), the product's `AllowCancel` and
 * the issuer's reversal limits (`LimitDayforReversal`, `LimitValueforReversal`,
 * `LimitPercentforReversal`). Throws VOID_OVER_LIMIT, VOID_TOO_LATE or VOID_NOT_ALLOWED.
 */
export function checkVoidLimits(c: LimitCheck): void {
  const where = { paymentId: c.sale.paymentId, amount: c.amount };
  const remaining = c.sale.amount - c.voided;
  // First: a sale voided in full says so, whatever amount was asked (none asks for what remains: 0).
  if (remaining <= 0)
    throw new OmniposError(
      'VOID_OVER_LIMIT',
      `sale ${c.sale.merchantOrderId} is already voided in full (${c.sale.amount} cents)`,
      { ...where, remaining: 0 },
    );
  if (!Number.isSafeInteger(c.amount) || c.amount <= 0)
    throw new OmniposError(
      'VOID_OVER_LIMIT',
      `amount: must be a positive whole number of cents, got ${c.amount}`,
      where,
    );
  const greaterAllowed = c.tables?.tables.parameters.AllowCancellationWithValueGreaterThanTheValueOfTheSale === true;
  if (c.amount > remaining && !greaterAllowed) {
    throw new OmniposError(
      'VOID_OVER_LIMIT',
      `amount: ${c.amount} cents is more than the ${remaining} cents that remain of sale ${c.sale.merchantOrderId}`,
      { ...where, remaining },
    );
  }
  if (!c.tables || !c.sale.card) return;
  const productId = c.sale.card.productId;
  const product = productId !== undefined ? c.tables.product(productId) : undefined;
  if (!product)
    throw new OmniposError(
      'VOID_NOT_ALLOWED',
      `the tables in force have no product ${String(productId)} for sale ${c.sale.merchantOrderId}`,
      where,
    );
  const issuer = c.sale.card.issuerId !== undefined ? c.tables.issuer(c.sale.card.issuerId) : undefined;
  const daysSinceSale = hostDaysBetween(c.saleAt, c.now);
  const d = voidAllowed(product, issuer, c.tables.tables.parameters, {
    saleAmount: c.sale.amount,
    voidAmount: c.amount,
    daysSinceSale,
  });
  if (d.ok) return;
  const code =
    d.reason === 'void-too-late'
      ? 'VOID_TOO_LATE'
      : d.reason === 'void-over-limit'
        ? 'VOID_OVER_LIMIT'
        : 'VOID_NOT_ALLOWED';
  throw new OmniposError(code, d.message, {
    ...where,
    reason: d.reason,
    daysSinceSale,
    ...(issuer ? { issuerId: issuer.IssuerId } : {}),
  });
}

/**
 * A sale of the e-commerce API (a Pix, an e-commerce QR sale) is refunded in full, and only when the
 * outbox can ask the refund (`available`: the e-commerce credentials are configured):
 * VOID_NOT_ALLOWED otherwise, before a journal row.
 */
export function checkPixRefund(sale: VoidedSale, amount: number, remaining: number, available: boolean): void {
  const what = sale.kind === 'ecommerce-qr' ? 'e-commerce QR sale' : 'Pix';
  if (!available)
    throw new OmniposError(
      'VOID_NOT_ALLOWED',
      `${what} refunds need the e-commerce credentials (acquirer.omni.merchantId and merchantKeyFile)`,
      { saleId: sale.id },
    );
  if (amount !== remaining || remaining !== sale.amount) {
    throw new OmniposError(
      'VOID_NOT_ALLOWED',
      `a ${what} is refunded in full (${sale.amount} cents): partial ${what} refunds are not supported`,
      { saleId: sale.id, amount },
    );
  }
}
