import { mpmChild, parseMpm, qrError, type MpmObject } from './mpm.js';
import {
  PIX_GUI,
  pixCompositionOf,
  pixRecurrenceOf,
  type PixComposition,
  type PixRecurrence,
} from './pix-recurrence.js';

export { PIX_GUI } from './pix-recurrence.js';

/** A Pix BR Code as parsed: the generic objects plus the Pix fields. */
export interface PixCode {
  readonly objects: readonly MpmObject[];
  /**
   * The payment: `dynamic` when 26.25 (the payload location URL) is present, `static` when a key (26.01) is;
   * `recurrence` when the code carries only a Pix Automático recurrence (no payment).
   */
  readonly type: 'static' | 'dynamic' | 'recurrence';
  /** The payment and the recurrence together: `static+recurrence`, `dynamic+recurrence`, or `type` alone. */
  readonly composition: PixComposition;
  /** The Pix Automático recurrence template (80 to 99 with GUI `br.gov.bcb.pix`), when present. */
  readonly recurrence?: PixRecurrence;
  readonly pointOfInitiationMethod?: string;
  /** 26.01, the Pix key (e-mail, phone, CPF/CNPJ or random key). */
  readonly key?: string;
  /** 26.02, free text for the payer. */
  readonly info?: string;
  /** 26.25, the location of the dynamic payload. */
  readonly url?: string;
  readonly merchantCategoryCode: string;
  readonly transactionCurrency: string;
  readonly transactionAmount?: string;
  readonly countryCode: string;
  readonly merchantName: string;
  readonly merchantCity: string;
  readonly postalCode?: string;
  /** 62.05, the transaction id (`***` when none). */
  readonly txid?: string;
  readonly crc16: string;
}

function required(objects: readonly MpmObject[], id: string, what: string): string {
  const o = mpmChild(objects, id);
  if (!o) throw qrError(id, `missing (${what})`);
  return o.value;
}

/** True when the payload's merchant account 26 names Pix (no CRC check; use `parsePix`). */
export function looksLikePix(objects: readonly MpmObject[]): boolean {
  return mpmChild(objects, '26')?.children?.some((c) => c.id === '00' && c.value.toLowerCase() === PIX_GUI) ?? false;
}

/**
 * Parses a Pix BR Code: EMV MPM with CRC, merchant account 26 with GUI `br.gov.bcb.pix` and a key (26.01) or a
 * location (26.25) but not both, or neither beside a Pix Automático recurrence template (80–99 with the Pix GUI and
 * its location in 25), and the mandatory 52, 53, 58, 59, 60. QR_INVALID otherwise.
 */
export function parsePix(text: string): PixCode {
  return interpretPix(parseMpm(text));
}

/** The Pix checks and fields over objects `parseMpm` already gave (CRC checked there). */
export function interpretPix(objects: readonly MpmObject[]): PixCode {
  const mai = mpmChild(objects, '26');
  if (!mai?.children) throw qrError('26', 'missing (merchant account information)');
  const gui = mpmChild(mai.children, '00');
  if (!gui || gui.value.toLowerCase() !== PIX_GUI)
    throw qrError('26.00', `expected "${PIX_GUI}"`, { found: gui?.value });
  const key = mpmChild(mai.children, '01')?.value;
  const url = mpmChild(mai.children, '25')?.value;
  const recurrence = pixRecurrenceOf(objects);
  const composition = pixCompositionOf(key, url, recurrence);
  const amount = mpmChild(objects, '54')?.value;
  if (amount !== undefined && !/^\d+(\.\d{1,2})?$/.test(amount))
    throw qrError('54', 'expected a decimal amount', { found: amount });
  const info = mpmChild(mai.children, '02')?.value;
  const poi = mpmChild(objects, '01')?.value;
  const postal = mpmChild(objects, '61')?.value;
  const txid = mpmChild(mpmChild(objects, '62')?.children, '05')?.value;
  return {
    objects,
    type: composition === 'recurrence' ? 'recurrence' : url !== undefined ? 'dynamic' : 'static',
    composition,
    ...(recurrence ? { recurrence } : {}),
    ...(poi !== undefined ? { pointOfInitiationMethod: poi } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(info !== undefined ? { info } : {}),
    ...(url !== undefined ? { url } : {}),
    merchantCategoryCode: required(objects, '52', 'merchant category code'),
    transactionCurrency: required(objects, '53', 'transaction currency'),
    ...(amount !== undefined ? { transactionAmount: amount } : {}),
    countryCode: required(objects, '58', 'country code'),
    merchantName: required(objects, '59', 'merchant name'),
    merchantCity: required(objects, '60', 'merchant city'),
    ...(postal !== undefined ? { postalCode: postal } : {}),
    ...(txid !== undefined ? { txid } : {}),
    crc16: objects[objects.length - 1]!.value,
  };
}
