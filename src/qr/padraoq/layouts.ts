/**
 * The three `br.com.padraoq` layouts of the wallet QR document (seed 000, "QR code string
 * layouts"), as data walked by one validator. Sizes are in characters; `fixed` lists the only
 * values allowed. Where the document is silent on presence, `required: false` (noted per row).
 */
export type FieldType = 'N' | 'ANS' | 'H';

export interface FieldRule {
  readonly id: string;
  readonly name: string;
  readonly type: FieldType;
  readonly min: number;
  readonly max: number;
  readonly required: boolean;
  readonly fixed?: readonly string[];
  readonly children?: readonly FieldRule[];
}

export type PadraoqModel = 'current' | 'earlier' | 'oldest';

export const PADRAOQ_GUI = 'br.com.padraoq';
/** The second scheme's GUI: the document's anonymised name and the real one (docs/acquirer.md, "Wallet QR codes"). */
export const SECOND_SCHEME_GUIS = ['BR.COM.ELO', 'BR.COM.SCHEMEB'] as const;
export const DEFAULT_SECOND_SCHEME_GUI = 'BR.COM.ELO';
/** 27.01 for this service operator. */
export const DEFAULT_SECOND_SCHEME_ACQUIRER = '8384';
export const DEVICE_TYPES = ['A', 'C', 'E', 'M', 'P', 'T'] as const;

const f = (
  id: string,
  name: string,
  type: FieldType,
  min: number,
  max: number,
  extra: { required?: boolean; fixed?: readonly string[]; children?: readonly FieldRule[] } = {},
): FieldRule => ({ id, name, type, min, max, required: extra.required ?? true, ...extra });

const HEAD: readonly FieldRule[] = [
  f('00', 'payload format indicator', 'N', 2, 2, { fixed: ['01'] }),
  f('01', 'point of initiation method', 'N', 2, 2, { fixed: ['12'] }),
];

const MERCHANT_ACCOUNT = f('26', 'merchant account information', 'ANS', 1, 76, {
  children: [
    f('00', 'globally unique identifier', 'ANS', 14, 14, { fixed: [PADRAOQ_GUI] }),
    f('01', 'merchant number', 'N', 16, 16),
    f('02', 'logical number', 'N', 8, 8),
    f('03', 'accreditor id', 'N', 4, 4, { fixed: ['0001'] }),
    // The document gives no presence rule for the merchant's CPF/CNPJ: optional.
    f('04', 'CPF/CNPJ', 'N', 1, 14, { required: false }),
  ],
});

const MIDDLE: readonly FieldRule[] = [
  f('52', 'merchant category code', 'N', 4, 4),
  f('53', 'transaction currency', 'N', 3, 3),
  f('54', 'transaction amount', 'ANS', 1, 13),
  f('58', 'country code', 'ANS', 2, 2, { fixed: ['BR'] }),
  f('59', 'merchant name', 'ANS', 1, 25),
  f('60', 'merchant city', 'ANS', 1, 15),
];

const ADDITIONAL = f('62', 'additional data field', 'ANS', 1, 29, {
  children: [f('05', 'reference label', 'ANS', 1, 25)],
});

const CRC = f('63', 'CRC16', 'ANS', 4, 4);

const transactionInformation = (product: FieldRule): FieldRule =>
  f('81', 'transaction information', 'ANS', 1, 99, {
    children: [
      f('00', 'globally unique identifier', 'ANS', 14, 14, { fixed: [PADRAOQ_GUI] }),
      f('01', 'transaction date', 'N', 12, 12),
      product,
      f('03', 'payment installments', 'N', 2, 2),
      f('04', 'transaction type', 'N', 2, 2, { fixed: ['01', '02'] }),
      f('05', 'payment data source', 'N', 2, 2, { fixed: ['03'] }),
      f('06', 'original transaction NSU', 'N', 1, 12, { required: false }),
      f('50', 'RUF', 'ANS', 1, 19, { required: false }),
    ],
  });

