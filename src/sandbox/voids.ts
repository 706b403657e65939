import { apiError, CODE, hostError } from './errors.js';
import { requireToken } from './auth.js';
import { pinMatches, readCard } from './card.js';
import { scenario } from './scenario.js';
import { centsOutcome } from './cents.js';
import { ledgerEntry, linkTo, newUuid, problem, type SandboxContext } from './context.js';
import { INITIALIZATION_VERSION } from './answers.js';
import { Fields, invalidFields, objectBody, type Answer, type SandboxRequest } from './http-kit.js';
import { VOID_INPUT_MODES, AUTH_METHODS, ORDER_ID } from './sale-validate.js';
import { cardMatch, findSale, saleOr404, voidedAmount, type SaleRow } from './sale-rows.js';

interface VoidRow {
  void_id: string;
  payment_id: string;
  merchant_void_id: string;
  amount: number;
  cancellation_status: number;
  created_at: number;
  answer: string;
}

function links(
  ctx: SandboxContext,
  paymentId: string,
  voidId: string,
  pending: boolean,
): { Method: string; Rel: string; Href: string }[] {
  const out = [{ Method: 'GET', Rel: 'self', Href: linkTo(ctx, 'voidGet', { PaymentId: paymentId, VoidId: voidId }) }];
  if (pending) {
    out.push(
      { Method: 'PUT', Rel: 'confirm', Href: linkTo(ctx, 'voidConfirm', { PaymentId: paymentId, VoidId: voidId }) },
      { Method: 'DELETE', Rel: 'reverse', Href: linkTo(ctx, 'voidUndo', { PaymentId: paymentId, VoidId: voidId }) },
    );
  }
  return out;
}

function voidAnswer(ctx: SandboxContext, v: VoidRow): Record<string, unknown> {
  const stored = JSON.parse(v.answer) as Record<string, unknown>;
  return {
    ...stored,
    VoidId: v.void_id,
    CancellationStatus: v.cancellation_status,
    Status: v.cancellation_status === 1 || v.cancellation_status === 3 ? 10 : 2,
    Links: links(ctx, v.payment_id, v.void_id, v.cancellation_status === 1),
  };
}

/**
 * The void create answer in the scenario's dialect: `pt` with `CancellationStatus` (CONECTA_PT
 * 8038-8045); `en` as the English page prints it, `{VoidId, Status: 10, ReturnCode: 0,
 * ReturnMessage: "Success", Links}` with no `CancellationStatus` (CONECTA_EN 1458-1466); a denied
 * void in `en` is `Status` 3 with the denial's ReturnCode.
 */
function createAnswer(ctx: SandboxContext, v: VoidRow): Record<string, unknown> {
  const full = voidAnswer(ctx, v);
  if (scenario(ctx).dialect === 'pt') {
    // The members the pt example prints beside CancellationStatus (CONECTA_PT 8040-8100); Reason* from the
    // e-commerce page's reason table (0 Successful, 7 Denied). The example's Receipt block is not modelled.
    const approved = v.cancellation_status === 1 || v.cancellation_status === 3;
    return {
      ...full,
      ConfirmationStatus: 1,
      PhysicalTransactionStatus: full.Status,
      ReasonCode: approved ? 0 : 7,
      ReasonMessage: approved ? 'Successful' : 'Denied',
    };
  }
  const approved = v.cancellation_status === 1;
  return {
    VoidId: v.void_id,
    Status: approved ? 10 : 3,
    ReturnCode: approved ? 0 : full.ReturnCode,
    ReturnMessage: approved ? 'Success' : full.ReturnMessage,
    Links: full.Links,
  };
}

/**
 * The void confirmation answer: `pt` exactly as the Portuguese example prints it — with
 * `CancellationStatus: 4` and the misspelt `ConfirmatinoStatus: 1`, `Status: 2` (CONECTA_PT
 * 8593-8600), whatever the void's real state, so the client must query the void to know it;
 * `en` with the status table's values, `CancellationStatus` 3 and `Status` 10.
 */
function confirmAnswer(ctx: SandboxContext, v: VoidRow): Record<string, unknown> {
  const links = [
    { Method: 'GET', Rel: 'self', Href: linkTo(ctx, 'saleGet', { PaymentId: v.payment_id }) },
    { Method: 'POST', Rel: 'void', Href: linkTo(ctx, 'voidCreate', { PaymentId: v.payment_id }) },
  ];
  if (scenario(ctx).dialect === 'pt')
    return {
      CancellationStatus: 4,
      ConfirmatinoStatus: 1,
      Status: 2,
      ReturnCode: 0,
      ReturnMessage: 'Success',
      Links: links,
    };
  return {
    CancellationStatus: v.cancellation_status,
    Status: 10,
    ReturnCode: 0,
    ReturnMessage: 'Success',
    Links: links,
  };
}

