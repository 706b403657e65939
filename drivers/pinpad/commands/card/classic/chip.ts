import { COMMANDS } from '../../../../../tables/pinpad/commands.js';
import { CLASSIC_CARD_LAYOUTS } from '../../../../../tables/pinpad/classic-card-layouts.js';
import { decodeLayout, encodeLayout } from '../../../codec/layout.js';
import { encodeCommand } from '../../../codec/message.js';
import { PinpadError } from '../../../errors.js';
import type { CommandSpec } from '../../spec.js';
import type { FcxResult } from '../fcx.js';
import type { GoxResult, RiskParameters } from '../gox.js';
import { digits, hex, tagList } from '../kit.js';

/** ABECS 2.12 §3.6.3 GOC and §3.6.4 FNC (obsolete, blocking): the classic chip processing after GCR. */

export interface GocRequest {
  amount: number;
  cashback?: number;
  /** GOC_CONNECT "1": the card may not approve offline (always: docs/pinpad.md, "No offline approval"). */
  noOfflineApproval?: boolean;
  /** GOC_KEYIDX: the DUKPT:TDES:PIN slot (GOC_METHOD "3"). */
  pinKeyIndex: number;
  risk?: RiskParameters;
  /** GCR_ACQIDX of the read: GOC_ACQPR is 3 characters for "01", 32 for "02", none otherwise. */
  acquirerIndex: string;
  /** For network "01": the transaction type (tag 9C, N2). */
  transactionType?: number;
  /** For network "02": the PIN prompt, 2 × 16. */
  message?: string;
  tags: readonly string[] | Uint8Array;
}

const GOC_HEAD = CLASSIC_CARD_LAYOUTS.GOC_REQUEST;

/** §3.6.3 answer up to GOC_EMVDTLEN (45 characters). */
const GOC_ANSWER = CLASSIC_CARD_LAYOUTS.GOC_RESPONSE;

const protocol = (where: string, message: string, f: string): PinpadError =>
  new PinpadError('PINPAD_PROTOCOL', `${where}: ${message}`, { where, field: f });

