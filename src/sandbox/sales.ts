import cardOutcomes from '../../tables/sandbox/card-outcomes.json' with { type: 'json' };
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { builtInMerchant } from '../../tables/sandbox/merchants.js';
import { requireToken } from './auth.js';
import { isExpired, readCard, pinMatches, typedExpiry, type CardRead } from './card.js';
import { centsBand, centsOutcome } from './cents.js';
import { businessDay } from './clock.js';
import { ledgerEntry, newUuid, problem, type SandboxContext } from './context.js';
import { INITIALIZATION_VERSION, maskedCardNode, nextNsu, receiptInformation, receiptPan } from './answers.js';
import { invalidFields, objectBody, type Answer, type SandboxRequest } from './http-kit.js';
import { apiError, CODE, hostError } from './errors.js';
import { scenario, strict } from './scenario.js';
import { ORDER_ID, validateSale } from './sale-validate.js';
import { facilitatorProblems } from './facilitator.js';
import { merchantExists, terminalExists } from './registration.js';
import { missingTags } from './emv-check.js';
import {
  cardMatch,
  currentAnswer,
  findSale,
  findSaleByOrderId,
  isChip,
  notFound,
  saleOr404,
  type SaleRow,
} from './sale-rows.js';

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

/** What the merchant's registration refuses: an unknown merchant or terminal, a facilitator node out of place. */
function registrationProblems(
  ctx: SandboxContext,
  v: { subordinatedMerchantId: string; terminalId: string },
  body: Record<string, unknown>,
): string[] {
  const problems: string[] = [];
  const merchantId = v.subordinatedMerchantId.toLowerCase();
  if (!merchantExists(ctx, merchantId)) problems.push('Payment.SubordinatedMerchantId: no such merchant is registered');
  else if (!terminalExists(ctx, merchantId, v.terminalId))
    problems.push('Payment.PinPadInformation.TerminalId: no such terminal is registered for the merchant');
  problems.push(...facilitatorProblems(body.Payment, scenario(ctx).subAcquirers.includes(merchantId)));
  return problems;
}

/** `POST /1/physicalSales`. */
export function createSale(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const body = objectBody(req);
  const v = validateSale(body, (rule) => strict(ctx, rule));
  const problems = registrationProblems(ctx, v, body);
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
      MerchantAcquirerId: (builtInMerchant(v.subordinatedMerchantId.toLowerCase()) ?? SANDBOX_MERCHANT).merchant
        .merchantNumber,
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
