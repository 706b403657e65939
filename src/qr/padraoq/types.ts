import type { PadraoqModel } from './layouts.js';

/**
 * The fields of a current-model code, named for what they mean. As builder input the derived
 * ones (marked) may be left out; the parser returns every one, so `parse(build(f)).fields`
 * equals `f` once complete.
 */
export interface CurrentFields {
  readonly model: 'current';
  /** 26.01, 16 digits. */
  readonly merchantId: string;
  /** 26.02, 8 digits. */
  readonly terminalId: string;
  /** 26.04, the merchant's CPF/CNPJ digits. */
  readonly merchantDocument?: string;
  /** 27.00 and 82.00; derived: `BR.COM.ELO` unless configured. */
  readonly secondSchemeGui?: string;
  /** 27.01; derived: `8384`. */
  readonly secondSchemeAcquirerId?: string;
  /** 27.04: A, C, E, M, P or T. */
  readonly deviceType: string;
  /** 52. */
  readonly mcc: string;
  /** 53; derived: `986`. */
  readonly currency?: string;
  /** 54, decimal text with two decimals (a number is formatted so). */
  readonly amount: string;
  /** 59, transliterated to ANS and cut to 25. */
  readonly merchantName: string;
  /** 60, transliterated to ANS and cut to 15. */
  readonly merchantCity: string;
  /** 61, eight digits (a hyphen is removed). */
  readonly postalCode?: string;
  /** 62.05. */
  readonly referenceLabel: string;
  /** 81.01, DDMMYYHHmmss. */
  readonly timestamp: string;
  /** 81.02, four hex digits (see `MODALITY_PRODUCT`). */
  readonly modality: string;
  /** 81.03; derived: `00`. */
  readonly installments?: string;
  /** 81.04: `01` sale, `02` cancellation; derived: `01`. */
  readonly transactionType?: string;
  /** 81.06. */
  readonly originalNsu?: string;
  /** 81.50. */
  readonly ruf?: string;
  /** 82.01 MMDDHHmmss; derived from `timestamp`. */
  readonly schemeDate?: string;
  /** 82.02; derived from `modality` and `installments`. */
  readonly productType?: string;
  /** 82.03; derived from `transactionType` (01 → 01, 02 → 02). */
  readonly schemeTransactionType?: string;
  /** 82.04, the terminal's 6-digit NSU. */
  readonly nsu: string;
  /** 82.05–82.07, only for a cancellation: the original's NSU, date (MMDD) and terminal id. */
  readonly original?: { readonly nsu: string; readonly date: string; readonly terminalId: string };
  /** 82.08; derived: `3`. */
  readonly version?: string;
}

/** The earlier model: no second-scheme data; 81.02 is the main product. */
export interface EarlierFields {
  readonly model: 'earlier';
  readonly merchantId: string;
  readonly terminalId: string;
  readonly merchantDocument?: string;
  readonly mcc: string;
  readonly currency?: string;
  readonly amount: string;
  readonly merchantName: string;
  readonly merchantCity: string;
  readonly referenceLabel: string;
  readonly timestamp: string;
  /** 81.02, four digits. */
  readonly mainProduct: string;
  readonly installments?: string;
  readonly transactionType?: string;
  readonly originalNsu?: string;
  readonly ruf?: string;
  /** 82.01, reserved. */
  readonly reserved?: string;
}

/** The oldest model: acquirer GUI in 26.00, amount as 12 digits, transaction data in 80. */
export interface OldestFields {
  readonly model: 'oldest';
  /** 26.00, text naming the acquirer. */
  readonly gui: string;
  readonly merchantId: string;
  readonly terminalId: string;
  readonly mcc: string;
  readonly currency?: string;
  /** Decimal text; 54 carries it as 12 zero-padded digits. */
  readonly amount: string;
  readonly merchantName: string;
  readonly merchantCity: string;
  /** 80.00, the acquirer's URL. */
  readonly url: string;
  /** 80.01, 16 characters. */
  readonly transactionId: string;
  /** 80.02, DDMMYYHHmmss. */
  readonly timestamp: string;
  readonly mainProduct: string;
  readonly subProduct: string;
  readonly installments?: string;
  /** 80.06: `01` payment request, `02` cancellation request. */
  readonly transactionType?: string;
}

export type PadraoqFields = CurrentFields | EarlierFields | OldestFields;

/** Builder input: the fields, `model` defaulting to current, amount and installments also as numbers. */
export type PadraoqInput =
  | (Omit<CurrentFields, 'model' | 'amount' | 'installments'> & { readonly model?: 'current' } & Loose)
  | (Omit<EarlierFields, 'amount' | 'installments'> & Loose)
  | (Omit<OldestFields, 'amount' | 'installments'> & Loose);

/** Builder conveniences: numbers for the amount and the installments. */
interface Loose {
  readonly amount: string | number;
  readonly installments?: string | number;
}

/** `qrcode_data` as the wallet document's parse operation returns it. */
export interface QrcodeData {
  payload_format_indicator: string;
  point_of_initiation_method: string;
  merchant_account_information: { gui: string; id_merchant: string; id_terminal: string; id_credenciador?: string };
  merchant_category_code: string;
  transaction_currency: string;
  transaction_amount: string;
  country_code: string;
  merchant_name: string;
  merchant_city: string;
  additional_data_field: { reference_label: string };
  crc16: string;
  payment_information: {
    gui: string;
    timestamp: string;
    modalidade: string;
    parcelas: string;
    tipo_de_transacao: string;
    fonte_de_dados_do_pagamento?: string;
    campo_livre?: string;
  };
}

/** What `parsePadraoq` returns. */
export interface ParsedPadraoq {
  readonly model: PadraoqModel;
  readonly qrcode_data: QrcodeData;
  readonly fields: PadraoqFields;
}

/** Builder options. */
export interface PadraoqBuildOptions {
  /** The second scheme's GUI written in 27.00 and 82.00 (default `BR.COM.ELO`). */
  readonly secondSchemeGui?: string;
}
