import { API_ERRORS, WALLET_ERRORS } from '../../tables/sandbox/published-errors.js';
import { Refusal } from './refusal.js';

/**
 * Errors as the host sends them, with the published numbers only (tables/sandbox/published-errors.json):
 * the omni and e-commerce hosts answer `[{"Code": n, "Message": "…"}]` (the e-commerce page's
 * "Erros de integração" example and its "Códigos de Erros da API" table); the wallet host answers
 * `{"code": "422.002", "description": "…"}` (QR code manual v4, "Códigos de erro Payment").
 * The message is the table's; when the sandbox knows which field failed it adds it in parentheses
 * (the numbers decide, the words never do), and the ledger names it too.
 */

const API = new Map(API_ERRORS.map((r) => [r.code, r.message]));

/** The numbers the sandbox's handlers answer, by what they mean (each is a row of the published table). */
export const CODE = {
  internal: 0,
  merchantIdRequired: 101,
  paymentTypeRequired: 102,
  customerIdentityRequired: 104,
  customerNameRequired: 105,
  amountInvalid: 108,
  merchantIdFormat: 114,
  merchantIdNotFound: 115,
  cardHolderRequired: 117,
  cardNumberRequired: 118,
  paymentRequired: 119,
  merchantOrderIdRequired: 122,
  installmentsInvalid: 123,
  cardRequired: 124,
  expirationRequired: 125,
  expirationInvalid: 126,
  merchantKeyRequired: 131,
  merchantKeyInvalid: 132,
  cardNumberLength: 128,
  cardNotFoundByToken: 130,
  securityCodeLength: 146,
  authorizeNowRequired: 166,
  recurrenceNotFound: 168,
  recurrenceInstallments: 179,
  brandRequired: 182,
  brandNotSupported: 185,
  cardNumberInvalid: 213,
  cardHolderLetters: 214,
  emptyRequest: 184,
  duplicateOrderId: 302,
  orderNotFound: 303,
  notFound: 307,
  notAvailableToCapture: 308,
  notAvailableToVoid: 309,
  notSupported: 310,
  noTransactionFound: 318,
} as const;

export function isPublishedApiCode(code: number): boolean {
  return API.has(code);
}

export function apiEntry(code: number, detail?: string): { Code: number; Message: string } {
  const message = API.get(code);
  if (message === undefined) throw new Error(`${code} is not a published API error`);
  return { Code: code, Message: detail ? `${message} (${detail})` : message };
}

/** One published API error, or several (one entry per problem). */
export function apiError(status: number, code: number, detail?: string): Refusal {
  return new Refusal(status, [apiEntry(code, detail)]);
}

/** Several problems: one entry per published number, the details of each number's problems joined. */
export function apiErrors(status: number, items: readonly { code: number; detail?: string }[]): Refusal {
  const byCode = new Map<number, string[]>();
  for (const i of items) {
    const list = byCode.get(i.code) ?? [];
    if (i.detail) list.push(i.detail);
    byCode.set(i.code, list);
  }
  return new Refusal(
    status,
    [...byCode].map(([code, details]) => apiEntry(code, details.length > 0 ? details.join('; ') : undefined)),
  );
}

export function isPublishedWalletCode(code: string): boolean {
  return WALLET_ERRORS.some((r) => r.code === code);
}

/** A wallet error; the HTTP status is the table's for that code (the first row when it lists two). */
export function walletError(code: string, detail?: string, status?: number): Refusal {
  const row =
    WALLET_ERRORS.find((r) => r.code === code && (status === undefined || r.status === status)) ??
    WALLET_ERRORS.find((r) => r.code === code);
  if (!row) throw new Error(`${code} is not a published wallet error`);
  return new Refusal(status ?? row.status, {
    code: row.code,
    description: detail ? `${row.description} (${detail})` : row.description,
  });
}

/**
 * The published number for a field problem (`Payment.CreditCard.ExpirationDate: is required` →
 * 125). Fields the table has no number for get 0 ("Internal error", the table's row for a datum
 * the host cannot take): which number the host really gives them is a homologation question.
 */
export function fieldCode(problem: string): number {
  const [path = '', what = ''] = problem.split(/:\s*/, 2);
  const leaf = path.split('.').at(-1) ?? '';
  const missing = /required/.test(what);
  if (path === 'body') return CODE.emptyRequest;
  if (path === 'MerchantOrderId') return CODE.merchantOrderIdRequired;
  if (path === 'Payment') return CODE.paymentRequired;
  if (path === 'Payment.Type') return CODE.paymentTypeRequired;
  if (leaf === 'Amount' || leaf === 'VoidAmount') return CODE.amountInvalid;
  if (leaf === 'Installments') return CODE.installmentsInvalid;
  if (leaf === 'ExpirationDate') return missing ? CODE.expirationRequired : CODE.expirationInvalid;
  if (leaf === 'CardNumber') return missing ? CODE.cardNumberRequired : CODE.cardNumberInvalid;
  if (leaf === 'Holder') return missing ? CODE.cardHolderRequired : CODE.cardHolderLetters;
  if (leaf === 'Brand' && /one of/.test(what)) return CODE.brandNotSupported;
  if (leaf === 'SecurityCode') return CODE.securityCodeLength;
  if (leaf === 'BrandId' || leaf === 'Brand') return CODE.brandRequired;
  if (/^Payment\.(CreditCard|DebitCard|VoucherCard)$/.test(path)) return CODE.cardRequired;
  if (path === 'Customer.Name') return CODE.customerNameRequired;
  if (path === 'Customer.Identity') return CODE.customerIdentityRequired;
  return CODE.internal;
}

/** The host's own failure (the manual's "Erro" outcomes): HTTP 500 with the table's row 0. */
export function hostError(): { status: number; body: unknown } {
  return { status: 500, body: [apiEntry(CODE.internal)] };
}
