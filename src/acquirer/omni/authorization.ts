import type { HostAuthorization } from '../../engine/index.js';

type Obj = Record<string, unknown>;

const object = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

/** A text or a number the manual prints unquoted (`"AuthorizationCode": 123456`, pt 7853). */
function text(v: unknown): string | undefined {
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** The one sale of a query's answer: the object itself, a list of one, or `Payments` of one. */
function oneSale(body: unknown): Obj | undefined {
  let b: unknown = body;
  if (Array.isArray(b)) b = b.length === 1 ? b[0] : undefined;
  const list = object(b)?.Payments;
  if (Array.isArray(list)) b = list.length === 1 ? list[0] : undefined;
  const o = object(b);
  return object(o?.Payment) ?? o;
}

/** The row of `ReceiptInformation` named `field` (pt 7849: `{"Field": "AUTHORIZATION_CODE", …, "Content": 123456}`). */
function receiptRow(p: Obj, field: string): string | undefined {
  const rows = p.ReceiptInformation;
  if (!Array.isArray(rows)) return undefined;
  for (const r of rows) if (object(r)?.Field === field) return text((r as Obj).Content);
  return undefined;
}

/**
 * The authorization a query's answer shows, from the members the terminal API's query answer carries
 * (the manual's `GET /1/physicalSales/MerchantOrderId/{id}` example, conecta pt 7714-7893):
 * `Payment.AuthorizationCode` (as in the sale's answer) or the slip's `Receipt.AuthorizationCode` /
 * `ReceiptInformation` row `AUTHORIZATION_CODE`; the NSU from `ProofOfSale` or `Receipt.Nsu`; the brand
 * from `CreditCard.BrandId` (or the debit card's node). What the answer lacks stays absent.
 */
export function hostAuthorization(body: unknown): HostAuthorization | undefined {
  const p = oneSale(body);
  if (!p) return undefined;
  const receipt = object(p.Receipt);
  const authorizationCode =
    text(p.AuthorizationCode) ?? text(receipt?.AuthorizationCode) ?? receiptRow(p, 'AUTHORIZATION_CODE');
  const nsu = text(p.ProofOfSale) ?? text(receipt?.Nsu) ?? receiptRow(p, 'NSU');
  const card = object(p.CreditCard) ?? object(p.DebitCard);
  const brandId = typeof card?.BrandId === 'number' && Number.isInteger(card.BrandId) ? card.BrandId : undefined;
  const found: HostAuthorization = {
    ...(authorizationCode ? { authorizationCode } : {}),
    ...(nsu ? { nsu } : {}),
    ...(brandId !== undefined ? { brandId } : {}),
  };
  return Object.keys(found).length > 0 ? found : undefined;
}