/** Current model: with the second scheme's objects 27 and 82. */
export const CURRENT_LAYOUT: readonly FieldRule[] = [
  ...HEAD,
  MERCHANT_ACCOUNT,
  f('27', 'second-scheme merchant information', 'ANS', 1, 99, {
    children: [
      // Size 10 per the document (BR.COM.ELO); the anonymised BR.COM.SCHEMEB has 14.
      f('00', 'globally unique identifier', 'ANS', 10, 14, { fixed: SECOND_SCHEME_GUIS }),
      f('01', 'acquirer id', 'ANS', 4, 7),
      f('02', 'merchant identification number', 'N', 15, 15),
      f('03', 'terminal id', 'ANS', 8, 8),
      f('04', 'terminal device type', 'ANS', 1, 1, { fixed: DEVICE_TYPES }),
    ],
  }),
  ...MIDDLE,
  // Presence of the postal code is not stated: optional.
  f('61', 'postal code', 'N', 8, 8, { required: false }),
  ADDITIONAL,
  transactionInformation(f('02', 'modality', 'H', 4, 4)),
  f('82', 'second-scheme transaction detail', 'ANS', 56, 88, {
    children: [
      f('00', 'globally unique identifier', 'ANS', 10, 14, { fixed: SECOND_SCHEME_GUIS }),
      f('01', 'transaction date', 'N', 10, 10),
      f('02', 'product type and installments', 'ANS', 3, 3),
      f('03', 'transaction type', 'N', 2, 2, { fixed: ['01', '02', '03', '04'] }),
      f('04', 'transaction id', 'N', 6, 6),
      f('05', 'original transaction id', 'N', 6, 6, { required: false }),
      f('06', 'original transaction date', 'N', 4, 4, { required: false }),
      f('07', 'original transaction terminal id', 'ANS', 8, 8, { required: false }),
      f('08', 'QR code version', 'N', 1, 3, { fixed: ['3'] }),
    ],
  }),
  CRC,
];

/** Earlier model: no 27, 61 or second-scheme 82; 81.02 is the main product; 82 a reserved container. */
export const EARLIER_LAYOUT: readonly FieldRule[] = [
  ...HEAD,
  MERCHANT_ACCOUNT,
  ...MIDDLE,
  ADDITIONAL,
  transactionInformation(f('02', 'main product', 'N', 4, 4)),
  f('82', 'reserved', 'ANS', 1, 99, {
    required: false,
    children: [f('01', 'reserved', 'ANS', 1, 95, { required: false })],
  }),
  CRC,
];

/** Oldest model: the acquirer's own GUI in 26, the amount as 12 digits, transaction data in 80. */
export const OLDEST_LAYOUT: readonly FieldRule[] = [
  ...HEAD,
  f('26', 'merchant account information', 'ANS', 1, 56, {
    children: [
      f('00', 'globally unique identifier', 'ANS', 1, 32),
      f('01', 'merchant number', 'N', 16, 16),
      f('02', 'logical number', 'N', 8, 8),
    ],
  }),
  f('52', 'merchant category code', 'N', 4, 4),
  f('53', 'transaction currency', 'N', 3, 3),
  f('54', 'transaction amount', 'N', 12, 12),
  f('58', 'country code', 'ANS', 2, 2, { fixed: ['BR'] }),
  f('59', 'merchant name', 'ANS', 1, 25),
  f('60', 'merchant city', 'ANS', 1, 15),
  // "up to 120" in the document; the two-digit length caps it at 99.
  f('80', 'transaction information', 'ANS', 1, 99, {
    children: [
      f('00', 'globally unique identifier', 'ANS', 1, 80),
      f('01', 'transaction id', 'ANS', 16, 16),
      f('02', 'transaction date', 'N', 12, 12),
      f('03', 'main product', 'N', 4, 4),
      f('04', 'sub product', 'N', 4, 4),
      f('05', 'payment installments', 'N', 2, 2),
      f('06', 'transaction type', 'N', 2, 2, { fixed: ['01', '02'] }),
    ],
  }),
  CRC,
];

export const LAYOUTS: Readonly<Record<PadraoqModel, readonly FieldRule[]>> = {
  current: CURRENT_LAYOUT,
  earlier: EARLIER_LAYOUT,
  oldest: OLDEST_LAYOUT,
};

/** Modality (81.02) → first character of 82.02 (the document's flow mapping). */
export const MODALITY_PRODUCT: Readonly<Record<string, 'C' | 'D' | 'V' | 'O'>> = {
  '0001': 'D',
  '0002': 'C',
  '0004': 'C',
  '0008': 'C',
  '0010': 'V',
  '0020': 'V',
  '0200': 'C',
  '0400': 'C',
};
