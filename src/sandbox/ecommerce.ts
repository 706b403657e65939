import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { HOST_TIME_ZONE, localTime } from '../core/index.js';
import { isValidCnpj, isValidCpf } from '../crypto/index.js';
import { buildPadraoq, buildPix } from '../qr/index.js';
import { nextNsu } from './answers.js';
import { ledgerEntry, linkTo, newUuid, problem, type SandboxContext } from './context.js';
import { apiError, apiErrors, CODE, fieldCode } from './errors.js';
import { Fields, get, objectBody, Refusal, type Answer, type SandboxRequest } from './http-kit.js';
import { strict } from './scenario.js';
import { requireMerchant } from './ecommerce-merchant.js';
import { createCardSale, findCardSale } from './ecommerce-card.js';
import { amountOf, getCardSale, voidCardSale } from './ecommerce-card-changes.js';
import { askPixRefund, settlePixRefund } from './pix-refund.js';

export interface EcommerceRow {
  payment_id: string;
  merchant_order_id: string;
  type: string;
  amount: number;
  status: number;
  reference_label: string | null;
  qr_expires_at: number | null;
  refunded_amount: number;
  refund_due_at: number | null;
  created_at: number;
  answer: string;
}

/** Field problems as the e-commerce host refuses them: one published `{Code, Message}` per field. */
function fieldErrors(problems: string[]): Refusal {
  return apiErrors(
    400,
    problems.map((p) => ({ code: fieldCode(p), detail: p })),
  );
}

export function findEcommerce(ctx: SandboxContext, paymentId: string): EcommerceRow | undefined {
  const row = ctx.db.prepare(`SELECT * FROM ecommerce_sales WHERE payment_id = ?`).get(paymentId) as
    EcommerceRow | undefined;
  return row ? settlePixRefund(ctx, row) : undefined;
}

function answerOf(ctx: SandboxContext, row: EcommerceRow): Record<string, unknown> {
  const a = JSON.parse(row.answer) as { Payment: Record<string, unknown> };
  a.Payment.Status = row.status;
  a.Payment.Links = [
    { Method: 'GET', Rel: 'self', Href: linkTo(ctx, 'ecommerceSaleGet', { PaymentId: row.payment_id }) },
  ];
  return a;
}

function qrTimestamp(at: Date): string {
  const t = localTime(at, HOST_TIME_ZONE);
  const d2 = (n: number): string => String(n).padStart(2, '0');
  const s = Math.floor(t.decisecondsOfDay / 10);
  return `${d2(t.day)}${d2(t.month)}${d2(t.year % 100)}${d2(Math.floor(s / 3600))}${d2(Math.floor(s / 60) % 60)}${d2(s % 60)}`;
}

/** A fresh reference label (62.05, at most 25 characters) naming an e-commerce QR sale. */
function referenceLabel(): string {
  return `EC${newUuid().replace(/-/g, '').slice(0, 23).toUpperCase()}`;
}

/** A Pix sale's payer: a name, and a CPF or CNPJ whose check digits are right. */
function checkPixCustomer(f: Fields): void {
  f.string('Customer.Name', { re: /^.{1,255}$/, hint: 'at most 255 characters' });
  const idType = f.string('Customer.IdentityType', { oneOf: ['CPF', 'CNPJ'] });
  const identity = f.string('Customer.Identity', { re: /^\d{11}$|^\d{14}$/, hint: 'must be 11 or 14 digits' });
  if (identity && idType === 'CPF' && !isValidCpf(identity))
    f.problems.push('Customer.Identity: CPF check digits are wrong');
  if (identity && idType === 'CNPJ' && !isValidCnpj(identity))
    f.problems.push('Customer.Identity: CNPJ check digits are wrong');
}

