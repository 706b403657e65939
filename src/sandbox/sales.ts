import { createHash } from 'node:crypto';
import cardOutcomes from '../../tables/sandbox/card-outcomes.json' with { type: 'json' };
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { builtInMerchant } from '../../tables/sandbox/merchants.js';
import { requireToken } from './auth.js';
import { isExpired, readCard, pinMatches, typedExpiry, type CardRead } from './card.js';
import { centsBand, centsOutcome } from './cents.js';
import { businessDay } from './clock.js';
import { ledgerEntry, linkTo, newUuid, problem, type SandboxContext } from './context.js';
import {
  INITIALIZATION_VERSION,
  maskedCardNode,
  nextNsu,
  receiptInformation,
  receiptPan,
  saleLinks,
} from './answers.js';
import { invalidFields, jsonBody, objectBody, type Answer, type SandboxRequest } from './http-kit.js';
import { apiError, CODE, hostError } from './errors.js';
import { Refusal } from './refusal.js';
import { scenario, strict } from './scenario.js';
import { ORDER_ID, validateSale } from './sale-validate.js';
import { merchantExists, terminalExists } from './registration.js';
import { enqueueCallback, undoCallback } from './callbacks.js';
import { CONFIRM_TAGS, missingTags } from './emv-check.js';

export interface SaleRow {
  payment_id: string;
  merchant_order_id: string;
  terminal_id: string;
  amount: number;
  status: number;
  confirmation_status: number;
  input_mode: string;
  business_day: string;
  created_at: number;
  closed_by_host: number;
  card_match: string | null;
  answer: string;
}

const RECEIPT_NAMES: Record<string, string> = {
  MERCHANT_NAME: 'MerchantName',
  MERCHANT_ADDRESS: 'MerchantAddress',
  MERCHANT_CITY: 'MerchantCity',
  MERCHANT_STATE: 'MerchantState',
  MERCHANT_CODE: 'MerchantCode',
  TERMINAL: 'Terminal',
  NSU: 'Nsu',
  DATE: 'Date',
  HOUR: 'Hour',
  CARD_NUMBER: 'CardNumber',
  TRANSACTION_TYPE: 'TransactionType',
  AUTHORIZATION_CODE: 'AuthorizationCode',
  TRANSACTION_MODE: 'TransactionMode',
  INPUT_METHOD: 'InputMethod',
  CPF_CNPJ: 'CpfCnpj',
  VALUE: 'Value',
  SOFT_DESCRIPTOR: 'SoftDescriptor',
};

function receiptObject(rows: { Field: string; Content: string }[], brand: string): Record<string, string> {
  const out: Record<string, string> = { IssuerName: `CIELO#${brand}`, Brand: brand };
  for (const r of rows) {
    const name = RECEIPT_NAMES[r.Field];
    if (name) out[name] = r.Content;
  }
  return out;
}

export const cardMatch = (pan: string): string => createHash('sha256').update(`omnipos-sandbox:${pan}`).digest('hex');

type Decision =
  { kind: 'approved' } | { kind: 'declined'; code: string; message: string } | { kind: 'timeout' } | { kind: 'error' };

function byLastDigit(read: CardRead, merchantOrderId: string): Decision {
  const digit = read.pan.at(-1) as keyof typeof cardOutcomes.byLastDigit;
  const row = cardOutcomes.byLastDigit[digit];
  if (row.result === 'approved') return { kind: 'approved' };
  if (row.result === 'random') {
    return Number(merchantOrderId.at(-1)) % 2 === 0
      ? { kind: 'approved' }
      : { kind: 'declined', code: '99', message: 'Time out' };
  }
  return { kind: 'declined', code: row.returnCode, message: row.returnMessage };
}

function isChip(inputMode: string): boolean {
  return inputMode === 'Emv' || inputMode === 'ContactlessEmv';
}

export function findSale(ctx: SandboxContext, paymentId: string): SaleRow | undefined {
  return ctx.db.prepare(`SELECT * FROM sales WHERE payment_id = ?`).get(paymentId) as SaleRow | undefined;
}

export function findSaleByOrderId(ctx: SandboxContext, merchantOrderId: string): SaleRow | undefined {
  return ctx.db.prepare(`SELECT * FROM sales WHERE merchant_order_id = ?`).get(merchantOrderId) as SaleRow | undefined;
}

