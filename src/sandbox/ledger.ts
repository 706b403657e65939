import type { SandboxContext } from './context.js';
import type { CardSaleRow } from './ecommerce-card.js';

export interface LedgerReport {
  now: string;
  entries: {
    at: string;
    kind: string;
    paymentId: string | null;
    merchantOrderId: string | null;
    voidId: string | null;
    amount: number;
    note: string | null;
  }[];
  problems: { at: string; kind: string; merchantOrderId: string | null; paymentId: string | null; detail: string }[];
  sales: {
    paymentId: string;
    merchantOrderId: string;
    amount: number;
    status: number;
    confirmationStatus: number;
    voided: number;
    charged: number;
  }[];
  /** E-commerce Pix and QR code sales: what each still holds of the shopper's money. */
  ecommerce: {
    paymentId: string;
    merchantOrderId: string;
    type: string;
    amount: number;
    status: number;
    refunded: number;
    charged: number;
  }[];
  /**
   * Credit card sales without the card present (`POST /1/sales`, `CreditCard`: ecommerce-card.ts), as
   * the host holds them: `captured` and `voided` in cents, `charged` what a captured sale still takes
   * of the cardholder (Status 2: captured less voided), `held` what a pre-authorization reserves
   * (Status 1), `captures` how many captures the host recorded (the sale's own, with `Capture` true, counts).
   */
  cards: {
    paymentId: string;
    merchantOrderId: string;
    amount: number;
    status: number;
    captured: number;
    voided: number;
    charged: number;
    held: number;
    captures: number;
  }[];
  /** Wallet undo callbacks: delivered or still being retried. */
  callbacks: {
    url: string;
    attempts: number;
    deliveredAt: string | null;
    lastError: string | null;
    payload: unknown;
  }[];
  totals: { charged: number; sales: number; ecommerceCharged: number; cardsCharged: number };
}

/**
 * `GET /sandbox/ledger`: every charge, confirmation, undo, void and refund, the problems
 * (duplicates, sales pending at close, undos after close) and what each sale still charges
 * the customer (approved and not undone, minus voids authorized or confirmed).
 */
export function ledgerReport(ctx: SandboxContext): LedgerReport {
  const iso = (ms: number): string => new Date(ms).toISOString();
  const entries = (
    ctx.db
      .prepare(`SELECT at, kind, payment_id, merchant_order_id, void_id, amount, note FROM ledger ORDER BY id`)
      .all() as {
      at: number;
      kind: string;
      payment_id: string | null;
      merchant_order_id: string | null;
      void_id: string | null;
      amount: number;
      note: string | null;
    }[]
  ).map((e) => ({
    at: iso(e.at),
    kind: e.kind,
    paymentId: e.payment_id,
    merchantOrderId: e.merchant_order_id,
    voidId: e.void_id,
    amount: e.amount,
    note: e.note,
  }));
  const problems = (
    ctx.db.prepare(`SELECT at, kind, merchant_order_id, payment_id, detail FROM problems ORDER BY id`).all() as {
      at: number;
      kind: string;
      merchant_order_id: string | null;
      payment_id: string | null;
      detail: string;
    }[]
  ).map((p) => ({
    at: iso(p.at),
    kind: p.kind,
    merchantOrderId: p.merchant_order_id,
    paymentId: p.payment_id,
    detail: p.detail,
  }));
  const sales = (
    ctx.db
      .prepare(
        `SELECT s.payment_id, s.merchant_order_id, s.amount, s.status, s.confirmation_status,
                COALESCE((SELECT SUM(v.amount) FROM voids v WHERE v.payment_id = s.payment_id AND v.cancellation_status IN (1, 3)), 0) AS voided
           FROM sales s ORDER BY s.created_at`,
      )
      .all() as {
      payment_id: string;
      merchant_order_id: string;
      amount: number;
      status: number;
      confirmation_status: number;
      voided: number;
    }[]
  ).map((s) => {
    const live = (s.status === 2 || s.status === 1) && s.confirmation_status !== 2;
    return {
      paymentId: s.payment_id,
      merchantOrderId: s.merchant_order_id,
      amount: s.amount,
      status: s.status,
      confirmationStatus: s.confirmation_status,
      voided: s.voided,
      charged: live ? s.amount - s.voided : 0,
    };
  });
  const ecommerce = ecommerceSales(ctx);
  const cards = cardSales(ctx);
  const callbacks = callbackRows(ctx);
  return {
    now: ctx.clock.now().toISOString(),
    entries,
    problems,
    sales,
    ecommerce,
    cards,
    callbacks,
    totals: {
      charged: sales.reduce((a, s) => a + s.charged, 0),
      sales: sales.length,
      ecommerceCharged: ecommerce.reduce((a, e) => a + e.charged, 0),
      cardsCharged: cards.reduce((a, c) => a + c.charged, 0),
    },
  };
}

/** The card-not-present credit sales of `card_sales`, with the captures the ledger recorded of each. */
function cardSales(ctx: SandboxContext): LedgerReport['cards'] {
  const rows = ctx.db
    .prepare(
      `SELECT c.payment_id, c.merchant_order_id, c.amount, c.status, c.captured_amount, c.voided_amount,
              (SELECT COUNT(*) FROM ledger l WHERE l.payment_id = c.payment_id AND l.kind = 'card-captured') AS captures
         FROM card_sales c ORDER BY c.authorized_at, c.rowid`,
    )
    .all() as (Omit<CardSaleRow, 'authorized_at' | 'answer'> & { captures: number })[];
  return rows.map((c) => {
    const captured = c.captured_amount ?? 0;
    return {
      paymentId: c.payment_id,
      merchantOrderId: c.merchant_order_id,
      amount: c.amount,
      status: c.status,
      captured,
      voided: c.voided_amount,
      charged: c.status === 2 ? captured - c.voided_amount : 0,
      held: c.status === 1 ? c.amount : 0,
      captures: c.captures,
    };
  });
}

/** E-commerce Pix and QR code sales: what each still holds of the shopper's money. */
function ecommerceSales(ctx: SandboxContext): LedgerReport['ecommerce'] {
  return (
    ctx.db
      .prepare(
        `SELECT payment_id, merchant_order_id, type, amount, status, refunded_amount FROM ecommerce_sales ORDER BY created_at`,
      )
      .all() as {
      payment_id: string;
      merchant_order_id: string;
      type: string;
      amount: number;
      status: number;
      refunded_amount: number;
    }[]
  ).map((e) => ({
    paymentId: e.payment_id,
    merchantOrderId: e.merchant_order_id,
    type: e.type,
    amount: e.amount,
    status: e.status,
    refunded: e.refunded_amount,
    charged: e.status === 2 ? e.amount - e.refunded_amount : 0,
  }));
}

/** Wallet undo callbacks: delivered or still being retried. */
function callbackRows(ctx: SandboxContext): LedgerReport['callbacks'] {
  const iso = (ms: number): string => new Date(ms).toISOString();
  return (
    ctx.db.prepare(`SELECT url, payload, attempts, delivered_at, last_error FROM callbacks ORDER BY id`).all() as {
      url: string;
      payload: string;
      attempts: number;
      delivered_at: number | null;
      last_error: string | null;
    }[]
  ).map((c) => ({
    url: c.url,
    attempts: c.attempts,
    deliveredAt: c.delivered_at === null ? null : iso(c.delivered_at),
    lastError: c.last_error,
    payload: JSON.parse(c.payload) as unknown,
  }));
}