/** `POST /1/sales`: Pix (`Payment.Type` `Pix`) and QR code (`qrcode`) sales, status 12 until paid. */
export async function createEcommerceSale(ctx: SandboxContext, req: SandboxRequest): Promise<Answer> {
  requireMerchant(req);
  const body = objectBody(req);
  // A credit card sale without the card present: its own rules (ecommerce-card.ts).
  if (get(body, 'Payment.Type') === 'CreditCard') return createCardSale(ctx, req, body);
  const f = new Fields(body);
  const orderId = f.string('MerchantOrderId', { re: /^[A-Za-z0-9]{1,50}$/, hint: 'at most 50 letters and digits' });
  const type = f.string('Payment.Type', { oneOf: ['CreditCard', 'Pix', 'qrcode'], hint: '' });
  const amount = f.int('Payment.Amount', { min: 1, max: 999_999_999_999_999 });
  if (type === 'Pix') checkPixCustomer(f);
  let installments = 1;
  let modality = 'Credit';
  if (type === 'qrcode') {
    installments = f.int('Payment.Installments', { min: 1, max: 99 }) ?? 1;
    modality = f.string('Payment.Modality', { optional: true, oneOf: ['Credit', 'Debit'] }) ?? 'Credit';
    f.bool('Payment.Capture', { optional: true });
  }
  // The manual's QR sale request names the QR code's options under Payment (ECOMMERCE 2385-2387).
  if (type === 'qrcode' && body.QrCode !== undefined && strict(ctx, 'qrcode-under-payment'))
    f.problems.push('QrCode: not a member of the sale; it goes under Payment');
  if (type === 'qrcode') f.object('Payment.QrCode', { optional: true });
  if (f.problems.length > 0) throw fieldErrors(f.problems);
  const now = ctx.clock.now();
  const paymentId = newUuid();
  const m = SANDBOX_MERCHANT.merchant;
  const payment: Record<string, unknown> = {
    ...(body.Payment as Record<string, unknown>),
    PaymentId: paymentId,
    Amount: amount,
    ReceivedDate: now.toISOString(),
    Status: 12,
    Provider: 'Simulado',
  };
  let label: string | null = null;
  let qrString: string;
  if (type === 'Pix') {
    qrString = buildPix({
      url: `pix.sandbox.omnipos.invalid/v2/${paymentId.replace(/-/g, '')}`,
      merchantName: m.name,
      merchantCity: m.city,
      amount: (amount as number) / 100,
      unique: true,
      mcc: m.mcc,
    });
    Object.assign(payment, {
      AcquirerTransactionId: newUuid(),
      ProofOfSale: nextNsu(ctx),
      QrCodeString: qrString,
      ReturnCode: '0',
      ReturnMessage: 'Pix gerado com sucesso',
    });
  } else {
    label = referenceLabel();
    qrString = buildPadraoq({
      merchantId: m.merchantNumber,
      terminalId: SANDBOX_MERCHANT.terminal.terminalId,
      merchantDocument: m.nationalId,
      deviceType: 'E',
      mcc: m.mcc,
      amount: (amount as number) / 100,
      merchantName: m.name,
      merchantCity: m.city,
      postalCode: m.postalCode,
      referenceLabel: label,
      timestamp: qrTimestamp(now),
      modality: modality === 'Debit' ? '0001' : installments > 1 ? '0004' : '0002',
      installments: installments > 1 ? installments : 0,
      nsu: nextNsu(ctx),
    });
    // The QR sale's answer carries the image only, no text (ECOMMERCE 2548, 2582): the client reads the code from it.
    Object.assign(payment, { ReturnCode: '0', ReturnMessage: 'QRCode gerado com sucesso' });
  }
  // qrcode (and its PNG encoder) load at the first QR code sale, not when the sandbox starts (fast start).
  const { default: QRCode } = await import('qrcode');
  payment.QrcodeBase64Image = (await QRCode.toDataURL(qrString, { errorCorrectionLevel: 'M' })).replace(
    /^data:image\/png;base64,/,
    '',
  );
  if (type === 'qrcode') {
    payment.QrCodeBase64Image = payment.QrcodeBase64Image;
    delete payment.QrcodeBase64Image;
  }
  const answer = { MerchantOrderId: orderId, ...(body.Customer ? { Customer: body.Customer } : {}), Payment: payment };
  ctx.db
    .prepare(
      `INSERT INTO ecommerce_sales (payment_id, merchant_order_id, type, amount, status, reference_label, qr_expires_at, created_at, answer) VALUES (?, ?, ?, ?, 12, ?, ?, ?, ?)`,
    )
    .run(
      paymentId,
      orderId,
      type,
      amount,
      label,
      type === 'qrcode' ? now.getTime() + ctx.options.qrValidityMs : null,
      now.getTime(),
      JSON.stringify(answer),
    );
  ledgerEntry(ctx, { kind: `${String(type).toLowerCase()}-created`, paymentId, merchantOrderId: orderId, amount: 0 });
  const row = findEcommerce(ctx, paymentId) as EcommerceRow;
  return { status: 201, body: answerOf(ctx, row) };
}

/** `GET /1/sales/{PaymentId}`. */
export function getEcommerceSale(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireMerchant(req);
  const card = findCardSale(ctx, req.route.params.PaymentId ?? '');
  if (card) return getCardSale(ctx, card);
  const row = findEcommerce(ctx, req.route.params.PaymentId ?? '');
  if (!row) throw apiError(404, CODE.notFound);
  return { status: 200, body: answerOf(ctx, row) };
}

