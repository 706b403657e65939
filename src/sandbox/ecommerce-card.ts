import { randomInt } from 'node:crypto';
import { nextNsu } from './answers.js';
import { ledgerEntry, linkTo, newUuid, type SandboxContext } from './context.js';
import { apiErrors, fieldCode } from './errors.js';
import { Fields, get, type Answer, type SandboxRequest } from './http-kit.js';
import { flag, GUID, maskCard, rememberCard, savedCard } from './ecommerce-card-tokens.js';
import { keepRecurrence, readRecurrence, type RecurrenceAsked } from './ecommerce-recurrence.js';

/**
 * The e-commerce API's credit card sale without the card present, as the manual describes it
 * (ECOMMERCE = `_i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md` in
 * DeveloperCielo/developercielo.github.io; each rule cites its line). Written from the page, never
 * from our client. Capture, void and the queries: ecommerce-card-changes.ts.
 */

export interface CardSaleRow {
  payment_id: string;
  merchant_order_id: string;
  amount: number;
  status: number;
  captured_amount: number | null;
  voided_amount: number;
  authorized_at: number;
  answer: string;
}

/** ECOMMERCE:764 "Valores possíveis: Visa / Master / Amex / Elo / Aura / JCB / Diners / Discover / Hipercard". */
export const CARD_BRANDS = ['Visa', 'Master', 'Amex', 'Elo', 'Aura', 'JCB', 'Diners', 'Discover', 'Hipercard'] as const;

/**
 * The sandbox's card-number endings (ECOMMERCE:399-408, "Os status das transações são definidos
 * pelos FINAIS de cada cartão, assim como o ReturnCode", 397): `authorized`, or denied with the
 * return code and message of the row. 9 is "Autorização Aleatória": 4 or 99.
 */
export const CARD_ENDINGS: Readonly<Record<string, { authorized: true } | { code: string; message: string }>> = {
  '0': { authorized: true },
  '1': { authorized: true },
  '4': { authorized: true },
  '2': { code: '05', message: 'Não Autorizada' },
  '3': { code: '57', message: 'Cartão Expirado' },
  '5': { code: '78', message: 'Cartão Bloqueado' },
  '6': { code: '99', message: 'Time Out' },
  '7': { code: '77', message: 'Cartão Cancelado' },
  '8': { code: '70', message: 'Problemas com o Cartão de Crédito' },
};

/** The card of a sale: typed (its number) or saved (its `CardToken`); the host answers only its mask. */
interface SaleCard {
  masked: string;
  holder: string;
  expiry: string;
  brand: string;
}

/** The typed card's rules (ECOMMERCE:759-764): number 13-19 digits, holder 25 letters (214), `MM/YYYY`, a brand among nine. */
function typedCard(f: Fields): SaleCard | undefined {
  // 759: texto 19, Sim.
  const number = f.string('Payment.CreditCard.CardNumber', { re: /^\d{13,19}$/, hint: 'must be 13 to 19 digits' });
  // 760: texto 25, "Não aceita caracteres especiais ou acentuação".
  const holder = f.string('Payment.CreditCard.Holder', {
    re: /^[A-Za-z ]{1,25}$/,
    hint: 'at most 25 letters, no accents',
  });
  // 761: texto 7, "MM/AAAA".
  const expiry = f.string('Payment.CreditCard.ExpirationDate', {
    re: /^(0[1-9]|1[0-2])\/\d{4}$/,
    hint: 'must be MM/YYYY',
  });
  const brand = f.string('Payment.CreditCard.Brand', { oneOf: CARD_BRANDS });
  if (!number || !holder || !expiry || !brand) return undefined;
  return { masked: maskCard(number), holder, expiry, brand };
}

/** A saved card named by its token (ECOMMERCE:3531-3533): `CardToken` a GUID, `Brand` required; 130 when the host holds none. */
function tokenCard(ctx: SandboxContext, f: Fields): SaleCard | undefined {
  const token = f.string('Payment.CreditCard.CardToken', { re: GUID, hint: 'a GUID (36)' });
  const brand = f.string('Payment.CreditCard.Brand', { oneOf: CARD_BRANDS });
  if (!token || !brand || f.problems.length > 0) return undefined;
  const saved = savedCard(ctx, token);
  return { masked: saved.masked, holder: saved.holder, expiry: saved.expiry, brand: saved.brand };
}

