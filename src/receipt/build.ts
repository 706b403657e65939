import { PAYMENT_METHODS, type PaymentMethod, OmniposError, formatBRL, type Cents } from '../core/index.js';
import { z } from 'zod';
import { maskPan, maskPansIn } from './mask.js';
import { labelValue, wrap } from './text-layout.js';
import {
  RECEIPT_COLUMNS,
  type ReceiptColumns,
  type ReceiptCopy,
  type ReceiptDocument,
  type ReceiptOp,
  type ReceiptSource,
} from './types.js';

/** Printed on every receipt and screen outside production (docs/configuration.md, "Environments"). */
export const TEST_ENVIRONMENT_BANNER = 'AMBIENTE DE TESTE — SEM VALOR';

/** Printed under the copy's name on a reprint: the customer already holds the first one. */
export const REPRINT_MARK = '*** SEGUNDA VIA (2a VIA) ***';

const Row = z.strictObject({ Field: z.string(), Label: z.string(), Content: z.string() });
const Message = z.strictObject({ Position: z.string(), Message: z.string() });
const Source = z.object({
  kind: z.enum(['sale', 'void']),
  environment: z.enum(['sandbox', 'homologation', 'production']),
  paymentType: z.enum(PAYMENT_METHODS),
  amount: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  installments: z.number().int().min(1).max(99),
  receiptInformation: z.array(z.looseObject({})).max(200),
  printMessages: z.array(z.looseObject({})).max(50).optional(),
  merchantOrderId: z.string().regex(/^\d{1,15}$/),
  digitalCopy: z.string().min(1).max(500).optional(),
  reprint: z.boolean().optional(),
});

/** The host's `ReceiptInformation` fields this layout places itself; any other row is printed as `Label: Content`. */
const PLACED = new Set([
  'MERCHANT_NAME',
  'MERCHANT_ADDRESS',
  'MERCHANT_CITY',
  'MERCHANT_STATE',
  'MERCHANT_CODE',
  'TERMINAL',
  'NSU',
  'DATE',
  'HOUR',
  'CARD_NUMBER',
  'TRANSACTION_TYPE',
  'AUTHORIZATION_CODE',
  'TRANSACTION_MODE',
  'INPUT_METHOD',
  'CPF_CNPJ',
  'VALUE',
  'SOFT_DESCRIPTOR',
]);

/** INPUT_METHOD letters as the sandbox (and the manual's answers) send them. */
const INPUT_METHOD: Readonly<Record<string, string>> = { C: 'CHIP', D: 'TARJA', R: 'APROXIMAÇÃO', X: 'DIGITADO' };

const TOP = /^(top|header|cabe[cç]alho|in[ií]cio|1)$/i;

function invalid(where: string, message: string): never {
  throw new OmniposError('RECEIPT_INVALID', `receipt ${where}: ${message}`, { where });
}

/** Checks a source that came from outside (the host's rows, the journal) and gives it back typed. */
export function validateReceiptSource(source: unknown): ReceiptSource {
  const r = Source.safeParse(source);
  if (!r.success) {
    const i = r.error.issues[0]!;
    invalid(i.path.join('.') || 'source', i.message);
  }
  const s = source as ReceiptSource;
  s.receiptInformation.forEach((row, i) => {
    if (!Row.safeParse(row).success) invalid(`receiptInformation.${i}`, 'expected {Field, Label, Content} strings');
  });
  s.printMessages?.forEach((m, i) => {
    if (!Message.safeParse(m).success) invalid(`printMessages.${i}`, 'expected {Position, Message} strings');
  });
  return s;
}

