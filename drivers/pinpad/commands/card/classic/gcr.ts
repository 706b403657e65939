import { COMMANDS } from '../../../../../tables/pinpad/commands.js';
import { CARD_TYPES, ICC_STATUS, type CardTypeCode } from '../../../../../tables/pinpad/card-commands.js';
import { CLASSIC_CARD_LAYOUTS } from '../../../../../tables/pinpad/classic-card-layouts.js';
import { decodeLayout, encodeLayout } from '../../../codec/layout.js';
import { encodeCommand } from '../../../codec/message.js';
import { PinpadError } from '../../../errors.js';
import type { CommandSpec } from '../../spec.js';
import type { GcxResult } from '../gcx.js';
import { digits } from '../kit.js';
import { holdsClearPan, incompleteTrack1, incompleteTrack2, maskPanField } from '../mask.js';
import { ClearCardData } from './tracks.js';

/**
 * GCR (ABECS 2.12 §3.6.1, obsolete, blocking): the classic card read. Only for a pinpad not
 * recognised as current (§3.1.2). Its answer carries the tracks and the PAN in clear: the decoder
 * masks them for the result (8 + 4, §5.4.1) and keeps the clear data apart (`ClearCardData`) for
 * the one use the classic flow has for it (EBX, then wiped; the PAN for GPN).
 */
export type GcrRequest =
  | {
      /** GCR_ACQIDXREQ: the network whose tables select the chip application ("00": all). */
      acquirer: string;
      /** GCR_APPTYPREQ: "99" ignores T1_APPTYPE (default); "00" with `aidList`. */
      applicationType?: string;
      /** TAB_ACQ + TAB_RECIDX of AID records (GCR_APPTYPREQ "00"). */
      aidList?: readonly string[];
      amount: number;
      /** YYMMDD and hhmmss. */
      date: string;
      time: string;
      /** GCR_TABVER: the version the terminal expects (GTS tells it). */
      tableVersion: string;
      /** GCR_CTLSON; left out when undefined (the pinpad then takes "1", §3.6.1). */
      contactless?: boolean;
    }
  /** §3.6.1 "Comando (depois de ST_TABVERDIF)": GCR without parameters. */
  | { again: true };

export interface GcrResult {
  /** What GCX would have given: PAN and tracks masked. */
  card: GcxResult;
  /** GCR_ACQIDX: the network of the AID record used (GOC_ACQPR depends on it). */
  acquirerIndex: string;
  clear: ClearCardData;
}

const REQUEST = CLASSIC_CARD_LAYOUTS.GCR_REQUEST;
const ANSWER_HEAD = CLASSIC_CARD_LAYOUTS.GCR_RESPONSE;
const HEAD = 307;

const protocol = (message: string, f: string): PinpadError =>
  new PinpadError('PINPAD_PROTOCOL', `GCR: ${message}`, { where: 'GCR', field: f });

/**
 * The tail after GCR_CARDEXP: GCR_RUF1, GCR_ISSCNTRY (N3), GCR_ACQRDLEN (N3), GCR_ACQRD. The table
 * gives GCR_RUF1 as N29; both answer examples of §3.6.1 carry 39 characters there (352 in all with
 * GCR_ACQRDLEN "000"). Both are taken: the one whose GCR_ACQRDLEN matches what follows.
 */
function tail(s: string): { country: string; acquirerData: string } {
  for (const ruf of [29, 39]) {
    const lenAt = ruf + 3;
    const n = s.slice(lenAt, lenAt + 3);
    if (/^\d{3}$/.test(n) && s.length === lenAt + 3 + Number(n) && /^\d+$/.test(s.slice(0, ruf + 3))) {
      return { country: s.slice(ruf, ruf + 3), acquirerData: s.slice(lenAt + 3) };
    }
  }
  throw protocol(
    `the ${s.length} characters after GCR_CARDEXP are not GCR_RUF1, GCR_ISSCNTRY, GCR_ACQRDLEN and GCR_ACQRD`,
    'GCR_ACQRDLEN',
  );
}

const sized = (v: string, len: string, name: string): string => {
  const n = Number(len);
  if (!/^\d+$/.test(len) || n > v.length) throw protocol(`${name}LEN ${len} exceeds the field`, `${name}LEN`);
  return v.slice(0, n);
};