/** The field rules of the sale request's property table (ECOMMERCE:715-768). */
function readSale(ctx: SandboxContext, body: unknown): { problems: string[]; values: SaleValues } {
  const f = new Fields(body);
  const byToken = get(body, 'Payment.CreditCard.CardToken') !== undefined;
  const values: SaleValues = {
    // 715: texto 50, "apenas a-z, A-Z, 0-9".
    orderId: f.string('MerchantOrderId', { re: /^[A-Za-z0-9]{1,50}$/, hint: 'at most 50 letters and digits' }),
    // 554: "Não é possível realizar uma transação com valor (Amount) 0"; número 15.
    amount: f.int('Payment.Amount', { min: 1, max: 999_999_999_999_999 }),
    // 752: número 2, Sim.
    installments: f.int('Payment.Installments', { min: 1, max: 99 }),
    // 547-548: Capture true is automatic capture; absent or false, a later capture.
    capture: f.bool('Payment.Capture', { optional: true }) ?? false,
    // 762: texto 4, Não.
    securityCode: f.string('Payment.CreditCard.SecurityCode', {
      optional: true,
      re: /^\d{3,4}$/,
      hint: 'must be 3 or 4 digits',
    }),
    // 750: texto 13, "Não permite caracteres especiais".
    softDescriptor: f.string('Payment.SoftDescriptor', {
      optional: true,
      re: /^[A-Za-z0-9 ]{1,13}$/,
      hint: 'at most 13 letters or digits',
    }),
    // 763: "SaveCard", default false.
    saveCard: flag(f, 'Payment.CreditCard.SaveCard'),
  };
  values.card = byToken ? tokenCard(ctx, f) : typedCard(f);
  return { problems: f.problems, values };
}

interface SaleValues {
  orderId?: string | undefined;
  amount?: number | undefined;
  installments?: number | undefined;
  capture: boolean;
  securityCode?: string | undefined;
  softDescriptor?: string | undefined;
  saveCard: boolean;
  card?: SaleCard | undefined;
}

export { maskCard };

export function cardLinks(ctx: SandboxContext, row: { payment_id: string; status: number }): unknown[] {
  const id = { PaymentId: row.payment_id };
  const links: unknown[] = [{ Method: 'GET', Rel: 'self', Href: linkTo(ctx, 'ecommerceSaleGet', id) }];
  if (row.status === 1) links.push({ Method: 'PUT', Rel: 'capture', Href: linkTo(ctx, 'ecommerceSaleCapture', id) });
  if (row.status === 1 || row.status === 2)
    links.push({ Method: 'PUT', Rel: 'void', Href: linkTo(ctx, 'ecommerceSaleVoid', id) });
  return links;
}

/** The sale's answer as its query shows it now (ECOMMERCE:5504ff). */
export function cardAnswer(ctx: SandboxContext, row: CardSaleRow): Record<string, unknown> {
  const a = JSON.parse(row.answer) as { Payment: Record<string, unknown> };
  a.Payment.Status = row.status;
  if (row.captured_amount !== null) a.Payment.CapturedAmount = row.captured_amount;
  if (row.voided_amount > 0) a.Payment.VoidedAmount = row.voided_amount;
  a.Payment.Links = cardLinks(ctx, row);
  return a;
}

export function findCardSale(ctx: SandboxContext, paymentId: string): CardSaleRow | undefined {
  return ctx.db.prepare(`SELECT * FROM card_sales WHERE payment_id = ?`).get(paymentId) as CardSaleRow | undefined;
}

/** The outcome of a card: its ending's row, 9 drawn between 4 and 99 (ECOMMERCE:408). */
function outcomeOf(pan: string): { authorized: true } | { code: string; message: string } {
  const last = pan.slice(-1);
  if (last === '9') return randomInt(2) === 0 ? { authorized: true } : { code: '99', message: 'Time Out' };
  return CARD_ENDINGS[last] as { authorized: true } | { code: string; message: string };
}

/** The token a sale asked to save (ECOMMERCE:3151-3153), and its recurrence's node (4386-4397), for its answer. */
function keptAfterSale(
  ctx: SandboxContext,
  v: SaleValues,
  sale: { paymentId: string; authorized: boolean; customerName?: string },
  recurrence: RecurrenceAsked | undefined,
): { cardToken?: string; recurrentPayment?: Record<string, unknown> } {
  const card = v.card as SaleCard;
  // "A resposta da requisição retornará o token do cartão" (3153), whatever the sale's outcome: not
  // saving a refused card is the store's part (3065-3066), which the terminal keeps (docs/card-not-present.md).
  const cardToken = v.saveCard ? rememberCard(ctx, card) : undefined;
  // A recurrence is kept once its first transaction is authorized, or at once when scheduled (3961, 4502).
  const keep = recurrence && (sale.authorized || !recurrence.authorizeNow);
  const recurrentPayment = keep
    ? keepRecurrence(
        ctx,
        {
          orderId: v.orderId as string,
          amount: v.amount as number,
          paymentId: sale.paymentId,
          ...(sale.customerName ? { customerName: sale.customerName } : {}),
        },
        recurrence,
      )
    : undefined;
  return { ...(cardToken ? { cardToken } : {}), ...(recurrentPayment ? { recurrentPayment } : {}) };
}