/** The receipt's title of each payment method, a sale's and a void's (a method of src/core/payment-kinds.ts added there does not compile until it has one). */
const TITLES: Readonly<Record<PaymentMethod, (s: ReceiptSource) => string>> = {
  pix: (s) => (s.kind === 'void' ? 'DEVOLUÇÃO PIX' : 'PAGAMENTO PIX'),
  'wallet-qr': (s) => (s.kind === 'void' ? 'CANCELAMENTO QR CODE' : 'PAGAMENTO POR QR CODE'),
  credit: (s) =>
    s.kind === 'void'
      ? 'CANCELAMENTO DE CRÉDITO'
      : s.installments === 1
        ? 'CRÉDITO À VISTA'
        : `CRÉDITO PARCELADO ${s.interest === 'ByIssuer' ? 'EMISSOR' : 'LOJA'}`,
  debit: (s) => (s.kind === 'void' ? 'CANCELAMENTO DE DÉBITO' : 'DÉBITO À VISTA'),
  voucher: (s) => (s.kind === 'void' ? 'CANCELAMENTO DE VOUCHER' : 'VOUCHER'),
};

/** Printed on the receipt of a sale without the card present, under its brand. */
export const CARD_NOT_PRESENT_MARK = 'VENDA DIGITADA';
/** Its mode of entry: the card was typed, not read. */
const CARD_NOT_PRESENT_MODE = 'CARTÃO NÃO PRESENTE';

function title(s: ReceiptSource): string {
  if (s.kind === 'sale' && s.cardNotPresent?.preAuthorization) return 'PRÉ-AUTORIZAÇÃO DE CRÉDITO';
  return TITLES[s.paymentType](s);
}

/** The installment plan as printed: the first installment takes the cents that do not divide. */
function installmentLines(amount: Cents, n: number, byIssuer: boolean, width: number): string[] {
  if (n <= 1) return [];
  if (byIssuer) return labelValue('PARCELAS', `${n}x (juros do emissor)`, width);
  const base = Math.floor(amount / n);
  const first = amount - base * (n - 1);
  if (first === base) return labelValue('PARCELAS', `${n} x ${formatBRL(base)}`, width);
  return [
    ...labelValue('PARCELAS', `${n}x`, width),
    ...labelValue('1ª PARCELA', formatBRL(first), width),
    ...labelValue(`DEMAIS ${n - 1}`, formatBRL(base), width),
  ];
}

/**
 * The receipt of a card sale or void as a document for `columns` characters a line: the test
 * banner outside production, the merchant header, which copy, the transaction, the amount and
 * installments, the host's messages, the cardholder verification, and a cut.
 */