/** "LLL" + hex of a tag list (GOC_TAGS1LEN/GOC_TAGS1, FNC_TAGSLEN/FNC_TAGS). */
function tagBlock(tags: readonly string[] | Uint8Array, name: string): Uint8Array {
  const b = tagList(tags);
  if (b.length > 256)
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${name}: ${b.length} bytes, at most 256`, { field: name });
  return Buffer.from(`${String(b.length).padStart(3, '0')}${hex(b)}`, 'latin1');
}

/** "LLL" (bytes) + hex at `at` in `s`; returns the bytes and where the next field starts. */
function hexRun(s: string, at: number, lenDigits: number, where: string, name: string): { data: Buffer; next: number } {
  const n = s.slice(at, at + lenDigits);
  if (!/^\d+$/.test(n) || n.length !== lenDigits)
    throw protocol(where, `${name}LEN is not ${lenDigits} digits`, `${name}LEN`);
  const h = s.slice(at + lenDigits, at + lenDigits + 2 * Number(n));
  if (h.length !== 2 * Number(n) || !/^[0-9A-Fa-f]*$/.test(h))
    throw protocol(where, `${name} is not ${n} bytes of hex`, name);
  return { data: Buffer.from(h, 'hex'), next: at + lenDigits + h.length };
}

export const GOC: CommandSpec<GocRequest, GoxResult> = {
  id: 'GOC',
  blocking: COMMANDS.GOC.blocking,
  encode: (r) => {
    const risk = r.risk;
    let acqPr = '';
    if (r.acquirerIndex === '01') acqPr = `${digits(r.transactionType ?? 0, 2, 'GOC_ACQPR')}0`;
    else if (r.acquirerIndex === '02') acqPr = (r.message ?? '').padEnd(32, ' ').slice(0, 32);
    const head = encodeLayout(GOC_HEAD, {
      GOC_AMOUNT: digits(r.amount, 12, 'GOC_AMOUNT'),
      GOC_CASHBACK: digits(r.cashback ?? 0, 12, 'GOC_CASHBACK'),
      GOC_EXCLIST: '0',
      GOC_CONNECT: r.noOfflineApproval === false ? '0' : '1',
      GOC_RUF1: '0',
      GOC_METHOD: '3',
      GOC_KEYIDX: digits(r.pinKeyIndex, 2, 'GOC_KEYIDX'),
      GOC_WKENC: '0'.repeat(32),
      GOC_RISKMAN: risk ? '1' : '0',
      GOC_FLRLIMIT: (risk?.floorLimit ?? 0).toString(16).toUpperCase().padStart(8, '0'),
      GOC_TPBRS: digits(risk?.targetPercent ?? 0, 2, 'GOC_TPBRS'),
      GOC_TVBRS: (risk?.threshold ?? 0).toString(16).toUpperCase().padStart(8, '0'),
      GOC_MTPBRS: digits(risk?.maxTargetPercent ?? 0, 2, 'GOC_MTPBRS'),
      GOC_ACQPRLEN: digits(acqPr.length, 3, 'GOC_ACQPRLEN'),
    });
    return encodeCommand('GOC', [
      Buffer.concat([head, Buffer.from(acqPr, 'latin1')]),
      tagBlock(r.tags, 'GOC_TAGS1'),
      Buffer.from('000', 'latin1'),
    ]);
  },
  decode: (rsp) => {
    if (rsp.blocks.length !== 1) throw protocol('GOC', `expected one data block, got ${rsp.blocks.length}`, 'RSP_LEN1');
    const s = Buffer.from(rsp.blocks[0]!).toString('latin1');
    const f = decodeLayout(GOC_ANSWER, Buffer.from(s.slice(0, 45), 'latin1'), 'GOC');
    const emv = hexRun(s, 42, 3, 'GOC', 'GOC_EMVDAT');
    if (s.slice(emv.next) !== '000') throw protocol('GOC', 'GOC_ACQRDLEN is not "000" at the end', 'GOC_ACQRDLEN');
    const decision = ({ '0': 'approved-offline', '1': 'declined', '2': 'online' } as const)[
      String(f.GOC_DECISION) as '0' | '1' | '2'
    ];
    if (!decision) throw protocol('GOC', `GOC_DECISION ${String(f.GOC_DECISION)} is not 0, 1 or 2`, 'GOC_DECISION');
    const online = f.GOC_PINONL === '1';
    const ksn = String(f.GOC_KSN).toUpperCase();
    if (online && /^0+$/.test(ksn))
      throw protocol('GOC', 'a PIN for online verification without a DUKPT KSN', 'GOC_KSN');
    return {
      decision,
      signature: f.GOC_SIGNAT === '1',
      pin: online ? 'online' : f.GOC_PINOFF === '1' ? 'offline-verified' : 'none',
      deviceCvm: false,
      result: s.slice(0, 6),
      ...(online ? { pinBlock: { block: String(f.GOC_PINBLK).toUpperCase(), ksn } } : {}),
      ...(emv.data.length ? { emvData: Uint8Array.from(emv.data) } : {}),
    };
  },
};

export interface FncRequest {
  outcome: 'approved' | 'declined' | 'no-communication';
  /** FNC_ARC: the host's authorization response code (tag 8A). */
  arc?: string;
  /** FNC_ISSDAT: the host's TLV (91, 71, 72). */
  emvData?: Uint8Array;
  tags: readonly string[] | Uint8Array;
}

export const FNC: CommandSpec<FncRequest, FcxResult> = {
  id: 'FNC',
  blocking: COMMANDS.FNC.blocking,
  encode: (r) => {
    const none = r.outcome === 'no-communication';
    const arc = none ? '00' : (r.arc ?? (r.outcome === 'approved' ? '00' : '05'));
    if (!/^[\x20-\x7e]{2}$/.test(arc))
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'FNC_ARC: expected 2 characters', { field: 'FNC_ARC' });
    const iss = none || !r.emvData ? new Uint8Array() : r.emvData;
    if (iss.length > 256)
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', `FNC_ISSDAT: ${iss.length} bytes, at most 256`, {
        field: 'FNC_ISSDAT',
      });
    // "1": no communication, the rest zeroed; "9": approved with an ARC other than "00"
    const commSt = none ? '1' : r.outcome === 'approved' && arc !== '00' ? '9' : '0';
    const b1 = `${commSt}0${arc}${String(iss.length).padStart(3, '0')}${hex(iss)}000`;
    return encodeCommand('FNC', [Buffer.from(b1, 'latin1'), tagBlock(r.tags, 'FNC_TAGS')]);
  },
  decode: (rsp) => {
    if (rsp.blocks.length !== 1) throw protocol('FNC', `expected one data block, got ${rsp.blocks.length}`, 'RSP_LEN1');
    const s = Buffer.from(rsp.blocks[0]!).toString('latin1');
    const d = s.slice(0, 1);
    if (!/^[012]$/.test(d)) throw protocol('FNC', `FNC_DECISION ${JSON.stringify(d)} is not 0, 1 or 2`, 'FNC_DECISION');
    const emv = hexRun(s, 1, 3, 'FNC', 'FNC_EMVDAT');
    const isr = hexRun(s, emv.next, 2, 'FNC', 'FNC_ISR');
    if (s.slice(isr.next) !== '000') throw protocol('FNC', 'FNC_ACQRDLEN is not "000" at the end', 'FNC_ACQRDLEN');
    return {
      decision: d === '0' ? 'approved' : 'declined',
      result: d,
      ...(emv.data.length ? { emvData: Uint8Array.from(emv.data) } : {}),
      ...(isr.data.length ? { issuerScriptResults: Uint8Array.from(isr.data) } : {}),
    };
  },
};

/** GTS (§3.5.1, obsolete): the version of a network's tables ("0000000000" when none). */
export const GTS: CommandSpec<string, string> = {
  id: 'GTS',
  blocking: COMMANDS.GTS.blocking,
  encode: (acquirer) => {
    if (!/^\d{2}$/.test(acquirer))
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'GTS_ACQIDX: expected 2 digits', { field: 'GTS_ACQIDX' });
    return encodeCommand('GTS', [Buffer.from(acquirer, 'latin1')]);
  },
  decode: (rsp) => {
    const b = rsp.blocks[0];
    if (rsp.blocks.length !== 1 || !b || b.length !== 10)
      throw protocol('GTS', 'GTS_TABVER is not 10 characters', 'GTS_TABVER');
    return Buffer.from(b).toString('latin1');
  },
};