export function decodeGcr(block: Uint8Array): GcrResult {
  if (block.length < HEAD)
    throw protocol(`answer of ${block.length} characters, at least ${HEAD + 9} expected`, 'RSP_LEN1');
  const f = decodeLayout(ANSWER_HEAD, block.subarray(0, HEAD), 'GCR');
  const s = (k: string): string => String(f[k]);
  const code = s('GCR_CARDTYPE') as CardTypeCode;
  const cardType = CARD_TYPES[code];
  if (!cardType) throw protocol(`GCR_CARDTYPE ${code} is not 00, 03, 05 or 06`, 'GCR_CARDTYPE');
  const { country } = tail(Buffer.from(block.subarray(HEAD)).toString('latin1'));
  const track1 = sized(s('GCR_TRK1'), s('GCR_TRK1LEN'), 'GCR_TRK1');
  const track2 = sized(s('GCR_TRK2'), s('GCR_TRK2LEN'), 'GCR_TRK2');
  const pan = sized(s('GCR_PAN'), s('GCR_PANLEN'), 'GCR_PAN') || (track2.split('=')[0] ?? '');
  if (pan && !/^\d{2,19}$/.test(pan)) throw protocol('GCR_PAN is not 2 to 19 digits', 'GCR_PAN');
  if (track2 && !/^[\d=]+$/.test(track2)) throw protocol('GCR_TRK2 holds other than digits and "="', 'GCR_TRK2');
  const chip = cardType === 'chip' || cardType === 'contactless-chip';
  const exp = s('GCR_CARDEXP');
  const afterEq = track2.includes('=') ? track2.slice(track2.indexOf('=') + 1) : '';
  const opt = (k: string, v: string | undefined): Record<string, string> => (v ? { [k]: v } : {});
  const stat = s('GCR_STATCHIP');
  const card: GcxResult = {
    cardType,
    cardTypeCode: code,
    ...(cardType === 'stripe' && stat in ICC_STATUS ? { iccStatus: ICC_STATUS[stat as keyof typeof ICC_STATUS] } : {}),
    aidTables: chip ? [{ acquirer: s('GCR_ACQIDX'), index: s('GCR_RECIDX'), applicationType: s('GCR_APPTYPE') }] : [],
    ...opt('maskedPan', pan ? maskPanField(pan, 8, 4) : undefined),
    ...opt('panSequenceNumber', chip ? s('GCR_PANSEQNO') : undefined),
    ...opt('track1', track1 ? maskPanField(incompleteTrack1(track1), 8, 4) : undefined),
    ...opt('track2', track2 ? maskPanField(incompleteTrack2(track2), 8, 4) : undefined),
    ...opt(
      'expiry',
      chip && /^\d{6}$/.test(exp) && exp !== '000000'
        ? exp.slice(0, 4)
        : /^\d{4}/.test(afterEq)
          ? afterEq.slice(0, 4)
          : undefined,
    ),
    ...opt(
      'serviceCode',
      /^\d{7}/.test(afterEq) ? afterEq.slice(4, 7) : s('GCR_SRVCODE') !== '000' ? s('GCR_SRVCODE') : undefined,
    ),
    ...opt('label', s('GCR_APPLABEL').trim()),
    ...opt('cardholderName', s('GCR_CHNAME').trim()),
    ...opt('issuerCountry', chip && country !== '000' ? country : undefined),
  };
  // the last guard: nothing the terminal keeps may hold a clear PAN (a track 1 whose PAN the masking could not find)
  if (holdsClearPan(JSON.stringify(card))) throw protocol('a field would keep a clear PAN after masking', 'GCR_TRK1');
  return { card, acquirerIndex: s('GCR_ACQIDX'), clear: new ClearCardData(track2, pan, track1) };
}

export const GCR: CommandSpec<GcrRequest, GcrResult> = {
  id: 'GCR',
  blocking: COMMANDS.GCR.blocking,
  encode: (r) => {
    if ('again' in r) return encodeCommand('GCR', []);
    const list = r.aidList ?? [];
    if (list.length > 99 || list.some((x) => !/^\d{2}[\x20-\x7e]{2}$/.test(x)))
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'GCR_IDAPPn: expected TAB_ACQ + TAB_RECIDX (4 characters)', {
        field: 'GCR_IDAPPn',
      });
    const appType = list.length ? '00' : (r.applicationType ?? '99');
    const head = encodeLayout(REQUEST, {
      GCR_ACQIDXREQ: r.acquirer,
      GCR_APPTYPREQ: appType,
      GCR_AMOUNT: digits(r.amount, 12, 'GCR_AMOUNT'),
      GCR_DATE: r.date,
      GCR_TIME: r.time,
      GCR_TABVER: r.tableVersion,
      GCR_QTDAPP: digits(list.length, 2, 'GCR_QTDAPP'),
    });
    return encodeCommand('GCR', [
      Buffer.concat([
        head,
        Buffer.from(list.join('') + (r.contactless === undefined ? '' : r.contactless ? '1' : '0'), 'latin1'),
      ]),
    ]);
  },
  decode: (rsp) => {
    if (rsp.blocks.length !== 1) throw protocol(`expected one data block, got ${rsp.blocks.length}`, 'RSP_LEN1');
    return decodeGcr(rsp.blocks[0]!);
  },
};
