import type { PaymentMethod } from '../core/index.js';
import { formatBRL } from '../core/index.js';
import { receiptDocument, TEST_ENVIRONMENT_BANNER } from './build.js';
import { maskPan, maskPansIn } from './mask.js';
import { receiptLines } from './render.js';
import type { ReceiptSource } from './types.js';

/**
 * The most UTF-8 bytes a digital copy may take: what a QR code of version 20 (97 modules a side)
 * holds in byte mode at error correction L (ISO/IEC 18004 Table 7: 858). Larger codes are hard
 * for a phone to read off a kiosk screen; a longer receipt goes in the compact form.
 */
export const DIGITAL_COPY_MAX_BYTES = 858;

/** What a digital copy says besides the receipt: the payment's state in words (default APROVADA). */
export interface DigitalCopyOptions {
  status?: string;
  /** Overrides DIGITAL_COPY_MAX_BYTES (tests). */
  maxBytes?: number;
}

/**
 * The customer's copy as text a phone reads offline from a QR code (the kiosk's daemon is on
 * loopback: a link to it would be useless): the 32-column customer receipt line by line, trailing
 * spaces dropped, the card number at most first 6 / last 4 (every PAN-shaped run masked again as
 * a backstop). When it is longer than `DIGITAL_COPY_MAX_BYTES`, the compact form: merchant, date,
 * amount, brand or product, masked card, authorization code, NSU and status, one per line.
 */
export function digitalCopyText(
  source: ReceiptSource,
  options: DigitalCopyOptions = {},
): { text: string; form: 'full' | 'compact' } {
  const lines = receiptLines(receiptDocument(source, 'customer', 32), 32).map((l) => l.trimEnd());
  const full = maskPansIn(
    lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    ourNumbers(source),
  );
  if (Buffer.byteLength(full, 'utf8') <= (options.maxBytes ?? DIGITAL_COPY_MAX_BYTES))
    return { text: full, form: 'full' };
  return { text: compactCopy(source, options.status), form: 'compact' };
}

/** The product line of the compact copy when the host named no brand, per payment method. */
const COMPACT_PRODUCT: Readonly<Record<PaymentMethod, string>> = {
  credit: 'CREDITO',
  debit: 'DEBITO',
  voucher: 'VOUCHER',
  'wallet-qr': 'CARTEIRA DIGITAL',
  pix: 'PIX',
};

function compactCopy(s: ReceiptSource, status = 'APROVADA'): string {
  const field = (name: string): string | undefined =>
    s.receiptInformation.find((r) => r.Field === name)?.Content.trim() || undefined;
  const pan = field('CARD_NUMBER') ?? s.maskedPan;
  const date = [field('DATE') ?? s.at?.date, field('HOUR') ?? s.at?.time].filter(Boolean).join(' ');
  const product = s.brand ?? COMPACT_PRODUCT[s.paymentType];
  const rows: [string, string | undefined][] = [
    ['', field('MERCHANT_NAME') ?? field('SOFT_DESCRIPTOR')],
    ['DATA ', date || undefined],
    ['VALOR ', formatBRL(s.amount)],
    ['', product],
    ['CARTAO ', pan === undefined ? undefined : maskPan(pan)],
    ['AUT ', field('AUTHORIZATION_CODE') ?? s.authorizationCode],
    ['NSU ', field('NSU') ?? s.nsu],
    ['PEDIDO ', s.merchantOrderId],
    ['', s.kind === 'void' ? `CANCELAMENTO ${status}` : status],
  ];
  const out = rows.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}${v}`);
  if (s.environment !== 'production') out.unshift(TEST_ENVIRONMENT_BANNER);
  return maskPansIn(out.join('\n'), ourNumbers(s));
}

/** The order ids the terminal made (this payment's and, for a void, its sale's): never card numbers. */
function ourNumbers(s: ReceiptSource): string[] {
  return [s.merchantOrderId, ...(s.original ? [s.original.merchantOrderId] : [])];
}