/** The stored answer with the sale's current state. */
export function currentAnswer(ctx: SandboxContext, row: SaleRow): Record<string, unknown> {
  const answer = JSON.parse(row.answer) as { Payment: Record<string, unknown> };
  answer.Payment.Status = row.status;
  answer.Payment.ConfirmationStatus = row.confirmation_status;
  answer.Payment.Links = saleLinks(ctx, row.payment_id, row.status === 2 && row.confirmation_status === 0);
  return answer;
}

/** `POST /1/physicalSales`. */
export function createSale(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const body = objectBody(req);
  const v = validateSale(body, (rule) => strict(ctx, rule));
  const problems: string[] = [];
  const merchantId = v.subordinatedMerchantId.toLowerCase();
  if (!merchantExists(ctx, merchantId)) problems.push('Payment.SubordinatedMerchantId: no such merchant is registered');
  else if (!terminalExists(ctx, merchantId, v.terminalId))
    problems.push('Payment.PinPadInformation.TerminalId: no such terminal is registered for the merchant');
  if (problems.length > 0) throw invalidFields(problems);
  const cardPath = `Payment.${v.cardNode}`;
  if (typeof v.card.EmvData === 'string') {
    const bad = missingTags(`${cardPath}.EmvData`, v.card.EmvData, []);
    if (bad.length > 0) throw invalidFields(bad);
  }
  const read = readCard(cardPath, v.card);
  const pinOk =
    v.authenticationMethod === 'OnlineAuthentication'
      ? pinMatches(`${cardPath}.PinBlock`, v.card.PinBlock as Record<string, unknown>, read)
      : true;

  const existing = findSaleByOrderId(ctx, v.merchantOrderId);
  if (existing) {
    problem(ctx, {
      kind: 'duplicate-order-id',
      merchantOrderId: v.merchantOrderId,
      paymentId: existing.payment_id,
      detail: `MerchantOrderId ${v.merchantOrderId} was sent again (first sale ${existing.payment_id}); refused`,
    });
    throw apiError(400, CODE.duplicateOrderId, `MerchantOrderId ${v.merchantOrderId}`);
  }

  let decision: Decision;
  const band = centsBand(v.amount);
  if (!pinOk) decision = { kind: 'declined', code: '55', message: 'SENHA INVALIDA' };
  else if (isExpired(read.expiry ?? typedExpiry(v.card.ExpirationDate), ctx.clock.now()))
    decision = { kind: 'declined', code: '57', message: 'Expired card' };
  else if (band === 10) {
    const o = centsOutcome(ctx, 10, v.amount, `sale:${v.amount}`);
    decision =
      o === 'denied'
        ? { kind: 'declined', code: '05', message: 'NEGADA' }
        : o === 'timeout'
          ? { kind: 'timeout' }
          : o === 'error'
            ? { kind: 'error' }
            : o === 'approved'
              ? { kind: 'approved' }
              : byLastDigit(read, v.merchantOrderId);
  } else if (band === 30) decision = { kind: 'declined', code: '05', message: 'NEGADA' };
  else if (band !== undefined) decision = { kind: 'approved' };
  else decision = byLastDigit(read, v.merchantOrderId);

  if (decision.kind === 'error') return hostError();

  const now = ctx.clock.now();
  const paymentId = newUuid();
  const declined = decision.kind === 'declined' ? decision : undefined;
  const approved = declined === undefined;
  const nsu = nextNsu(ctx);
  const authorizationCode = approved ? String(100000 + (parseInt(paymentId.slice(0, 6), 16) % 900000)) : '';
  const status = approved ? (v.capture ? 2 : 1) : 3;
  const payment = body.Payment as Record<string, unknown>;
  const cardEcho = maskedCardNode(v.card);
  const pinBlock = v.card.PinBlock;
  const transaction =
    v.type === 'PhysicalDebitCard'
      ? 'VENDA A DEBITO'
      : v.type === 'PhysicalVoucherCard'
        ? 'VENDA VOUCHER'
        : 'VENDA A CREDITO';
  const brand = read.pan.startsWith('4')
    ? 'VISA'
    : /^5[1-5]|^2[2-7]/.test(read.pan)
      ? 'MASTERCARD'
      : read.pan.startsWith('3')
        ? 'AMEX'
        : 'ELO';
  const receiptRows = approved
    ? receiptInformation(ctx, {
        nsu,
        at: now,
        maskedPan: receiptPan(read.pan),
        type: v.type,
        authorizationCode,
        inputMode: v.inputMode,
        amount: v.amount,
        transaction,
        ...(typeof payment.SoftDescriptor === 'string' ? { softDescriptor: payment.SoftDescriptor } : {}),
      })
    : [];
  const answer = {
    MerchantOrderId: v.merchantOrderId,
    Customer: { Name: '[Guest]' },
    Payment: {
      ...payment,
      // the card node as the manual's answers echo it (CONECTA_PT 3905ff): ciphertexts masked here, and the
      // PIN block without its block; the echo's own members beside it
      [v.cardNode]: {
        ...cardEcho,
        TruncateCardNumberWhenPrinting: false,
        IsFallback: false,
        SaveCard: false,
        BrandInformation: { Type: transaction, Name: brand },
        ...(pinBlock && typeof pinBlock === 'object'
          ? { PinBlock: { ...(pinBlock as Record<string, unknown>), EncryptedPinBlock: '*'.repeat(16) } }
          : {}),
      },
      Installments: v.installments,
      Interest: payment.Interest ?? 'ByMerchant',
      Capture: v.capture,
      Amount: v.amount,
      ReceivedDate: now.toISOString(),
      ...(status === 2 ? { CapturedAmount: v.amount, CapturedDate: now.toISOString() } : {}),
      Provider: 'Simulado',
      Status: status,
      PhysicalTransactionStatus: status,
      IsSplitted: false,
      ReturnCode: declined ? declined.code : '000',
      ReturnMessage: declined ? declined.message : `APROVADA ${authorizationCode}`,
      PaymentId: paymentId,
      Currency: 'BRL',
      Country: 'BRA',
      ServiceTaxAmount: 0,
      PrintMessage: [],
      ReceiptInformation: receiptRows,
      // the same slip as named members (CONECTA_PT 3905ff "Receipt"), from the rows above
      ...(approved ? { Receipt: receiptObject(receiptRows, brand) } : {}),
      OfflinePaymentType: 'Online',
      ...(approved ? { AuthorizationCode: authorizationCode } : {}),
      ProofOfSale: nsu,
      InitializationVersion: INITIALIZATION_VERSION,
      ConfirmationStatus: 0,
      ...(isChip(v.inputMode) ? { EmvResponseData: approved ? '8A023030' : '8A023035' } : {}),
      MerchantAcquirerId: (builtInMerchant(merchantId) ?? SANDBOX_MERCHANT).merchant.merchantNumber,
      TerminalAcquirerId: v.terminalId,
    },
  };
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO sales (payment_id, merchant_order_id, terminal_id, amount, status, confirmation_status, input_mode, business_day, created_at, card_match, answer)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
      )
      .run(
        paymentId,
        v.merchantOrderId,
        v.terminalId,
        v.amount,
        status,
        v.inputMode,
        businessDay(now),
        now.getTime(),
        cardMatch(read.pan),
        JSON.stringify(answer),
      );
    if (approved) ledgerEntry(ctx, { kind: 'charge', paymentId, merchantOrderId: v.merchantOrderId, amount: v.amount });
    else
      ledgerEntry(ctx, {
        kind: 'decline',
        paymentId,
        merchantOrderId: v.merchantOrderId,
        amount: 0,
        note: declined?.code ?? '',
      });
  })();
  if (decision.kind === 'timeout') return { withhold: true };
  const row = findSale(ctx, paymentId) as SaleRow;
  return { status: 201, body: currentAnswer(ctx, row) };
}

