import type { PaymentMethod } from '../core/index.js';
import type { Environment } from '../config/index.js';
import { receiptDocument } from './build.js';
import type { ReceiptColumns, ReceiptCopy, ReceiptDocument, ReceiptSource } from './types.js';

/**
 * What a payment's receipt is made of, as the journal keeps it (the engine's `ReceiptSubject` has
 * this shape): the sale's own data plus the host's `ReceiptInformation` and `PrintMessage` rows.
 * The receipt printed at the sale and every reprint or screen view are built from it alone, so
 * they say the same thing.
 */
export interface ReceiptFacts {
  /** A void's receipt (default a sale's): `merchantOrderId` is then the void's MerchantVoidId. */
  kind?: 'sale' | 'void';
  /** A void's: the sale it gives money back for. */
  original?: { merchantOrderId: string; nsu?: string; authorizationCode?: string };
  merchantOrderId: string;
  paymentType: PaymentMethod;
  /** Cents. */
  amount: number;
  installments: number;
  interest?: 'ByMerchant' | 'ByIssuer';
  authorizationCode?: string;
  nsu?: string;
  /** As the pinpad gave it; printed as first 6 and last 4 at most. */
  maskedPan?: string;
  /** The scheme's name, printed under the title (a card-not-present sale's, as its host names it). */
  brand?: string;
  cvm?: 'pin' | 'signature' | 'none';
  /** A sale without the card present (typed on the pinpad, or a saved card); `preAuthorization`: held, not captured. */
  cardNotPresent?: { preAuthorization: boolean };
  hostReceipt?: {
    fields: { field: string; label: string; content: string }[];
    messages: { position: string; message: string }[];
  };
}

/** The receipt source of a payment's facts; `reprint` marks the paper "SEGUNDA VIA". */
export function receiptSourceOf(
  f: ReceiptFacts,
  environment: Environment,
  options: { reprint?: boolean } = {},
): ReceiptSource {
  return {
    kind: f.kind ?? 'sale',
    ...(f.original ? { original: f.original } : {}),
    environment,
    paymentType: f.paymentType,
    amount: f.amount,
    installments: f.installments,
    ...(f.interest ? { interest: f.interest } : {}),
    receiptInformation: (f.hostReceipt?.fields ?? []).map((r) => ({
      Field: r.field,
      Label: r.label,
      Content: r.content,
    })),
    printMessages: (f.hostReceipt?.messages ?? []).map((m) => ({ Position: m.position, Message: m.message })),
    merchantOrderId: f.merchantOrderId,
    ...(f.authorizationCode ? { authorizationCode: f.authorizationCode } : {}),
    ...(f.nsu ? { nsu: f.nsu } : {}),
    ...(f.maskedPan ? { maskedPan: f.maskedPan } : {}),
    ...(f.brand ? { brand: f.brand } : {}),
    ...(f.cvm ? { cvm: f.cvm } : {}),
    ...(f.cardNotPresent ? { cardNotPresent: { preAuthorization: f.cardNotPresent.preAuthorization } } : {}),
    ...(options.reprint ? { reprint: true } : {}),
  };
}

/** A payment's receipt as a document: which copy, how wide, first print or reprint. */
export function paymentReceipt(
  f: ReceiptFacts,
  o: { environment: Environment; copy?: ReceiptCopy; columns: ReceiptColumns; reprint?: boolean },
): ReceiptDocument {
  return receiptDocument(
    receiptSourceOf(f, o.environment, { reprint: o.reprint ?? false }),
    o.copy ?? 'customer',
    o.columns,
  );
}
