import { mpmChild, parseMpm, qrError, type MpmObject } from '../mpm.js';
import { PIX_GUI } from '../pix.js';
import { checkCrossFields } from './checks.js';
import { LAYOUTS, PADRAOQ_GUI, type PadraoqModel } from './layouts.js';
import type { CurrentFields, EarlierFields, OldestFields, PadraoqFields, ParsedPadraoq, QrcodeData } from './types.js';
import { validateLayout } from './validate.js';

/** Which of the three models a parsed payload claims to be (before validation). */
export function recogniseModel(objects: readonly MpmObject[]): PadraoqModel {
  const mai = mpmChild(objects, '26');
  if (!mai) throw qrError('26', 'missing (merchant account information)');
  const gui = mpmChild(mai.children, '00')?.value;
  if (gui?.toLowerCase() === PIX_GUI)
    throw qrError('26.00', `expected "${PADRAOQ_GUI}", found a Pix code ("${PIX_GUI}")`, { pix: true });
  if (mpmChild(objects, '80')) return 'oldest';
  if (gui !== PADRAOQ_GUI) throw qrError('26.00', `expected "${PADRAOQ_GUI}"`, { found: gui });
  if (mpmChild(objects, '27') || mpmChild(mpmChild(objects, '82')?.children, '00')) return 'current';
  return 'earlier';
}

/** Oldest model's 12 zero-padded digits → decimal text. */
function centsToDecimal(digits: string): string {
  return `${digits.slice(0, -2).replace(/^0+(?=\d)/, '')}.${digits.slice(-2)}`;
}

function opt<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function toFields(model: PadraoqModel, objects: readonly MpmObject[]): PadraoqFields {
  const v = (path: string): string | undefined => {
    const [top, sub] = path.split('.') as [string, string | undefined];
    const o = mpmChild(objects, top);
    return sub === undefined ? o?.value : mpmChild(o?.children, sub)?.value;
  };
  const r = (path: string): string => v(path)!;
  if (model === 'oldest') {
    const f: OldestFields = {
      model,
      gui: r('26.00'),
      merchantId: r('26.01'),
      terminalId: r('26.02'),
      mcc: r('52'),
      currency: r('53'),
      amount: centsToDecimal(r('54')),
      merchantName: r('59'),
      merchantCity: r('60'),
      url: r('80.00'),
      transactionId: r('80.01'),
      timestamp: r('80.02'),
      mainProduct: r('80.03'),
      subProduct: r('80.04'),
      installments: r('80.05'),
      transactionType: r('80.06'),
    };
    return f;
  }
  const common = {
    merchantId: r('26.01'),
    terminalId: r('26.02'),
    ...opt('merchantDocument', v('26.04')),
    mcc: r('52'),
    currency: r('53'),
    amount: r('54'),
    merchantName: r('59'),
    merchantCity: r('60'),
    referenceLabel: r('62.05'),
    timestamp: r('81.01'),
  };
  const tail = {
    installments: r('81.03'),
    transactionType: r('81.04'),
    ...opt('originalNsu', v('81.06')),
    ...opt('ruf', v('81.50')),
  };
  if (model === 'earlier') {
    const f: EarlierFields = { model, ...common, mainProduct: r('81.02'), ...tail, ...opt('reserved', v('82.01')) };
    return f;
  }
  const f: CurrentFields = {
    model,
    ...common,
    secondSchemeGui: r('27.00'),
    secondSchemeAcquirerId: r('27.01'),
    deviceType: r('27.04'),
    ...opt('postalCode', v('61')),
    modality: r('81.02'),
    ...tail,
    schemeDate: r('82.01'),
    productType: r('82.02'),
    schemeTransactionType: r('82.03'),
    nsu: r('82.04'),
    ...(v('82.05') !== undefined ? { original: { nsu: r('82.05'), date: r('82.06'), terminalId: r('82.07') } } : {}),
    version: r('82.08'),
  };
  return f;
}

function toQrcodeData(model: PadraoqModel, objects: readonly MpmObject[], fields: PadraoqFields): QrcodeData {
  const v = (path: string): string | undefined => {
    const [top, sub] = path.split('.') as [string, string | undefined];
    const o = mpmChild(objects, top);
    return sub === undefined ? o?.value : mpmChild(o?.children, sub)?.value;
  };
  const r = (path: string): string => v(path)!;
  const oldest = model === 'oldest';
  return {
    payload_format_indicator: r('00'),
    point_of_initiation_method: r('01'),
    merchant_account_information: {
      gui: r('26.00'),
      id_merchant: r('26.01'),
      id_terminal: r('26.02'),
      ...opt('id_credenciador', v('26.03')),
    },
    merchant_category_code: r('52'),
    transaction_currency: r('53'),
    transaction_amount: fields.amount,
    country_code: r('58'),
    merchant_name: r('59'),
    merchant_city: r('60'),
    additional_data_field: { reference_label: oldest ? r('80.01') : r('62.05') },
    crc16: r('63'),
    payment_information: oldest
      ? {
          gui: r('80.00'),
          timestamp: r('80.02'),
          modalidade: r('80.03'),
          parcelas: r('80.05'),
          tipo_de_transacao: r('80.06'),
        }
      : {
          gui: r('81.00'),
          timestamp: r('81.01'),
          modalidade: r('81.02'),
          parcelas: r('81.03'),
          tipo_de_transacao: r('81.04'),
          fonte_de_dados_do_pagamento: r('81.05'),
          ...opt('campo_livre', v('81.50')),
        },
  };
}

/** Validates already-parsed objects as a padraoq code and maps them; see `parsePadraoq`. */
export function interpretPadraoq(objects: readonly MpmObject[]): ParsedPadraoq {
  const model = recogniseModel(objects);
  validateLayout(objects, LAYOUTS[model]);
  checkCrossFields(model, objects);
  const fields = toFields(model, objects);
  return { model, qrcode_data: toQrcodeData(model, objects, fields), fields };
}

/**
 * Parses a `br.com.padraoq` dynamic QR code of any of the three models: CRC, every object's
 * size, type and fixed value, and the cross-object rules. Returns the model recognised, the
 * wallet document's `qrcode_data` and the fields (the builder's input). Any violation is
 * QR_INVALID naming the object id; a wrong CRC says expected and found.
 */
export function parsePadraoq(text: string): ParsedPadraoq {
  return interpretPadraoq(parseMpm(text));
}