function saleOr404(ctx: SandboxContext, row: SaleRow | undefined): SaleRow {
  if (!row) throw apiError(404, scenario(ctx).notFound === '318' ? CODE.noTransactionFound : CODE.notFound);
  return row;
}

/**
 * "Not found" in the scenario's shape (scenario.ts `notFound`): the manual's 404 `[{Code: 307}]`
 * by default. An undo gets only the 404 shapes (an empty list becomes a 404 with `[]`).
 */
function notFound(ctx: SandboxContext, op: 'query' | 'undo'): Refusal {
  const shape = scenario(ctx).notFound;
  if (shape === '318') return apiError(404, CODE.noTransactionFound);
  if (shape === 'manual') return apiError(404, CODE.notFound);
  if (op === 'undo') return new Refusal(404, []);
  return new Refusal(200, shape === 'empty-list' ? [] : { Payments: [] });
}

/** The query host sees a sale only once the scenario's visibility delay has passed since it was made. */
function visible(ctx: SandboxContext, row: SaleRow | undefined): SaleRow | undefined {
  if (!row) return undefined;
  const delay = scenario(ctx).visibilityDelayMs;
  return delay > 0 && ctx.clock.now().getTime() < row.created_at + delay ? undefined : row;
}

/** `GET /1/physicalSales/{PaymentId}`. */
export function getSale(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  return {
    status: 200,
    body: currentAnswer(ctx, saleOr404(ctx, visible(ctx, findSale(ctx, req.route.params.PaymentId ?? '')))),
  };
}

