import { toAns } from '../ans.js';
import { encodeMpm, qrError, type MpmInput } from '../mpm.js';
import { DEFAULT_SECOND_SCHEME_ACQUIRER, DEFAULT_SECOND_SCHEME_GUI, MODALITY_PRODUCT, PADRAOQ_GUI } from './layouts.js';
import { parsePadraoq } from './parse.js';
import type {
  CurrentFields,
  EarlierFields,
  OldestFields,
  PadraoqBuildOptions,
  PadraoqFields,
  PadraoqInput,
} from './types.js';

/** Amount as decimal text with two decimals; QR_INVALID `54` otherwise. */
export function normalizeAmount(amount: string | number): string {
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount) || amount < 0)
      throw qrError('54', 'expected a non-negative amount', { found: amount });
    return amount.toFixed(2);
  }
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m) throw qrError('54', 'expected a decimal amount such as 123.99', { found: amount });
  return `${m[1]!.replace(/^0+(?=\d)/, '')}.${(m[2] ?? '').padEnd(2, '0')}`;
}

function two(v: string | number | undefined, fallback: string): string {
  if (v === undefined) return fallback;
  return typeof v === 'number' ? String(v).padStart(2, '0') : v;
}

function txType(v: string | undefined): string {
  if (v === undefined || v === 'sale') return '01';
  if (v === 'cancellation') return '02';
  return v;
}

/** The builder input completed: defaults applied, derived fields computed, text made ANS. */
export function completeFields(input: PadraoqInput, options: PadraoqBuildOptions = {}): PadraoqFields {
  const base = {
    ...input,
    currency: input.currency ?? '986',
    amount: normalizeAmount(input.amount),
    merchantName: toAns(input.merchantName, 25),
    merchantCity: toAns(input.merchantCity, 15),
    installments: two(input.installments, '00'),
    transactionType: txType(input.transactionType),
  };
  if (input.model === 'oldest' || input.model === 'earlier') return base as OldestFields | EarlierFields;
  const c = base as Omit<CurrentFields, 'model'>;
  const ts = c.timestamp ?? '';
  const productType =
    c.productType ?? `${MODALITY_PRODUCT[(c.modality ?? '').toUpperCase()] ?? 'O'}${base.installments}`;
  return {
    ...c,
    model: 'current',
    secondSchemeGui: c.secondSchemeGui ?? options.secondSchemeGui ?? DEFAULT_SECOND_SCHEME_GUI,
    secondSchemeAcquirerId: c.secondSchemeAcquirerId ?? DEFAULT_SECOND_SCHEME_ACQUIRER,
    ...(c.postalCode !== undefined ? { postalCode: c.postalCode.replace(/-/g, '') } : {}),
    schemeDate: c.schemeDate ?? ts.slice(2, 4) + ts.slice(0, 2) + ts.slice(6, 12),
    productType,
    schemeTransactionType: c.schemeTransactionType ?? base.transactionType,
    version: c.version ?? '3',
  };
}

function o(id: string, value: unknown): MpmInput[] {
  if (value === undefined) return [];
  if (typeof value !== 'string') throw qrError(id, 'expected text', { found: value });
  return [{ id, value }];
}
const t = (id: string, children: MpmInput[]): MpmInput => ({ id, children });

function objectsOf(f: PadraoqFields): MpmInput[] {
  if (f.model === 'oldest') {
    const [int, dec] = f.amount.split('.') as [string, string];
    if (int.length > 10) throw qrError('54', 'expected at most 12 digits', { found: f.amount });
    return [
      ...o('00', '01'),
      ...o('01', '12'),
      t('26', [...o('00', f.gui), ...o('01', f.merchantId), ...o('02', f.terminalId)]),
      ...o('52', f.mcc),
      ...o('53', f.currency),
      ...o('54', int.padStart(10, '0') + dec),
      ...o('58', 'BR'),
      ...o('59', f.merchantName),
      ...o('60', f.merchantCity),
      t('80', [
        ...o('00', f.url),
        ...o('01', f.transactionId),
        ...o('02', f.timestamp),
        ...o('03', f.mainProduct),
        ...o('04', f.subProduct),
        ...o('05', f.installments),
        ...o('06', f.transactionType),
      ]),
    ];
  }
  const current = f.model === 'current' ? f : undefined;
  const out: MpmInput[] = [
    ...o('00', '01'),
    ...o('01', '12'),
    t('26', [
      ...o('00', PADRAOQ_GUI),
      ...o('01', f.merchantId),
      ...o('02', f.terminalId),
      ...o('03', '0001'),
      ...o('04', f.merchantDocument),
    ]),
  ];
  if (current) {
    out.push(
      t('27', [
        ...o('00', current.secondSchemeGui),
        ...o('01', current.secondSchemeAcquirerId),
        ...o('02', current.merchantId.slice(-15)),
        ...o('03', current.terminalId),
        ...o('04', current.deviceType),
      ]),
    );
  }
  out.push(
    ...o('52', f.mcc),
    ...o('53', f.currency),
    ...o('54', f.amount),
    ...o('58', 'BR'),
    ...o('59', f.merchantName),
    ...o('60', f.merchantCity),
  );
  if (current) out.push(...o('61', current.postalCode));
  out.push(t('62', o('05', f.referenceLabel)));
  out.push(
    t('81', [
      ...o('00', PADRAOQ_GUI),
      ...o('01', f.timestamp),
      ...o('02', current ? current.modality : (f as EarlierFields).mainProduct),
      ...o('03', f.installments),
      ...o('04', f.transactionType),
      ...o('05', '03'),
      ...o('06', f.originalNsu),
      ...o('50', f.ruf),
    ]),
  );
  if (current) {
    out.push(
      t('82', [
        ...o('00', current.secondSchemeGui),
        ...o('01', current.schemeDate),
        ...o('02', current.productType),
        ...o('03', current.schemeTransactionType),
        ...o('04', current.nsu),
        ...o('05', current.original?.nsu),
        ...o('06', current.original?.date),
        ...o('07', current.original?.terminalId),
        ...o('08', current.version),
      ]),
    );
  } else if ((f as EarlierFields).reserved !== undefined) {
    out.push(t('82', o('01', (f as EarlierFields).reserved)));
  }
  return out;
}

/** Inputs read before the layout check, by the object they fill. */
const TEXT_FIELDS = {
  merchantId: '26.01',
  terminalId: '26.02',
  mcc: '52',
  merchantName: '59',
  merchantCity: '60',
} as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Builds a `br.com.padraoq` dynamic QR code (current model unless `model` says otherwise) with
 * its CRC. Names and cities are transliterated to ANS; the result is checked by the parser,
 * so a violation is the same QR_INVALID naming the object id.
 */
export function buildPadraoq(input: PadraoqInput, options: PadraoqBuildOptions = {}): string {
  // The input is checked as it came (a caller from JavaScript or JSON may give anything).
  const given: unknown = input;
  if (!isRecord(given)) throw qrError('fields', 'expected an object');
  if (given.model !== undefined && !['current', 'earlier', 'oldest'].some((m) => m === given.model)) {
    throw qrError('fields', 'model must be current, earlier or oldest', { found: given.model });
  }
  for (const [k, id] of Object.entries(TEXT_FIELDS)) {
    if (typeof given[k] !== 'string') throw qrError(id, `missing or not text (${k})`);
  }
  if (typeof given.amount !== 'string' && typeof given.amount !== 'number') throw qrError('54', 'missing (amount)');
  const text = encodeMpm(objectsOf(completeFields(input, options)));
  parsePadraoq(text);
  return text;
}
