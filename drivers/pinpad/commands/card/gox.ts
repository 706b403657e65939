import { CARD_COMMANDS, TRANSACTION_TYPES, type TransactionType } from '../../../../tables/pinpad/card-commands.js';
import { PinpadError } from '../../errors.js';
import { encodeCommand } from '../../codec/message.js';
import { encodeParams } from '../../codec/params.js';
import type { CommandSpec } from '../spec.js';
import { bytes, digits, hex, need, params, readData, tagList } from './kit.js';

/** Terminal risk management for GOX (SPE_TRMPAR, §3.1.3.1): amounts in cents, percentages 0..99. */
export interface RiskParameters {
  floorLimit: number;
  targetPercent: number;
  threshold: number;
  maxTargetPercent: number;
}

/** A GOX request (§3.7.3). PIN method 3 (DUKPT:TDES:PIN) always: the key slot is configuration. */
export interface GoxRequest {
  /** SPE_ACQREF: one of the networks GCX returned in PP_AIDTABINFO. */
  acquirer: string;
  transactionType?: TransactionType;
  amount: number;
  cashback?: number;
  currency?: string;
  /** SPE_KEYIDX: the DUKPT PIN key slot. */
  pinKeyIndex: number;
  /** SPE_GOXOPT second digit: the card may not approve offline (true unless said otherwise: docs/pinpad.md). */
  noOfflineApproval?: boolean;
  /** SPE_GOXOPT first digit: the PAN is on the exception list. */
  exceptionList?: boolean;
  /** SPE_GOXOPT third digit: PIN bypass not allowed. */
  noPinBypass?: boolean;
  /** SPE_DSPMSG for the PIN prompt. */
  message?: string;
  risk?: RiskParameters;
  /** SPE_EMVDATA: the AID's terminal parameters (TLV) that override the table. */
  emvData?: Uint8Array;
  tags?: readonly string[] | Uint8Array;
  /** PIN screen inactivity, seconds (the pinpad's default is 60). */
  timeoutS?: number;
}

export interface GoxResult {
  decision: 'approved-offline' | 'declined' | 'online';
  signature: boolean;
  pin: 'none' | 'offline-verified' | 'online';
  /** The cardholder was verified on their phone (contactless). */
  deviceCvm: boolean;
  /** PP_GOXRES as sent. */
  result: string;
  /** The PIN block under the DUKPT PIN key and its KSN, when the PIN is for online verification. */
  pinBlock?: { block: string; ksn: string };
  emvData?: Uint8Array;
}

/** SPE_TRMPAR: X4 floor, X1 target %, X4 threshold, X1 max target %. */
export function riskParam(r: RiskParameters): Uint8Array {
  const b = Buffer.alloc(10);
  const check = (v: number, max: number, name: string): number => {
    if (!Number.isSafeInteger(v) || v < 0 || v > max)
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', `SPE_TRMPAR: ${name} ${v} is out of 0..${max}`, {
        field: 'SPE_TRMPAR',
      });
    return v;
  };
  b.writeUInt32BE(check(r.floorLimit, 0xffffffff, 'floorLimit'), 0);
  b.writeUInt8(check(r.targetPercent, 99, 'targetPercent'), 4);
  b.writeUInt32BE(check(r.threshold, 0xffffffff, 'threshold'), 5);
  b.writeUInt8(check(r.maxTargetPercent, 99, 'maxTargetPercent'), 9);
  return b;
}

/** GOX (§3.7.3, blocking while the PIN is typed): EMV risk management, cardholder verification, first cryptogram. */
export const GOX: CommandSpec<GoxRequest, GoxResult> = {
  id: 'GOX',
  blocking: CARD_COMMANDS.GOX.blocking,
  encode: (r) => {
    if (!/^\d{2}$/.test(r.acquirer))
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'SPE_ACQREF: expected 2 digits', { field: 'SPE_ACQREF' });
    const opt = `${r.exceptionList ? 1 : 0}${r.noOfflineApproval === false ? 0 : 1}${r.noPinBypass ? 1 : 0}00`;
    return encodeCommand(
      'GOX',
      encodeParams(
        params([
          ['SPE_ACQREF', r.acquirer],
          [
            'SPE_TRNTYPE',
            r.transactionType === undefined ? undefined : Uint8Array.of(TRANSACTION_TYPES[r.transactionType]),
          ],
          ['SPE_AMOUNT', digits(r.amount, 12, 'SPE_AMOUNT')],
          ['SPE_CASHBACK', r.cashback === undefined ? undefined : digits(r.cashback, 12, 'SPE_CASHBACK')],
          ['SPE_TRNCURR', r.currency],
          ['SPE_GOXOPT', opt],
          ['SPE_MTHDPIN', '3'],
          ['SPE_KEYIDX', digits(r.pinKeyIndex, 2, 'SPE_KEYIDX')],
          ['SPE_DSPMSG', r.message?.replace(/\r?\n/g, '\r')],
          ['SPE_TRMPAR', r.risk ? riskParam(r.risk) : undefined],
          ['SPE_EMVDATA', r.emvData],
          ['SPE_TAGLIST', r.tags === undefined ? undefined : tagList(r.tags)],
          ['SPE_TIMEOUT', r.timeoutS],
        ]),
      ),
    );
  },
  decode: (rsp) => {
    const d = readData(rsp, 'GOX');
    const res = need(d, 'PP_GOXRES', 'GOX', /^[012][01][012][01]\d\d$/);
    const pin = res[2] === '1' ? 'offline-verified' : res[2] === '2' ? 'online' : 'none';
    const block = bytes(d, 'PP_PINBLK');
    const ksn = bytes(d, 'PP_KSN');
    if (pin === 'online' && (!block || block.length !== 8 || !ksn || ksn.length !== 10)) {
      throw new PinpadError(
        'PINPAD_PROTOCOL',
        'GOX: the PIN was captured for online verification but PP_PINBLK or PP_KSN is missing',
        { where: 'GOX', field: 'PP_PINBLK' },
      );
    }
    const emv = bytes(d, 'PP_EMVDATA');
    return {
      decision: res[0] === '0' ? 'approved-offline' : res[0] === '1' ? 'declined' : 'online',
      signature: res[1] === '1',
      pin,
      deviceCvm: res[3] === '1',
      result: res,
      ...(pin === 'online' ? { pinBlock: { block: hex(block!), ksn: hex(ksn!) } } : {}),
      ...(emv ? { emvData: Uint8Array.from(emv) } : {}),
    };
  },
};
