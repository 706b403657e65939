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
import { engineOf, paymentOr404, type PaymentsDeps } from './payments.js';

/** What the receipt routes need from the daemon besides the engines and the journal. */
export interface ReceiptService {
  environment: Environment;
  /** The printer's receipt width: the default of the views. */
  columns: ReceiptColumns;
  /** Prints a reprint of the receipt (the printer's word after the cut, as for the first one). */
  reprint(subject: ReceiptSubject, copy: ReceiptCopy): Promise<'printed' | 'skipped' | 'failed' | 'unsure'>;
  /** The document as the virtual printer renders its ESC/POS bytes, as a PNG. */
  png(doc: ReceiptDocument, columns: ReceiptColumns): Uint8Array | Promise<Uint8Array>;
  now(): Date;
}

export interface ReceiptsDeps extends PaymentsDeps {
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
 * "SEGUNDA VIA", and says what the printer made of it. Body (optional): `{"copy": "merchant"}`.
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
  const result = await s.reprint(subject, copy);
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