/** `GET /1/physicalSales/MerchantOrderId/{MerchantOrderId}`. */
export function getSaleByOrderId(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const id = req.route.params.MerchantOrderId ?? '';
  if (!ORDER_ID.test(id)) throw invalidFields(['MerchantOrderId: must be 1 to 15 digits']);
  const row = visible(ctx, findSaleByOrderId(ctx, id));
  if (!row) throw notFound(ctx, 'query');
  return { status: 200, body: currentAnswer(ctx, row) };
}

function operationBody(ctx: SandboxContext, row: SaleRow): Record<string, unknown> {
  return {
    ConfirmationStatus: row.confirmation_status,
    Status: row.status,
    ReturnCode: 0,
    ReturnMessage: 'Success',
    Links: saleLinks(ctx, row.payment_id, false),
  };
}

/** Reads the optional chip body of confirm (`IssuerScriptResults`) or undo (`IssuerScriptsResults`). */
function chipBody(ctx: SandboxContext, req: SandboxRequest, row: SaleRow, op: 'confirm' | 'undo'): void {
  const body = jsonBody(req);
  const spelled = op === 'confirm' ? 'IssuerScriptResults' : 'IssuerScriptsResults';
  const wrong = op === 'confirm' ? 'IssuerScriptsResults' : 'IssuerScriptResults';
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body)))
    throw invalidFields(['body: must be a JSON object or null']);
  const b = (body ?? {}) as Record<string, unknown>;
  if (b[wrong] !== undefined) throw invalidFields([`${wrong}: unknown member; this operation spells it ${spelled}`]);
  if (b.EmvData !== undefined && (typeof b.EmvData !== 'string' || !/^([0-9A-Fa-f]{2})+$/.test(b.EmvData)))
    throw invalidFields(['EmvData: must be hex']);
  if (op === 'confirm' && isChip(row.input_mode) && b.EmvData === undefined)
    throw invalidFields(['EmvData: is required to confirm a chip sale']);
  // A chip undo carries the chip's data (CONECTA_PT 7393-7420, "Cartao com chip").
  if (op === 'undo' && isChip(row.input_mode) && b.EmvData === undefined && strict(ctx, 'undo-emv-data')) {
    problem(ctx, {
      kind: 'chip-undo-without-emv-data',
      merchantOrderId: row.merchant_order_id,
      paymentId: row.payment_id,
      detail: 'a chip undo came without EmvData; refused',
    });
    throw invalidFields(['EmvData: is required to undo a chip sale']);
  }
  if (typeof b.EmvData === 'string') {
    const malformed = missingTags('EmvData', b.EmvData, []);
    if (malformed.length > 0) throw invalidFields(malformed);
  }
  if (op === 'confirm' && typeof b.EmvData === 'string') {
    // The manual lists the tags a confirmation carries; whether the host refuses without them is a
    // homologation question, so the sandbox flags the gap in the ledger instead of refusing.
    const missing = missingTags('EmvData', b.EmvData, CONFIRM_TAGS);
    if (missing.length > 0) {
      problem(ctx, {
        kind: 'confirm-missing-emv-tags',
        merchantOrderId: row.merchant_order_id,
        paymentId: row.payment_id,
        detail: missing.join('; '),
      });
    }
  }
}

