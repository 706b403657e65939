import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Environment } from '../config/index.js';
import { localTime, OmniposError } from '../core/index.js';
import type { ReceiptSubject } from '../engine/index.js';
import {
  digitalCopyText,
  paymentReceipt,
  receiptHtml,
  receiptSourceOf,
  receiptText,
  RECEIPT_COLUMNS,
  RECEIPT_STATES,
  type ReceiptColumns,
  type ReceiptCopy,
  type ReceiptDocument,
} from '../receipt/index.js';
import { renderQrSvg } from '../qr/index.js';
import { SECURITY_HEADERS } from './screens.js';
import { ApiError, readJson, sendJson } from './http-kit.js';
import { paymentView, receiptQuestion } from './payment-view.js';
import { engineOf, payment, PAYMENT_ID, paymentOr404, type PaymentsDeps } from './payments.js';
import { BODY_ERRORS, WRITE_ERRORS } from './openapi-errors.js';
import { cnpReceiptSubject, type CnpReceiptDeps } from './card-not-present-receipt.js';
import { error, json, ref, UNAUTHORIZED } from './openapi-kit.js';
import { operationsOf } from './routes.js';

/** What the receipt routes need from the daemon besides the engines and the journal. */
export interface ReceiptService {
  environment: Environment;
  /** The printer's receipt width: the default of the views. */
  columns: ReceiptColumns;
  /**
   * Prints the receipt again (the printer's word after the cut, as for the first one), marked "SEGUNDA
   * VIA" unless it is the first paper of a sale the terminal printed nothing for when it was made
   * (a card-not-present sale: src/main/printing.ts); `createdAt`, the payment's.
   */
  reprint(
    subject: ReceiptSubject,
    copy: ReceiptCopy,
    createdAt?: string,
  ): Promise<'printed' | 'skipped' | 'failed' | 'unsure'>;
  /** The document as the virtual printer renders its ESC/POS bytes, as a PNG. */
  png(doc: ReceiptDocument, columns: ReceiptColumns): Uint8Array | Promise<Uint8Array>;
  now(): Date;
}

export interface ReceiptsDeps extends PaymentsDeps, CnpReceiptDeps {
  receipts?: ReceiptService | undefined;
}

function service(deps: ReceiptsDeps): ReceiptService {
  if (!deps.receipts) throw new ApiError(409, 'NOT_AVAILABLE', 'receipts are not available on this daemon');
  return deps.receipts;
}

/** The payment's receipt rebuilt from the journal through its engine, or why there is none. */
function receiptOf(deps: ReceiptsDeps, rawId: string): { id: number; createdAt: string; subject: ReceiptSubject } {
  if (!/^\d{1,12}$/.test(rawId)) throw new ApiError(404, 'NOT_FOUND', `no payment ${rawId}`);
  const id = Number(rawId);
  const entry = paymentOr404(deps.journal, id);
  if (entry.kind === 'cnp') return { id, createdAt: entry.createdAt, subject: cnpReceiptSubject(deps, entry) };
  const engine = engineOf(deps, entry.kind);
  if (!RECEIPT_STATES.includes(entry.state)) {
    throw new OmniposError(
      'RECEIPT_NOT_AVAILABLE',
      `payment ${id} is ${entry.state}: only an approved payment whose receipt step began has a receipt`,
      { id, state: entry.state },
    );
  }
  return { id, createdAt: entry.createdAt, subject: engine.receiptOf(id).subject };
}

function oneOf<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[], fallback: T): T {
  const v = query.get(name);
  if (v === null) return fallback;
  if (!allowed.includes(v as T))
    throw new ApiError(400, 'INVALID_FIELD', `${name}: one of ${allowed.join(', ')}`, name);
  return v as T;
}

/**
 * `GET /v1/payments/{id}/receipt?format=text|html|png|qr&copy=customer|merchant&columns=32|42|48`:
 * the receipt as the paper says it — text from the receipt layout, an HTML view for a screen, the
 * PNG the virtual printer draws from the ESC/POS bytes, or (`qr`) an SVG QR code holding the
 * customer's copy as text (`digitalCopyText`: 32 columns, or the compact form) for a phone to read
 * offline — a kiosk that cannot print shows it; `copy` and `columns` do not apply to it.
 */
