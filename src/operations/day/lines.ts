import type { PaymentKind } from '../../core/index.js';
import { NOTHING_CHARGED, awaitsHostClose, statusOf } from '../../engine/index.js';
import type { JournalEntry } from '../../store/index.js';

/** What a payment of the day came to, whatever engine ran it (the report's `outcome` vocabulary). */
export const DAY_OUTCOMES = [
  'confirmed',
  'approved',
  'needs-refund',
  'dead-letter',
  'declined',
  'undone',
  'refunded',
  'cancelled',
  'refused',
  'failed',
  'in-progress',
  'voided',
  'void-failed',
] as const;
export type DayOutcome = (typeof DAY_OUTCOMES)[number];

/**
 * The report's `brand` vocabulary: a card sale's brand is the acquirer's `BrandId` from the
 * initialization tables (`Products[].BrandId`, digits; not the NFC-e `tBand`, which a payment's
 * `fiscal.cardBrand` gives), `wallet` a wallet QR sale, `pix` a Pix, a card-not-present sale's the
 * scheme as its host names it (letters: `Visa`, `Master`; the webservice 1.5's `visa`), `unknown` a
 * row that names none.
 */
export const DAY_BRAND_PATTERN = '^([0-9]+|wallet|pix|unknown|[A-Za-z]{2,20})$';
/**
 * The report's `product` vocabulary: a card sale's `ProductId` from the initialization tables (digits),
 * a wallet QR sale's modality (`credit`, `debit`), `pix`, or `unknown`.
 */
export const DAY_PRODUCT_PATTERN = '^([0-9]+|credit|debit|pix|unknown)$';
/** The report's `method` vocabulary: the payment's method, `unknown` for a row that names none. */
export const DAY_METHODS = ['credit', 'debit', 'voucher', 'wallet-qr', 'pix', 'unknown'] as const;

/** The outcomes that leave the customer charged (the host holds the money, or will at the close). */
export const CHARGED_OUTCOMES: ReadonlySet<DayOutcome> = new Set([
  'confirmed',
  'approved',
  'needs-refund',
  'dead-letter',
]);

/** One row of the day: a sale (card, wallet QR, Pix) or a void, as the report counts it. */
export interface DayLine {
  id: number;
  kind: JournalEntry['kind'];
  merchantOrderId: string;
  /** credit, debit, voucher, wallet-qr, pix; a void carries its sale's method when known. */
  method: string;
  /** The card brand id (initialization tables), `wallet` or `pix`, `unknown` when not read. */
  brand: string;
  /** The product id, or the QR modality; `unknown` when not known. */
  product: string;
  /** The engine's state name (the journal's). */
  state: string;
  outcome: DayOutcome;
  /** Cents: the sale's amount, or the void's amount. */
  amount: number;
  /** Cents the customer stays charged by this line (a void's is negative when it took effect). */
  charged: number;
  /** The sale a void belongs to, when its data names it. */
  voidOf?: string;
  paymentId?: string;
  /** A card-not-present sale: the host it went to (`ecommerce`, `webservice15`). */
  backend?: string;
  createdAt: string;
  /**
   * A wallet QR code that ended unpaid and is watched for a late payment until the host's close (and
   * the window after it): its outcome stands unless the host shows a payment by then, which the
   * terminal undoes (src/engine/outbox/watch.ts). Open by design, not stuck.
   */
  awaitingHostClose?: true;
}

/**
 * What a payment of each kind came to, from the status the cash register reads (src/engine/payment-status.ts,
 * the same table the API's payment view reads), with what the day tells apart: `approved` (the host approved, the
 * receipt is on its way: charged, though the API still says pending), `dead-letter` (failed on the API, but the
 * host may hold the sale: `deadLetterOutcome`), and a state the status table does not know (or `pending`) as in progress.
 */