function saleFor(ctx: SandboxContext, req: SandboxRequest): SaleRow {
  const row = findSale(ctx, req.route.params.PaymentId ?? '');
  if (!row) throw apiError(404, CODE.notFound);
  return row;
}

function findVoid(ctx: SandboxContext, sale: SaleRow, req: SandboxRequest): VoidRow {
  const p = req.route.params;
  const v = (
    p.VoidId !== undefined
      ? ctx.db.prepare(`SELECT * FROM voids WHERE void_id = ? AND payment_id = ?`).get(p.VoidId, sale.payment_id)
      : ctx.db
          .prepare(`SELECT * FROM voids WHERE merchant_void_id = ? AND payment_id = ?`)
          .get(p.MerchantVoidId ?? '', sale.payment_id)
  ) as VoidRow | undefined;
  if (!v) throw apiError(404, CODE.notFound);
  return v;
}

/** `POST /1/physicalSales/{PaymentId}/voids`: card-present, two-phase, partial amounts allowed. */
export function createVoid(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const sale = saleFor(ctx, req);
  const body = objectBody(req);
  const f = new Fields(body);
  const merchantVoidId = f.string('MerchantVoidId', { re: ORDER_ID, hint: 'must be 1 to 15 digits' });
  f.string('MerchantVoidDate', { re: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, hint: 'must be an ISO 8601 date-time' });
  // The full void's own example (CONECTA_PT 8009-8023) sends no VoidAmount: what is left is voided.
  const asked = f.int('VoidAmount', { min: 1, optional: true });
  const card = f.object('Card');
  let inputMode: string | undefined;
  let auth: string | undefined;
  if (card) {
    inputMode = f.string('Card.InputMode', { oneOf: VOID_INPUT_MODES });
    auth = f.string('Card.AuthenticationMethod', { oneOf: AUTH_METHODS, optional: inputMode === 'Typed' });
    if (inputMode === 'Typed')
      f.string('Card.ExpirationDate', { re: /^(0[1-9]|1[0-2])\/\d{4}$/, hint: 'must be MM/yyyy' });
    if (inputMode === 'Emv' || inputMode === 'ContactlessEmv')
      f.string('Card.EmvData', { re: /^([0-9A-Fa-f]{2})+$/, hint: 'must be hex' });
    f.object('Card.EncryptedCardData');
    if (auth === 'OnlineAuthentication') f.object('Card.PinBlock');
  }
  f.check();
  const read = readCard('Card', card as Record<string, unknown>);
  const pinOk =
    auth === 'OnlineAuthentication'
      ? pinMatches('Card.PinBlock', (card as Record<string, unknown>).PinBlock as Record<string, unknown>, read)
      : true;

  if (sale.status !== 2) throw apiError(400, CODE.notAvailableToVoid, 'the sale was not approved');
  if (sale.confirmation_status === 2) throw apiError(400, CODE.notAvailableToVoid, 'the sale was undone');
  if (sale.confirmation_status === 0)
    throw apiError(400, CODE.notAvailableToVoid, 'the sale is not confirmed: undo it instead');
  if (sale.card_match !== cardMatch(read.pan))
    throw apiError(400, CODE.notAvailableToVoid, "the card differs from the sale's");
  const dup = ctx.db
    .prepare(`SELECT void_id FROM voids WHERE payment_id = ? AND merchant_void_id = ?`)
    .get(sale.payment_id, merchantVoidId) as { void_id: string } | undefined;
  if (dup) {
    problem(ctx, {
      kind: 'duplicate-merchant-void-id',
      merchantOrderId: sale.merchant_order_id,
      paymentId: sale.payment_id,
      detail: `MerchantVoidId ${String(merchantVoidId)} was sent again for the sale; refused`,
    });
    throw apiError(400, CODE.duplicateOrderId, `MerchantVoidId ${String(merchantVoidId)}`);
  }
  const voided = voidedAmount(ctx, sale.payment_id);
  const amount = asked ?? sale.amount - voided;
  if (amount < 1) throw apiError(400, CODE.notAvailableToVoid, 'nothing left to void');
  if (amount > sale.amount - voided)
    throw apiError(400, CODE.notAvailableToVoid, `VoidAmount: at most ${sale.amount - voided}`);

  const o = centsOutcome(ctx, 40, sale.amount, `void:${sale.payment_id}`);
  if (o === 'error') return hostError();
  const denied = !pinOk || o === 'denied';
  const voidId = newUuid();
  const now = ctx.clock.now();
  const stored = {
    VoidId: voidId,
    InitializationVersion: INITIALIZATION_VERSION,
    ReturnCode: denied ? (pinOk ? '05' : '55') : '000',
    ReturnMessage: denied ? (pinOk ? 'NEGADA' : 'SENHA INVALIDA') : 'CANCELAMENTO APROVADO',
    PrintMessage: [],
    VoidAmount: amount,
  };
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO voids (void_id, payment_id, merchant_void_id, amount, cancellation_status, created_at, answer) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(voidId, sale.payment_id, merchantVoidId, amount, denied ? 2 : 1, now.getTime(), JSON.stringify(stored));
    if (!denied)
      ledgerEntry(ctx, {
        kind: 'void',
        paymentId: sale.payment_id,
        merchantOrderId: sale.merchant_order_id,
        voidId,
        amount: -amount,
      });
  })();
  if (o === 'timeout') return { withhold: true };
  const row = ctx.db.prepare(`SELECT * FROM voids WHERE void_id = ?`).get(voidId) as VoidRow;
  return { status: 201, body: createAnswer(ctx, row) };
}