/**
 * `PUT /1/sales/{PaymentId}/void?Amount=`: a pending sale is cancelled (10); a paid QR sale is
 * voided (10, or 2 for a part); a paid Pix is refunded, whole or in part, after the provider approves
 * (answered 12; the charge shows 2 meanwhile, then 11 once the whole amount is given back: pix-refund.ts).
 */
export function voidEcommerceSale(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireMerchant(req);
  // The manual's void request sends Content-Type: application/json (ECOMMERCE 1955, 6295ff).
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && strict(ctx, 'void-content-type'))
    throw apiError(415, CODE.internal, `Content-Type: application/json is required, got ${type || 'none'}`);
  const card = findCardSale(ctx, req.route.params.PaymentId ?? '');
  if (card) return voidCardSale(ctx, card, req);
  const row = findEcommerce(ctx, req.route.params.PaymentId ?? '');
  if (!row) throw apiError(404, CODE.notFound);
  // `?amount=` as the page spells it (ECOMMERCE 1952, 6291), any case; what remains when absent.
  const amount = amountOf(req) ?? row.amount - row.refunded_amount;
  if (amount > row.amount - row.refunded_amount)
    throw apiError(400, CODE.amountInvalid, `Amount: at most ${row.amount - row.refunded_amount}`);
  const reason = (status: number, code: number, message: string, returned = message): Answer => ({
    status: 200,
    body: {
      Status: status,
      ReasonCode: code,
      ReasonMessage: message,
      ReturnCode: '0',
      ReturnMessage: returned,
      Links: [{ Method: 'GET', Rel: 'self', Href: linkTo(ctx, 'ecommerceSaleGet', { PaymentId: row.payment_id }) }],
    },
  });
  if (row.status === 12 && row.refund_due_at === null) {
    ctx.db.prepare(`UPDATE ecommerce_sales SET status = 10 WHERE payment_id = ?`).run(row.payment_id);
    ledgerEntry(ctx, {
      kind: `${row.type.toLowerCase()}-cancelled`,
      paymentId: row.payment_id,
      merchantOrderId: row.merchant_order_id,
    });
    return reason(10, 0, 'Successful');
  }
  if (row.status === 2 && row.type === 'qrcode') return voidPaidQr(ctx, row, amount);
  if (row.status === 2 && row.type === 'Pix') {
    const asked = askPixRefund(ctx, row, amount);
    return reason(asked.status, asked.code, 'Successful', asked.message);
  }
  throw apiError(400, CODE.notAvailableToVoid, `the sale's status is ${row.status}`);
}

/**
 * A paid QR sale voided: in full (what remains), Status 10 with ReturnCode "9" "cancelamento total"
 * (ECOMMERCE 6235-6240, the return codes' table); in part, the sale stays 2 with ReasonCode 0 and
 * ReturnCode "0" (the partial void's answer, 6313-6330), "inúmeras vezes, até que o valor total da
 * transação seja cancelado" (6283), and queries 2 until the last part is voided.
 */
function voidPaidQr(ctx: SandboxContext, row: EcommerceRow, amount: number): Answer {
  const whole = amount === row.amount - row.refunded_amount;
  ctx.db
    .prepare(`UPDATE ecommerce_sales SET status = ?, refunded_amount = refunded_amount + ? WHERE payment_id = ?`)
    .run(whole ? 10 : 2, amount, row.payment_id);
  ledgerEntry(ctx, {
    kind: whole ? 'qrcode-void' : 'qrcode-partial-void',
    paymentId: row.payment_id,
    merchantOrderId: row.merchant_order_id,
    amount: -amount,
  });
  const paid = (JSON.parse(row.answer) as { Payment: Record<string, unknown> }).Payment;
  const codes = { ProofOfSale: paid.ProofOfSale, AuthorizationCode: paid.AuthorizationCode };
  const self = { Method: 'GET', Rel: 'self', Href: linkTo(ctx, 'ecommerceSaleGet', { PaymentId: row.payment_id }) };
  const body = whole
    ? { Status: 10, ...codes, ReturnCode: '9', ReturnMessage: 'Operation Successful', Links: [self] }
    : {
        Status: 2,
        ...codes,
        ReasonCode: 0,
        ReasonMessage: 'Successful',
        ProviderReturnCode: '0',
        ProviderReturnMessage: 'Operation Successful',
        ReturnCode: '0',
        ReturnMessage: 'Operation Successful',
        Links: [
          self,
          { Method: 'PUT', Rel: 'void', Href: linkTo(ctx, 'ecommerceSaleVoid', { PaymentId: row.payment_id }) },
        ],
      };
  return { status: 200, body };
}