function dayOutcome(kind: PaymentKind, state: string, data: Record<string, unknown>): DayOutcome {
  const own = DAY_OWN[kind]?.[state];
  if (own) return own;
  if (state === 'dead-letter') return deadLetterOutcome(data);
  if (state === 'approved') return state;
  const status = statusOf(kind, state);
  return status === undefined || status === 'pending' ? 'in-progress' : status;
}

/** What the host holds of a step given up, by what its query showed (engine/ports.ts `HostSaleState`). */
const SHOWN_HOLDING_NOTHING: Readonly<Record<string, DayOutcome>> = {
  undone: 'undone',
  declined: 'declined',
  cancelled: 'cancelled',
};

/**
 * What a dead letter came to, for every payment kind (one rule): a step the terminal could not deliver and
 * the host holds. When the query that gave it up showed the sale holding nothing (`hostShows`: undone,
 * declined, cancelled — a card-not-present capture the host shows voided or declined), the line reads as
 * that, nothing charged; otherwise (an undo given up, a confirmation or capture given up with nothing shown)
 * the host may hold the sale: `dead-letter`, counted charged until the person its alarm calls looks it up.
 */
function deadLetterOutcome(data: Record<string, unknown>): DayOutcome {
  const shown = typeof data.hostShows === 'string' ? data.hostShows : undefined;
  if (shown !== undefined && (NOTHING_CHARGED as ReadonlySet<string>).has(shown))
    return SHOWN_HOLDING_NOTHING[shown] ?? 'dead-letter';
  return 'dead-letter';
}

/** Where the day counts the money otherwise than the cash register's status reads the payment. */
const DAY_OWN: Partial<Record<PaymentKind, Readonly<Record<string, DayOutcome>>>> = {
  // The cash register reads a Pix refund as undone; the day counts it refunded.
  pix: { refunding: 'refunded', refunded: 'refunded' },
  // A pre-authorization is held at the host until the void takes (a part voided leaves the row captured, its
  // amount less the part); an undo race is in progress until it ends.
  cnp: { voiding: 'approved', undoing: 'in-progress' },
};

/**
 * A void's states are the void engine's (src/engine/void): read by name, defensively, so a state
 * this table does not know counts as in progress rather than as money moved.
 */
// A dead-lettered void confirmation still gives the money back: the host confirms a pending void
// at the daily close (the void engine's VOID_HOLDS_AMOUNT counts it too).
const VOID_DONE = /^(approved|authorized|awaiting-decision|confirming|confirmed|voided|done|dead-letter)$/;
const VOID_FAILED = /^(declined|denied|refused|undoing|undone|aborted|cancelled|failed|rejected|expired)$/;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
}

/** A scheme's name as a host spells it (letters only), as the report's brand vocabulary takes it. */
function brandName(v: unknown): string | undefined {
  return typeof v === 'string' && /^[A-Za-z]{2,20}$/.test(v) ? v : undefined;
}

