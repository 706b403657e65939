import { requireToken } from './auth.js';
import { centsOutcome } from './cents.js';
import { ledgerEntry, linkTo, problem, type SandboxContext } from './context.js';
import { saleLinks } from './answers.js';
import { invalidFields, jsonBody, type Answer, type SandboxRequest } from './http-kit.js';
import { apiError, CODE, hostError } from './errors.js';
import { strict } from './scenario.js';
import { ORDER_ID } from './sale-validate.js';
import { enqueueCallback, undoCallback } from './callbacks.js';
import { CONFIRM_TAGS, missingTags } from './emv-check.js';
import { findSale, findSaleByOrderId, isChip, notFound, saleOr404, type SaleRow } from './sale-rows.js';

/*
 * The confirmation and the undo of a sale as the acquirer's manual shows them (`PUT …/confirmation`,
 * `DELETE /1/physicalSales/{PaymentId}`, `DELETE /1/physicalSales/orderId/{MerchantOrderId}`).
 */

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
    // The manual lists the tags a confirmation must carry (CONECTA_PT 7554, "devem ser enviadas"): one
    // missing is refused, as the stricter reading; the ledger names it too.
    const missing = missingTags('EmvData', b.EmvData, CONFIRM_TAGS);
    if (missing.length > 0 && strict(ctx, 'confirm-emv-tags')) {
      problem(ctx, {
        kind: 'confirm-missing-emv-tags',
        merchantOrderId: row.merchant_order_id,
        paymentId: row.payment_id,
        detail: `${missing.join('; ')}; refused`,
      });
      throw invalidFields(missing);
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
