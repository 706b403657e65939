import {
  CARD_COMMANDS,
  CARD_TYPES,
  ICC_STATUS,
  TRANSACTION_TYPES,
  type CardType,
  type CardTypeCode,
  type TransactionType,
} from '../../../../tables/pinpad/card-commands.js';
import { PinpadError } from '../../errors.js';
import { encodeCommand } from '../../codec/message.js';
import { encodeParams } from '../../codec/params.js';
import type { CommandSpec } from '../spec.js';
import { bytes, digits, need, params, readData, tagList, text, type Data } from './kit.js';
import { maskPanField } from './mask.js';

/** How many PAN digits stay open (SPE_PANMASK "eedd"); first 8 and last 4 by default (docs/pinpad.md). */
export interface PanMask {
  left: number;
  right: number;
}
export const DEFAULT_PAN_MASK: Readonly<PanMask> = Object.freeze({ left: 8, right: 4 });

/** A GCX request (§3.7.1). Amounts in cents; date and time as the terminal's local "YYMMDD"/"HHMMSS". */
export interface GcxRequest {
  amount: number;
  cashback?: number;
  date: string;
  time: string;
  /** SPE_TRNTYPE: purchase by default; `refund` (20h) for voids. */
  transactionType?: TransactionType;
  /** SPE_ACQREF: the acquirer's table index (TAB_ACQ), e.g. "03". */
  acquirer?: string;
  /** SPE_APPTYPE: T1_APPTYPE values ("01".."98"), at most 10. */
  applicationTypes?: readonly string[];
  /** SPE_AIDLIST: TAB_ACQ + TAB_RECIDX entries; overrides acquirer and applicationTypes. */
  aidList?: readonly string[];
  /** SPE_GCXOPT first digit: wait for contactless too. */
  contactless: boolean;
  /** SPE_GCXOPT second digit; shown by default. */
  showAmount?: boolean;
  /** SPE_PANMASK; 8 + 4 by default. */
  panMask?: PanMask;
  /** SPE_TRNCURR, e.g. "986". */
  currency?: string;
  /** SPE_EMVDATA: TLV that overrides the AID table. */
  emvData?: Uint8Array;
  /** SPE_TAGLIST. */
  tags?: readonly string[] | Uint8Array;
  /** SPE_TIMEOUT, seconds 0..255. */
  timeoutS?: number;
  /** SPE_DSPMSG: the prompt for the card (CR or "\n" between lines). */
  message?: string;
}

/** One AID table record that can process the card (PP_AIDTABINFO: TAB_ACQ, TAB_RECIDX, T1_APPTYPE). */
export interface AidTableRef {
  acquirer: string;
  index: string;
  applicationType: string;
}

/** What GCX gives the terminal: never a full PAN or track. */
export interface GcxResult {
  cardType: CardType;
  cardTypeCode: CardTypeCode;
  /** Stripe only: the last chip read (fallback allowed when 'fallback'). */
  iccStatus?: (typeof ICC_STATUS)[keyof typeof ICC_STATUS];
  aidTables: AidTableRef[];
  /** First 8 and last 4 digits, the rest '*' (from PP_PAN, or the incomplete track for stripe). */
  maskedPan?: string;
  panSequenceNumber?: string;
  /** Incomplete tracks with the PAN masked (§5.4.1). */
  track1?: string;
  track2?: string;
  track3?: string;
  /** YYMM, from PP_CARDEXP (chip) or the incomplete track 2. */
  expiry?: string;
  /** Three digits, from the incomplete track 2 (stripe). */
  serviceCode?: string;
  label?: string;
  cardholderName?: string;
  issuerCountry?: string;
  /** PP_EMVDATA (the pinpad leaves out tags that hold track data or the PAN). */
  emvData?: Uint8Array;
  /** PP_DEVTYPE for contactless: "00" card, phones, watches… */
  deviceType?: string;
}

const CODE = /^\d{2}$/;

function checkCodes(list: readonly string[] | undefined, name: string, re: RegExp, max: number): void {
  if (!list) return;
  if (list.length === 0 || list.length > max || !list.every((x) => re.test(x))) {
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${name}: expected 1 to ${max} entries like ${String(re)}`, {
      field: name,
    });
  }
}

function yymmdd(s: string, name: string): string {
  if (!/^\d{6}$/.test(s))
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${name}: expected 6 digits`, { field: name });
  return s;
}

/** Encodes the mask "eedd". */
export function panMaskParam(m: PanMask): string {
  return digits(m.left, 2, 'SPE_PANMASK') + digits(m.right, 2, 'SPE_PANMASK');
}

/** Masks again what a pinpad returned (§5.4.1 rules), so the terminal never keeps a clear PAN. */
function masked(d: Data, name: string, m: PanMask): string | undefined {
  const v = text(d, name);
  return v === undefined ? undefined : maskPanField(v, m.left, m.right);
}

function fromTrack2(track2: string | undefined): { pan?: string; expiry?: string; serviceCode?: string } {
  if (!track2) return {};
  const [pan, rest = ''] = track2.split('=');
  return {
    ...(pan ? { pan } : {}),
    ...(/^\d{4}/.test(rest) ? { expiry: rest.slice(0, 4) } : {}),
    ...(/^\d{7}/.test(rest) ? { serviceCode: rest.slice(4, 7) } : {}),
  };
}