/** `POST /sandbox/pix/{PaymentId}/pay`: the shopper pays a Pix, also after it was cancelled (a late payment). */
export function payPix(ctx: SandboxContext, paymentId: string): Answer {
  const row = findEcommerce(ctx, paymentId);
  if (!row || row.type !== 'Pix') throw new Refusal(404, { ReturnCode: '404', ReturnMessage: `no Pix ${paymentId}` });
  if (row.status === 2 || row.status === 11)
    throw new Refusal(409, { ReturnCode: '409', ReturnMessage: 'the Pix is already paid' });
  if (row.status === 10) {
    problem(ctx, {
      kind: 'late-payment',
      merchantOrderId: row.merchant_order_id,
      paymentId,
      detail: `Pix ${paymentId} was paid after it was cancelled`,
    });
  }
  ctx.db.prepare(`UPDATE ecommerce_sales SET status = 2 WHERE payment_id = ?`).run(paymentId);
  ledgerEntry(ctx, { kind: 'pix-paid', paymentId, merchantOrderId: row.merchant_order_id, amount: row.amount });
  return { status: 200, body: answerOf(ctx, findEcommerce(ctx, paymentId) as EcommerceRow) };
}

/**
 * The BIN lookup simulation, one digit per result, as the page's table writes it (ECOMMERCE:476-479,
 * "Consulta BIN em sandbox"): 1st the scheme, 2nd the card type, 3rd the nationality, 4th corporate,
 * 5th the analysis, 6th the issuer. The page's own example (494-510: 411011 → "Banco do Brasil",
 * "001", "Multiplo") contradicts its table for the 6th digit and the accent; the table wins.
 */
const SCHEME_OF_FIRST: Readonly<Record<string, string>> = { '3': 'AMEX', '5': 'MASTERCARD', '6': 'DISCOVER' };
const TYPE_OF_SECOND: Readonly<Record<string, string>> = { '3': 'Débito', '5': 'Crédito', '7': 'Crédito' };
const ANALYSIS_OF_FIFTH: Readonly<Record<string, string>> = { '2': '01', '3': '02' };
const ISSUER_OF_SIXTH: Readonly<Record<string, [string, string]>> = {
  '1': ['104', 'Caixa'],
  '2': ['001', 'Banco do Brasil'],
};

/** `GET /1/cardBin/{Bin}`. */
export function cardBin(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireMerchant(req);
  void ctx;
  const bin = req.route.params.Bin ?? '';
  if (!/^\d{6,9}$/.test(bin)) throw apiError(400, CODE.internal, 'Bin: must be the first 6 to 9 digits of the card');
  const d = bin.split('');
  const [issuerCode, issuer] = ISSUER_OF_SIXTH[d[5] as string] ?? ['237', 'Bradesco'];
  return {
    status: 200,
    body: {
      Status: ANALYSIS_OF_FIFTH[d[4] as string] ?? '00',
      Provider: SCHEME_OF_FIRST[d[0] as string] ?? 'VISA',
      CardType: TYPE_OF_SECOND[d[1] as string] ?? 'Múltiplo',
      // 2nd digit 7: "retorna o campo Prepaid como true".
      Prepaid: d[1] === '7',
      // 3rd digit 1: a national card; the example's field for it is ForeignCard false.
      ForeignCard: d[2] !== '1',
      CorporateCard: d[3] === '1',
      Issuer: issuer,
      IssuerCode: issuerCode,
    },
  };
}

/** Marks a paid e-commerce QR sale (the wallet paid it). */
export function markQrPaid(
  ctx: SandboxContext,
  row: EcommerceRow,
  paid: { authorizationCode: string; nsu: string },
): void {
  // The sale's query answer then names the wallet payment's `AuthorizationCode` and `ProofOfSale`
  // (the e-commerce query's members, ECOMMERCE 5645, 5650).
  const answer = JSON.parse(row.answer) as { Payment: Record<string, unknown> };
  Object.assign(answer.Payment, { AuthorizationCode: paid.authorizationCode, ProofOfSale: paid.nsu });
  ctx.db
    .prepare(`UPDATE ecommerce_sales SET status = 2, answer = ? WHERE payment_id = ?`)
    .run(JSON.stringify(answer), row.payment_id);
  ledgerEntry(ctx, {
    kind: 'qrcode-paid',
    paymentId: row.payment_id,
    merchantOrderId: row.merchant_order_id,
    amount: row.amount,
  });
}