export async function showReceipt(
  res: ServerResponse,
  deps: ReceiptsDeps,
  rawId: string,
  query: URLSearchParams,
): Promise<void> {
  const { subject } = receiptOf(deps, rawId);
  const s = service(deps);
  const format = oneOf(query, 'format', ['text', 'html', 'png', 'qr'] as const, 'text');
  if (format === 'qr') {
    const { text, form } = digitalCopyText(receiptSourceOf(subject, s.environment));
    const svg = renderQrSvg(text, { ecc: 'L', scale: 4 });
    res.writeHead(200, {
      'cache-control': 'no-store',
      'content-type': 'image/svg+xml',
      'x-content-type-options': 'nosniff',
      'x-omnipos-digital-copy': form,
    });
    res.end(svg);
    return;
  }
  const copy = oneOf(query, 'copy', ['customer', 'merchant'] as const, 'customer');
  const columns = Number(oneOf(query, 'columns', RECEIPT_COLUMNS.map(String), String(s.columns))) as ReceiptColumns;
  const doc = paymentReceipt(subject, { environment: s.environment, copy, columns });
  const head = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (format === 'png') {
    const png = await s.png(doc, columns);
    res.writeHead(200, { ...head, 'content-type': 'image/png', 'content-length': String(png.length) });
    res.end(png);
  } else if (format === 'html') {
    // The screens' policy: a receipt names what a customer or a host sent (merchant name, product), so no script runs in it.
    res.writeHead(200, { ...head, ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Comprovante ${subject.merchantOrderId}</title></head><body>${receiptHtml(doc, columns)}</body></html>\n`,
    );
  } else {
    res.writeHead(200, { ...head, 'content-type': 'text/plain; charset=utf-8' });
    res.end(receiptText(doc, columns));
  }
}

/**
 * `POST /v1/payments/{id}/receipt/print`: prints a second copy of a receipt of today, marked
 * "SEGUNDA VIA" (a card-not-present sale's first paper is plain: src/main/printing.ts), and says what
 * the printer made of it. Body (optional): `{"copy": "merchant"}`.
 */
export async function reprintReceipt(
  req: IncomingMessage,
  res: ServerResponse,
  deps: ReceiptsDeps,
  rawId: string,
): Promise<void> {
  const { id, createdAt, subject } = receiptOf(deps, rawId);
  const s = service(deps);
  const h = req.headers;
  const hasBody =
    h['content-type'] !== undefined || Number(h['content-length'] ?? 0) > 0 || h['transfer-encoding'] !== undefined;
  const body = hasBody ? await readJson(req) : {};
  const unknown = Object.keys(body).find((k) => k !== 'copy');
  if (unknown) throw new ApiError(400, 'INVALID_FIELD', `${unknown}: unknown field`, unknown);
  if (body.copy !== undefined && body.copy !== 'customer' && body.copy !== 'merchant')
    throw new ApiError(400, 'INVALID_FIELD', 'copy: one of customer, merchant', 'copy');
  const copy: ReceiptCopy = body.copy ?? 'customer';
  const day = (d: Date): string => {
    const t = localTime(d);
    return `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
  };
  const of = day(new Date(createdAt));
  if (of !== day(s.now()))
    throw new OmniposError('RECEIPT_NOT_AVAILABLE', `payment ${id} is of ${of}: only receipts of today are reprinted`, {
      id,
      day: of,
    });
  const result = await s.reprint(subject, copy, createdAt);
  sendJson(res, 200, { id, merchantOrderId: subject.merchantOrderId, copy, result });
}

/**
 * `POST /v1/payments/{id}/receipt/answer` with `{"printed": true|false}`: the cashier's answer to
 * the receipt question ("o comprovante saiu?"), open while the payment is `printing` after the
 * printer could not vouch for the receipt (or after a restart mid-print). Yes moves on as a
 * printed receipt; no undoes (or refunds) the payment.
 */
export async function answerReceipt(
  req: IncomingMessage,
  res: ServerResponse,
  deps: ReceiptsDeps,
  rawId: string,
): Promise<void> {
  if (!/^\d{1,12}$/.test(rawId)) throw new ApiError(404, 'NOT_FOUND', `no payment ${rawId}`);
  const id = Number(rawId);
  const entry = paymentOr404(deps.journal, id);
  const body = await readJson(req);
  const unknown = Object.keys(body).find((k) => k !== 'printed');
  if (unknown) throw new ApiError(400, 'INVALID_FIELD', `${unknown}: unknown field`, unknown);
  if (typeof body.printed !== 'boolean')
    throw new ApiError(400, 'INVALID_FIELD', 'printed: is required (true or false)', 'printed');
  const engine = engineOf(deps, entry.kind);
  if (!receiptQuestion(entry)) {
    throw new ApiError(409, 'NOT_ALLOWED', `payment ${id} is ${entry.state}: no receipt question is open`);
  }
  await engine.receiptAnswer(id, body.printed);
  sendJson(res, 200, paymentView(deps.journal.get(id) ?? entry));
}

const op = operationsOf<ReceiptsDeps>();

/** A payment's receipt: view it, answer the receipt question, reprint it (a screen, for its own payments). */
export const RECEIPT_OPERATIONS = [
  op({
    method: 'GET',
    path: '/v1/payments/{id}/receipt',
    operationId: 'getReceipt',
    tag: 'receipts',
    screens: 'own',
    errors: ['INVALID_FIELD', 'NOT_FOUND', 'RECEIPT_NOT_AVAILABLE'],
    summary:
      "A payment's receipt, rebuilt from the journal: text, an HTML view, the PNG the virtual printer draws, or a QR code of its digital copy",
    description:
      'For a payment approved by the host whose receipt step began (printing, awaiting a decision, confirmed), of any day; a sale without the card present once authorized (a pre-authorization) or captured, marked VENDA DIGITADA (its masked number and brand, never its expiry nor its security code). `format=qr`: an SVG QR code holding the customer copy as text (32 columns, card number at most first 6 / last 4) for a phone to read offline — or, past what a QR code of version 20 at ECC L holds (858 bytes), a compact form (merchant, date, amount, product, masked card, authorization code, NSU, order, status); header `x-omnipos-digital-copy` says `full` or `compact`; `copy` and `columns` do not apply. A kiosk shows it when it does not print.',
    parameters: [
      PAYMENT_ID,
      {
        name: 'format',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['text', 'html', 'png', 'qr'], default: 'text' },
      },
      {
        name: 'copy',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['customer', 'merchant'], default: 'customer' },
      },
      {
        name: 'columns',
        in: 'query',
        required: false,
        description: "Characters a line (default: the printer's width).",
        schema: { type: 'string', enum: ['32', '42', '48'] },
      },
    ],
    responses: {
      '200': {
        description: 'The receipt.',
        content: {
          'text/plain': { schema: { type: 'string' } },
          'text/html': { schema: { type: 'string' } },
          'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
          'image/svg+xml': { schema: { type: 'string' } },
        },
      },
      '400': error('A query value at fault (`field`).'),
      '401': UNAUTHORIZED,
      '404': error('No such payment.'),
      '409': error('RECEIPT_NOT_AVAILABLE: the payment has no receipt (never approved, or undone before its receipt).'),
    },
    handle: ({ res, params, query }, deps) => showReceipt(res, deps, params.id, query),
  }),
  op({
    method: 'POST',
    path: '/v1/payments/{id}/receipt/answer',
    operationId: 'answerReceiptQuestion',
    tag: 'receipts',
    screens: 'own',
    errors: [...BODY_ERRORS, 'NOT_FOUND', 'NOT_ALLOWED', ...WRITE_ERRORS],
    summary: 'Answer the receipt question ("o comprovante saiu?")',
    description:
      'Open while the payment is `printing` after a `receipt-question` event: the printer could not vouch for the receipt (paper out mid-receipt, a lost link), or the daemon restarted mid-print. `true` moves on as a printed receipt; `false` undoes (or refunds) the payment. Unanswered, it is undone at the decision deadline.',
    parameters: [PAYMENT_ID],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { printed: { type: 'boolean' } },
            required: ['printed'],
            additionalProperties: false,
          },
        },
      },
    },
    responses: {
      '200': payment('The payment after the answer.'),
      '400': error('A body field at fault (`field`).'),
      '401': UNAUTHORIZED,
      '404': error('No such payment.'),
      '409': error('No receipt question is open for this payment.'),
    },
    handle: ({ req, res, params }, deps) => answerReceipt(req, res, deps, params.id),
  }),
  op({
    method: 'POST',
    path: '/v1/payments/{id}/receipt/print',
    operationId: 'reprintReceipt',
    tag: 'receipts',
    screens: 'own',
    errors: [...BODY_ERRORS, 'NOT_FOUND', 'RECEIPT_NOT_AVAILABLE'],
    summary: 'Reprint a receipt of today, marked "SEGUNDA VIA (2a VIA)"',
    description:
      'A sale without the card present prints nothing when it is made: the first print of each of its copies (of the pre-authorization, then of the capture), asked of the daemon that made the sale, is the plain one; every later print, and any of a sale made before the daemon started, is marked.',
    parameters: [PAYMENT_ID],
    requestBody: {
      required: false,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { copy: { type: 'string', enum: ['customer', 'merchant'], default: 'customer' } },
            additionalProperties: false,
          },
        },
      },
    },
    responses: {
      '200': json(ref('ReceiptPrint'), 'What the printer made of it.'),
      '400': error('A body field at fault (`field`).'),
      '401': UNAUTHORIZED,
      '404': error('No such payment.'),
      '409': error('RECEIPT_NOT_AVAILABLE: the payment has no receipt, or it is not of today.'),
    },
    handle: ({ req, res, params }, deps) => reprintReceipt(req, res, deps, params.id),
  }),
];