function rec(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function cents(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

/** The sale a void names, by journal id or MerchantOrderId, among the keys a void's data may use. */
export function voidSaleRef(data: Record<string, unknown>): { id?: number; merchantOrderId?: string } {
  const sale = rec(data.sale);
  const id = [data.saleId, data.saleJournalId, data.journalId, sale.id].find(
    (v) => typeof v === 'number' && Number.isSafeInteger(v),
  ) as number | undefined;
  const order = [data.saleMerchantOrderId, sale.merchantOrderId, data.originalMerchantOrderId].map(str).find(Boolean);
  return { ...(id !== undefined ? { id } : {}), ...(order ? { merchantOrderId: order } : {}) };
}

/** What a payment of each kind reads as on the day's lines: a kind of src/core/payment-kinds.ts added there does not compile until it has a line. */
const DAY_FACTS: Readonly<
  Record<
    PaymentKind,
    (
      state: string,
      request: Record<string, unknown>,
      card: Record<string, unknown>,
      data: Record<string, unknown>,
    ) => { method: string; brand: string; product: string; outcome: DayOutcome }
  >
> = {
  sale: (state, request, card, data) => ({
    method: str(request.method) ?? 'unknown',
    brand: str(card.brandId) ?? 'unknown',
    product: str(card.productId) ?? 'unknown',
    outcome: dayOutcome('sale', state, data),
  }),
  qr: (state, request, _card, data) => ({
    method: 'wallet-qr',
    brand: 'wallet',
    product: str(request.method) ?? 'unknown',
    outcome: dayOutcome('qr', state, data),
  }),
  pix: (state, _request, _card, data) => ({
    method: 'pix',
    brand: 'pix',
    product: 'pix',
    outcome: dayOutcome('pix', state, data),
  }),
  // Credit only; the host's brand is a name (the row's), not the tables' BrandId.
  cnp: (state, _request, _card, data) => ({
    method: 'credit',
    brand: brandName(data.brand) ?? 'unknown',
    product: 'credit',
    outcome: dayOutcome('cnp', state, data),
  }),
};

/** The card-not-present states charged by what was captured less what was voided (a part voided, or a void that did not take). */
const CNP_CHARGED_STATES: ReadonlySet<string> = new Set(['captured', 'needs-refund']);

/** What a captured card-not-present row charges, cents: what was captured (a part, or all) less what was voided. */
export function cnpChargedCents(entry: JournalEntry): number {
  const d = rec(entry.data);
  return (cents(d.capturedAmount) ?? entry.amount) - (cents(d.voidedAmount) ?? 0);
}

/**
 * One journal row as a line of the day. `saleOf` finds a void's sale (for its method, brand and
 * product). Never throws on a row whose data lacks a field: it reads as `unknown`.
 */
export function dayLine(
  entry: JournalEntry,
  saleOf: (ref: { id?: number; merchantOrderId?: string }) => JournalEntry | undefined = () => undefined,
): DayLine {
  const d = rec(entry.data);
  const request = rec(d.request);
  const card = rec(d.card);
  const base = {
    id: entry.id,
    kind: entry.kind,
    merchantOrderId: entry.merchantOrderId,
    state: entry.state,
    createdAt: entry.createdAt,
    ...(str(d.paymentId) ? { paymentId: str(d.paymentId) as string } : {}),
    ...(entry.kind === 'cnp' && str(d.backend) ? { backend: str(d.backend) as string } : {}),
  };
  if (entry.kind === 'void') {
    const amount = cents(d.voidAmount) ?? cents(d.amount) ?? entry.amount;
    const ref = voidSaleRef(d);
    const sale = saleOf(ref);
    const of = sale ? dayLine(sale) : undefined;
    const outcome: DayOutcome = VOID_DONE.test(entry.state)
      ? 'voided'
      : VOID_FAILED.test(entry.state)
        ? 'void-failed'
        : 'in-progress';
    // A wallet QR void's cancellation code that ended unpaid: watched until the host's close (rules/visibility.ts).
    const awaiting = awaitsHostClose(entry);
    return {
      ...(awaiting ? { awaitingHostClose: true as const } : {}),
      ...base,
      method: of?.method ?? 'unknown',
      brand: of?.brand ?? str(card.brandId) ?? 'unknown',
      product: of?.product ?? str(card.productId) ?? 'unknown',
      outcome,
      amount,
      charged: outcome === 'voided' ? -amount : 0,
      ...(sale ? { voidOf: sale.merchantOrderId } : ref.merchantOrderId ? { voidOf: ref.merchantOrderId } : {}),
    };
  }
  const { method, brand, product, outcome } = DAY_FACTS[entry.kind](entry.state, request, card, d);
  const amount = CNP_CHARGED_STATES.has(entry.state) && entry.kind === 'cnp' ? cnpChargedCents(entry) : entry.amount;
  const awaiting = awaitsHostClose(entry);
  return {
    ...base,
    method,
    brand,
    product,
    outcome,
    amount,
    charged: CHARGED_OUTCOMES.has(outcome) ? amount : 0,
    ...(awaiting ? { awaitingHostClose: true as const } : {}),
  };
}