function aidTables(info: string | undefined, where: string): AidTableRef[] {
  if (info === undefined) return [];
  if (info.length % 6 !== 0)
    throw new PinpadError(
      'PINPAD_PROTOCOL',
      `${where}: PP_AIDTABINFO of ${info.length} characters is not a list of 6`,
      { where, field: 'PP_AIDTABINFO' },
    );
  const out: AidTableRef[] = [];
  for (let i = 0; i < info.length; i += 6)
    out.push({
      acquirer: info.slice(i, i + 2),
      index: info.slice(i + 2, i + 4),
      applicationType: info.slice(i + 4, i + 6),
    });
  return out;
}

/** Decodes a GCX answer's data (also used for the fields CEX shares). */
export function decodeGcxData(d: Data, mask: PanMask, where = 'GCX'): GcxResult {
  const code = need(d, 'PP_CARDTYPE', where, CODE) as CardTypeCode;
  const cardType = CARD_TYPES[code];
  if (!cardType)
    throw new PinpadError('PINPAD_PROTOCOL', `${where}: PP_CARDTYPE ${code} is not 00, 03, 05 or 06`, {
      where,
      field: 'PP_CARDTYPE',
    });
  const stat = text(d, 'PP_ICCSTAT');
  const track2 = masked(d, 'PP_TRK2INC', mask);
  const t2 = fromTrack2(track2);
  const pan =
    masked(d, 'PP_PAN', mask) ??
    t2.pan ??
    (() => {
      const t1 = masked(d, 'PP_TRK1INC', mask);
      const m = t1 ? /^[A-Za-z]?([\d* ]+)/.exec(t1) : null;
      return m ? m[1]!.replace(/ /g, '') : undefined;
    })();
  const cardExp = text(d, 'PP_CARDEXP');
  const emv = bytes(d, 'PP_EMVDATA');
  const opt = (key: string, v: string | undefined): Record<string, string> =>
    v === undefined || v === '' ? {} : { [key]: v };
  return {
    cardType,
    cardTypeCode: code,
    ...(stat !== undefined && stat in ICC_STATUS ? { iccStatus: ICC_STATUS[stat as keyof typeof ICC_STATUS] } : {}),
    aidTables: aidTables(text(d, 'PP_AIDTABINFO'), where),
    ...opt('maskedPan', pan),
    ...opt('panSequenceNumber', text(d, 'PP_PANSEQNO')),
    ...opt('track1', masked(d, 'PP_TRK1INC', mask)),
    ...opt('track2', track2),
    ...opt('track3', masked(d, 'PP_TRK3INC', mask)),
    ...opt('expiry', cardExp && /^\d{6}$/.test(cardExp) ? cardExp.slice(0, 4) : t2.expiry),
    ...opt('serviceCode', t2.serviceCode),
    ...opt('label', text(d, 'PP_LABEL')?.trim()),
    ...opt('cardholderName', text(d, 'PP_CHNAME')?.trim()),
    ...opt('issuerCountry', text(d, 'PP_ISSCNTRY')),
    ...(emv ? { emvData: Uint8Array.from(emv) } : {}),
    ...opt('deviceType', text(d, 'PP_DEVTYPE')),
  };
}

/** GCX (§3.7.1, blocking): waits for a stripe, chip or contactless card and reads it; PAN masked. */
export const GCX: CommandSpec<GcxRequest, GcxResult> = {
  id: 'GCX',
  blocking: CARD_COMMANDS.GCX.blocking,
  encode: (r) => {
    checkCodes(r.applicationTypes, 'SPE_APPTYPE', CODE, 10);
    checkCodes(r.aidList, 'SPE_AIDLIST', /^\d{2}[0-9A-Z]{2}$/, 128);
    if (r.acquirer !== undefined && !/^\d{2}$/.test(r.acquirer))
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'SPE_ACQREF: expected 2 digits', { field: 'SPE_ACQREF' });
    const type = r.transactionType === undefined ? undefined : Uint8Array.of(TRANSACTION_TYPES[r.transactionType]);
    return encodeCommand(
      'GCX',
      encodeParams(
        params([
          ['SPE_TRNTYPE', type],
          ['SPE_ACQREF', r.acquirer],
          ['SPE_APPTYPE', r.applicationTypes?.join('')],
          ['SPE_AIDLIST', r.aidList?.join('')],
          ['SPE_AMOUNT', digits(r.amount, 12, 'SPE_AMOUNT')],
          ['SPE_CASHBACK', r.cashback === undefined ? undefined : digits(r.cashback, 12, 'SPE_CASHBACK')],
          ['SPE_TRNCURR', r.currency],
          ['SPE_TRNDATE', yymmdd(r.date, 'SPE_TRNDATE')],
          ['SPE_TRNTIME', yymmdd(r.time, 'SPE_TRNTIME')],
          ['SPE_GCXOPT', `${r.contactless ? 1 : 0}${r.showAmount === false ? 1 : 0}000`],
          ['SPE_PANMASK', panMaskParam(r.panMask ?? DEFAULT_PAN_MASK)],
          ['SPE_EMVDATA', r.emvData],
          ['SPE_TAGLIST', r.tags === undefined ? undefined : tagList(r.tags)],
          ['SPE_TIMEOUT', r.timeoutS],
          ['SPE_DSPMSG', r.message?.replace(/\r?\n/g, '\r')],
        ]),
      ),
    );
  },
  decode: (rsp, req) => decodeGcxData(readData(rsp, 'GCX'), req.panMask ?? DEFAULT_PAN_MASK),
};