export function receiptDocument(input: ReceiptSource, copy: ReceiptCopy, columns: ReceiptColumns): ReceiptDocument {
  const s = validateReceiptSource(input);
  if (!RECEIPT_COLUMNS.includes(columns)) invalid('columns', `expected 32, 42 or 48, got ${String(columns)}`);
  const field = (name: string): string | undefined =>
    s.receiptInformation.find((r) => r.Field === name)?.Content.trim() || undefined;
  const ops: ReceiptOp[] = [];
  const text = (t: string, o: Omit<Extract<ReceiptOp, { op: 'text' }>, 'op' | 'text'> = {}): void => {
    for (const l of wrap(t, columns)) ops.push({ op: 'text', text: l, ...o });
  };
  const lines = (ls: string[], o: Omit<Extract<ReceiptOp, { op: 'text' }>, 'op' | 'text'> = {}): void => {
    for (const l of ls) ops.push({ op: 'text', text: l, ...o });
  };
  const rule = (): void => void ops.push({ op: 'text', text: '-'.repeat(columns) });
  const lv = (label: string, value: string | undefined, o: { bold?: boolean } = {}): void => {
    if (value !== undefined && value !== '') lines(labelValue(label, value, columns), o);
  };
  const testEnv = s.environment !== 'production';

  if (testEnv) text(TEST_ENVIRONMENT_BANNER, { align: 'center', bold: true });
  text(field('MERCHANT_NAME') ?? field('SOFT_DESCRIPTOR') ?? '', { align: 'center', bold: true });
  const address = field('MERCHANT_ADDRESS');
  if (address) text(address, { align: 'center' });
  const city = [field('MERCHANT_CITY'), field('MERCHANT_STATE')].filter(Boolean).join(' - ');
  if (city) text(city, { align: 'center' });
  const doc = field('CPF_CNPJ');
  if (doc) text(`${doc.replace(/\D/g, '').length === 11 ? 'CPF' : 'CNPJ'}: ${doc}`, { align: 'center' });
  rule();
  for (const m of s.printMessages ?? [])
    if (TOP.test(m.Position.trim())) text(maskPansIn(m.Message), { align: 'center' });
  text(copy === 'customer' ? 'VIA CLIENTE' : 'VIA ESTABELECIMENTO', { align: 'center', bold: true });
  if (s.reprint) text(REPRINT_MARK, { align: 'center', bold: true });
  text(title(s), { align: 'center', bold: true });
  if (s.brand) text(s.brand.toUpperCase(), { align: 'center' });
  if (s.cardNotPresent) text(CARD_NOT_PRESENT_MARK, { align: 'center', bold: true });
  rule();
  const pan = field('CARD_NUMBER') ?? s.maskedPan;
  lv('CARTÃO', pan === undefined ? undefined : maskPan(pan));
  lv('COD.ESTAB.', field('MERCHANT_CODE'));
  lv('POS', field('TERMINAL'));
  lv('DOC (NSU)', field('NSU') ?? s.nsu);
  lv('AUTORIZAÇÃO', field('AUTHORIZATION_CODE') ?? s.authorizationCode);
  const date = field('DATE') ?? s.at?.date;
  const time = field('HOUR') ?? s.at?.time;
  if (date || time) lines(labelValue(date ? `DATA ${date}` : '', time ? `HORA ${time}` : '', columns));
  const input2 = field('INPUT_METHOD');
  const mode = [input2 ? (INPUT_METHOD[input2] ?? input2) : undefined, field('TRANSACTION_MODE')]
    .filter(Boolean)
    .join(' / ');
  lv('MODO', mode || (s.cardNotPresent ? CARD_NOT_PRESENT_MODE : undefined));
  lv(s.kind === 'void' ? 'CANCELAMENTO' : 'PEDIDO', s.merchantOrderId);
  if (s.kind === 'void' && s.original) {
    text('ESTORNO DA VENDA ORIGINAL', { bold: true });
    lv('PEDIDO ORIG.', s.original.merchantOrderId);
    lv('NSU ORIG.', s.original.nsu);
    lv('AUT. ORIG.', s.original.authorizationCode);
  }
  for (const r of s.receiptInformation)
    if (!PLACED.has(r.Field) && r.Content.trim()) lv(r.Label.trim() || r.Field, maskPansIn(r.Content.trim()));
  rule();
  lv(s.kind === 'void' ? 'VALOR CANCELADO' : 'VALOR', formatBRL(s.amount), { bold: true });
  lines(installmentLines(s.amount, s.installments, s.interest === 'ByIssuer', columns));
  rule();
  if (s.cvm === 'pin') text('TRANSAÇÃO AUTORIZADA MEDIANTE USO DE SENHA PESSOAL', { align: 'center' });
  if (s.cvm === 'signature' && copy === 'merchant') {
    ops.push({ op: 'feed', lines: 2 });
    text('_'.repeat(columns - 4), { align: 'center' });
    text('ASSINATURA DO CLIENTE', { align: 'center' });
  }
  for (const m of s.printMessages ?? [])
    if (!TOP.test(m.Position.trim())) text(maskPansIn(m.Message), { align: 'center' });
  if (s.digitalCopy) {
    ops.push({ op: 'qr', data: s.digitalCopy, size: columns === 32 ? 3 : 4 });
    text('COMPROVANTE DIGITAL', { align: 'center' });
  }
  if (testEnv) text(TEST_ENVIRONMENT_BANNER, { align: 'center', bold: true });
  ops.push({ op: 'cut', kind: 'partial' });
  return ops;
}