/**
 * `POST /1/sales` with `Payment.Type` `CreditCard` (ECOMMERCE:559-768, answer 770-968), by a typed
 * card or a saved one (`CardToken`, 3471-3535), saving the card (`SaveCard`, 3149-3153), or opening
 * a scheduled recurrence (`RecurrentPayment`, 4256-4500; ecommerce-recurrence.ts).
 */
export function createCardSale(ctx: SandboxContext, req: SandboxRequest, body: Record<string, unknown>): Answer {
  void req;
  const { problems, values: v } = readSale(ctx, body);
  const recurrence = readRecurrence(body, v.installments);
  if (problems.length > 0 || recurrence.problems.length > 0)
    throw apiErrors(400, [...problems.map((p) => ({ code: fieldCode(p), detail: p })), ...recurrence.problems]);
  const card = v.card as SaleCard;
  // A recurrence scheduled for later is not authorized now: Status 20 "Scheduled" (4630, 7379).
  const scheduled = recurrence.asked?.authorizeNow === false;
  const outcome = scheduled ? undefined : outcomeOf(card.masked);
  const authorized = outcome !== undefined && 'authorized' in outcome;
  const status = scheduled ? 20 : authorized ? (v.capture ? 2 : 1) : 3;
  const now = ctx.clock.now();
  const paymentId = newUuid();
  const nsu = nextNsu(ctx);
  const customerName = get(body, 'Customer.Name');
  const kept = keptAfterSale(
    ctx,
    v,
    { paymentId, authorized, ...(typeof customerName === 'string' ? { customerName } : {}) },
    recurrence.asked,
  );
  const sent = body.Payment as Record<string, unknown>;
  const payment: Record<string, unknown> = {
    ...sent,
    // The answer masks the number and never echoes the security code (ECOMMERCE:817-820).
    CreditCard: {
      CardNumber: card.masked,
      Holder: card.holder,
      ExpirationDate: card.expiry,
      SaveCard: kept.cardToken !== undefined,
      ...(kept.cardToken ? { CardToken: kept.cardToken } : {}),
      Brand: card.brand,
    },
    Capture: v.capture,
    ...(outcome ? { ProofOfSale: nsu, Tid: `${String(now.getTime()).slice(-7)}${nsu}` } : {}),
    ...(authorized ? { AuthorizationCode: String(randomInt(100000, 1000000)) } : {}),
    PaymentId: paymentId,
    Type: 'CreditCard',
    Amount: v.amount,
    ReceivedDate: now.toISOString(),
    Currency: 'BRL',
    Country: 'BRA',
    Provider: 'Simulado',
    // 1 → "4", 2 → "6": the page's examples (ECOMMERCE:2840-2843, 844-846) of the row's "4/6" (401).
    ...(outcome
      ? {
          ReturnCode: 'authorized' in outcome ? (v.capture ? '6' : '4') : outcome.code,
          ReturnMessage: 'authorized' in outcome ? 'Operation Successful' : outcome.message,
        }
      : {}),
    ...(kept.recurrentPayment ? { RecurrentPayment: kept.recurrentPayment } : {}),
  };
  const answer = {
    MerchantOrderId: v.orderId,
    ...(body.Customer ? { Customer: body.Customer } : {}),
    Payment: payment,
  };
  ctx.db
    .prepare(
      `INSERT INTO card_sales (payment_id, merchant_order_id, amount, status, captured_amount, voided_amount, authorized_at, answer) VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
    )
    .run(paymentId, v.orderId, v.amount, status, status === 2 ? v.amount : null, now.getTime(), JSON.stringify(answer));
  ledgerEntry(ctx, {
    kind:
      status === 2
        ? 'card-captured'
        : status === 1
          ? 'card-authorized'
          : status === 20
            ? 'card-scheduled'
            : 'card-denied',
    paymentId,
    merchantOrderId: v.orderId,
    amount: status === 2 ? v.amount : 0,
  });
  return { status: 201, body: cardAnswer(ctx, findCardSale(ctx, paymentId) as CardSaleRow) };
}