function setConfirmation(ctx: SandboxContext, row: SaleRow, cs: 1 | 2, kind: string): SaleRow {
  ctx.db.transaction(() => {
    ctx.db.prepare(`UPDATE sales SET confirmation_status = ? WHERE payment_id = ?`).run(cs, row.payment_id);
    ledgerEntry(ctx, {
      kind,
      paymentId: row.payment_id,
      merchantOrderId: row.merchant_order_id,
      amount: cs === 2 ? -row.amount : 0,
    });
    if (cs === 2 && row.input_mode === 'QrCode') enqueueCallback(ctx, undoCallback(row));
  })();
  return findSale(ctx, row.payment_id) as SaleRow;
}

/** `PUT /1/physicalSales/{PaymentId}/confirmation`. */
export function confirmSale(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const row = saleOr404(ctx, findSale(ctx, req.route.params.PaymentId ?? ''));
  chipBody(ctx, req, row, 'confirm');
  if (row.status === 3) {
    const o = centsOutcome(ctx, 30, row.amount, `confirm:${row.payment_id}`);
    if (!o) throw apiError(400, CODE.notAvailableToCapture, 'the sale was declined');
    if (o === 'denied') throw apiError(400, CODE.notAvailableToCapture, 'confirmation denied (cents 31)');
    if (o === 'error') return hostError();
    ledgerEntry(ctx, { kind: 'confirm-declined', paymentId: row.payment_id, merchantOrderId: row.merchant_order_id });
    if (o === 'timeout') return { withhold: true };
    return { status: 200, body: { ...operationBody(ctx, row), ConfirmationStatus: 1 } };
  }
  if (row.confirmation_status === 2) throw apiError(400, CODE.notAvailableToCapture, 'the sale was undone');
  if (row.confirmation_status === 1) return { status: 200, body: operationBody(ctx, row) };
  const o = centsOutcome(ctx, 20, row.amount, `confirm:${row.payment_id}`);
  if (o === 'denied') throw apiError(400, CODE.notAvailableToCapture, 'confirmation denied (cents 21)');
  if (o === 'error') return hostError();
  const done = setConfirmation(ctx, row, 1, 'confirm');
  if (o === 'timeout') return { withhold: true };
  return {
    status: 200,
    body: {
      ...operationBody(ctx, done),
      Links: [
        ...saleLinks(ctx, done.payment_id, false),
        { Method: 'POST', Rel: 'void', Href: linkTo(ctx, 'voidCreate', { PaymentId: done.payment_id }) },
      ],
    },
  };
}

function undo(ctx: SandboxContext, req: SandboxRequest, row: SaleRow): Answer {
  chipBody(ctx, req, row, 'undo');
  if (row.status === 3) throw apiError(400, CODE.notAvailableToVoid, 'the sale was declined');
  if (row.confirmation_status === 2) return { status: 200, body: operationBody(ctx, row) };
  if (row.confirmation_status === 1) {
    if (row.closed_by_host) {
      problem(ctx, {
        kind: 'undo-after-close',
        merchantOrderId: row.merchant_order_id,
        paymentId: row.payment_id,
        detail: `undo of ${row.merchant_order_id} arrived after the daily close confirmed it; the customer stays charged`,
      });
      throw apiError(400, CODE.notAvailableToVoid, 'confirmed by the daily close');
    }
    throw apiError(400, CODE.notAvailableToVoid, 'the sale is confirmed');
  }
  const o = centsOutcome(ctx, 20, row.amount, `undo:${row.payment_id}`);
  if (o === 'denied') throw apiError(400, CODE.notAvailableToVoid, 'undo denied (cents 21)');
  if (o === 'error') return hostError();
  const done = setConfirmation(ctx, row, 2, 'undo');
  if (o === 'timeout') return { withhold: true };
  return { status: 200, body: operationBody(ctx, done) };
}

/** `DELETE /1/physicalSales/{PaymentId}`. */
export function undoSale(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  return undo(ctx, req, saleOr404(ctx, findSale(ctx, req.route.params.PaymentId ?? '')));
}

/** `DELETE /1/physicalSales/orderId/{MerchantOrderId}`. */
export function undoSaleByOrderId(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const id = req.route.params.MerchantOrderId ?? '';
  if (!ORDER_ID.test(id)) throw invalidFields(['MerchantOrderId: must be 1 to 15 digits']);
  const row = findSaleByOrderId(ctx, id);
  if (!row) {
    ledgerEntry(ctx, { kind: 'undo-not-found', merchantOrderId: id });
    throw notFound(ctx, 'undo');
  }
  return undo(ctx, req, row);
}
