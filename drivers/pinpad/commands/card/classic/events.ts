import { COMMANDS } from '../../../../../tables/pinpad/commands.js';
import { encodeCommand } from '../../../codec/message.js';
import { PinpadError } from '../../../errors.js';
import type { CommandSpec } from '../../spec.js';
import { holdsClearPan, incompleteTrack1, incompleteTrack2, maskPanField } from '../mask.js';
import { ClearCardData } from './tracks.js';

/** CKE (ABECS 2.12 §3.3.3, obsolete, blocking): waits for a key, a swipe, a chip inserted or removed, or a contactless card. */
export interface CkeRequest {
  key?: boolean;
  stripe?: boolean;
  chip?: 'insert' | 'remove';
  /** CKE_CTLS; left out when undefined (the command is then 3 characters). */
  contactless?: boolean;
}

export type CkeResult =
  /** CKE_KEYCODE: "00" OK, "04".."07" F1..F4, "08" CLEAR, "13" CANCEL. */
  | { event: 'key'; key: string }
  /** Tracks masked (8 + 4) and incomplete; the clear ones apart, as GCR's. */
  | { event: 'stripe'; maskedPan?: string; track1?: string; track2?: string; clear: ClearCardData }
  | { event: 'chip'; present: boolean }
  | { event: 'contactless'; detected: boolean };

const protocol = (message: string, f: string): PinpadError =>
  new PinpadError('PINPAD_PROTOCOL', `CKE: ${message}`, { where: 'CKE', field: f });

export const CKE: CommandSpec<CkeRequest, CkeResult> = {
  id: 'CKE',
  blocking: COMMANDS.CKE.blocking,
  encode: (r) => {
    const b = `${r.key ? 1 : 0}${r.stripe ? 1 : 0}${r.chip === 'insert' ? 1 : r.chip === 'remove' ? 2 : 0}${r.contactless === undefined ? '' : r.contactless ? 1 : 0}`;
    return encodeCommand('CKE', [Buffer.from(b, 'latin1')]);
  },
  decode: (rsp) => {
    if (rsp.blocks.length !== 1) throw protocol(`expected one data block, got ${rsp.blocks.length}`, 'RSP_LEN1');
    const s = Buffer.from(rsp.blocks[0]!).toString('latin1');
    const ev = s.slice(0, 1);
    if (ev === '0' && /^0\d{2}$/.test(s)) return { event: 'key', key: s.slice(1) };
    if (ev === '2' && /^2[01]$/.test(s)) return { event: 'chip', present: s[1] === '1' };
    if (ev === '3' && /^3[01]$/.test(s)) return { event: 'contactless', detected: s[1] === '1' };
    if (ev !== '1' || s.length !== 225)
      throw protocol(`an answer of ${s.length} characters for event ${JSON.stringify(ev)}`, 'CKE_EVENT');
    // "1", CKE_TRK1LEN N2, CKE_TRK1 A76, CKE_TRK2LEN N2, CKE_TRK2 A37, CKE_TRK3LEN N3 (A3 in "PAN Criptografado"), CKE_TRK3 A104
    const len = (at: number, n: number, max: number, name: string): number => {
      const v = s.slice(at, at + n);
      if (!/^\d+$/.test(v) || Number(v) > max)
        throw protocol(`${name} ${JSON.stringify(v)} is not a length up to ${max}`, name);
      return Number(v);
    };
    const track1 = s.slice(3, 3 + len(1, 2, 76, 'CKE_TRK1LEN'));
    const track2 = s.slice(81, 81 + len(79, 2, 37, 'CKE_TRK2LEN'));
    if (track2 && !/^[\d=]+$/.test(track2)) throw protocol('CKE_TRK2 holds other than digits and "="', 'CKE_TRK2');
    const pan = track2.split('=')[0] ?? '';
    const out = {
      event: 'stripe' as const,
      ...(pan ? { maskedPan: maskPanField(pan, 8, 4) } : {}),
      ...(track1 ? { track1: maskPanField(incompleteTrack1(track1), 8, 4) } : {}),
      ...(track2 ? { track2: maskPanField(incompleteTrack2(track2), 8, 4) } : {}),
    };
    if (holdsClearPan(JSON.stringify(out))) throw protocol('a field would keep a clear PAN after masking', 'CKE_TRK1');
    return { ...out, clear: new ClearCardData(track2, pan, track1) };
  },
};