/** `PUT …/voids/{VoidId}/confirmation`. */
export function confirmVoid(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const sale = saleFor(ctx, req);
  const v = findVoid(ctx, sale, req);
  if (v.cancellation_status === 3) return { status: 200, body: confirmAnswer(ctx, v) };
  if (v.cancellation_status === 4) throw apiError(400, CODE.notAvailableToCapture, 'the void was undone');
  if (v.cancellation_status !== 1) throw apiError(400, CODE.notAvailableToCapture, 'the void was denied');
  const o = centsOutcome(ctx, 50, sale.amount, `void-confirm:${v.void_id}`);
  if (o === 'denied') throw apiError(400, CODE.notAvailableToCapture, 'void confirmation denied (cents 41)');
  if (o === 'error') return hostError();
  ctx.db.transaction(() => {
    ctx.db.prepare(`UPDATE voids SET cancellation_status = 3 WHERE void_id = ?`).run(v.void_id);
    ledgerEntry(ctx, {
      kind: 'void-confirm',
      paymentId: sale.payment_id,
      merchantOrderId: sale.merchant_order_id,
      voidId: v.void_id,
    });
  })();
  if (o === 'timeout') return { withhold: true };
  const row = ctx.db.prepare(`SELECT * FROM voids WHERE void_id = ?`).get(v.void_id) as VoidRow;
  return { status: 200, body: confirmAnswer(ctx, row) };
}

/** `DELETE …/voids/{VoidId}` and `DELETE …/voids/merchantVoidId/{MerchantVoidId}`. */
export function undoVoid(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const sale = saleFor(ctx, req);
  if (req.route.params.MerchantVoidId !== undefined && !ORDER_ID.test(req.route.params.MerchantVoidId)) {
    throw invalidFields(['MerchantVoidId: must be 1 to 15 digits']);
  }
  const v = findVoid(ctx, sale, req);
  if (v.cancellation_status === 3) throw apiError(400, CODE.notAvailableToVoid, 'the void is confirmed');
  if (v.cancellation_status === 1) {
    ctx.db.transaction(() => {
      ctx.db.prepare(`UPDATE voids SET cancellation_status = 4 WHERE void_id = ?`).run(v.void_id);
      ledgerEntry(ctx, {
        kind: 'void-undo',
        paymentId: sale.payment_id,
        merchantOrderId: sale.merchant_order_id,
        voidId: v.void_id,
        amount: v.amount,
      });
    })();
  }
  const row = ctx.db.prepare(`SELECT * FROM voids WHERE void_id = ?`).get(v.void_id) as VoidRow;
  return { status: 200, body: { ...voidAnswer(ctx, row), ReturnCode: 0, ReturnMessage: 'Success' } };
}

/**
 * `GET …/voids/{VoidId}`: like a sale, a void reaches the query host only the scenario's
 * `visibilityDelayMs` after it was made; before, the query's not found.
 */
export function getVoid(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const sale = saleFor(ctx, req);
  const v = findVoid(ctx, sale, req);
  const delay = scenario(ctx).visibilityDelayMs;
  if (delay > 0 && ctx.clock.now().getTime() < v.created_at + delay) saleOr404(ctx, undefined);
  const a = voidAnswer(ctx, v);
  return { status: 200, body: { VoidId: a.VoidId, CancellationStatus: a.CancellationStatus, Status: a.Status } };
}
