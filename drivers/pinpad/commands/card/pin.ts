import { CARD_COMMANDS, CARD_LAYOUTS } from '../../../../tables/pinpad/card-commands.js';
import { PinpadError } from '../../errors.js';
import { decodeLayout, encodeLayout } from '../../codec/layout.js';
import { encodeCommand } from '../../codec/message.js';
import { blocks, type CommandSpec } from '../spec.js';
import { twoLines, type TwoLineText } from '../text.js';
import { digits } from './kit.js';

/**
 * GPN for a card the pinpad read (§3.3.11 with §5.4): method 3 (DUKPT:TDES:PIN), an empty PAN so the
 * pinpad uses the one it holds since GCX/CEX — valid only before GTK, which erases it (ST_INVCALL after).
 */
export interface GpnRequest {
  /** GPN_KEYIDX: the DUKPT PIN key slot. */
  keyIndex: number;
  /** GPN_MIN1 (at least 4) and GPN_MAX1 (at most 12). */
  minDigits?: number;
  maxDigits?: number;
  /** GPN_MSG1: 2 lines of 16. */
  message: TwoLineText;
  /**
   * GPN_PAN: only for a classic read (GCR), after which the pinpad holds no PAN (§3.3.11: the empty
   * PAN is for the End-to-End reads of §5.4, GCX/CEX). Absent: the pinpad's own.
   */
  pan?: string;
}

export interface PinBlockResult {
  /** The PIN block under the DUKPT PIN key (ISO format 0 with the PAN the pinpad holds), hex. */
  block: string;
  ksn: string;
}

/** GPN (§3.3.11, blocking): the customer types the PIN; the encrypted block and KSN come back. */
export const GPN: CommandSpec<GpnRequest, PinBlockResult> = {
  id: 'GPN',
  blocking: CARD_COMMANDS.GPN.blocking,
  encode: (r) => {
    const min = r.minDigits ?? 4;
    const max = r.maxDigits ?? 12;
    if (min < 4 || max < min || max > 12)
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', `GPN: PIN length ${min}..${max} must lie in 4..12`, {
        field: 'GPN_MIN1',
      });
    if (r.pan !== undefined && !/^\d{2,19}$/.test(r.pan))
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'GPN_PAN: expected 2 to 19 digits', { field: 'GPN_PAN' });
    return encodeCommand('GPN', [
      encodeLayout(CARD_LAYOUTS.GPN_REQUEST, {
        GPN_METHOD: '3',
        GPN_KEYIDX: digits(r.keyIndex, 2, 'GPN_KEYIDX'),
        GPN_WKENC: '0'.repeat(32),
        GPN_PANLEN: r.pan === undefined ? '00' : digits(r.pan.length, 2, 'GPN_PANLEN'),
        GPN_PAN: r.pan ?? '',
        GPN_ENTRIES: '1',
        GPN_MIN1: digits(min, 2, 'GPN_MIN1'),
        GPN_MAX1: digits(max, 2, 'GPN_MAX1'),
        GPN_MSG1: twoLines(r.message, 'GPN_MSG1'),
      }),
    ]);
  },
  decode: (rsp) => {
    const f = decodeLayout(CARD_LAYOUTS.GPN_RESPONSE, blocks(rsp, 1)[0]!, 'GPN');
    return { block: String(f.GPN_PINBLK).toUpperCase(), ksn: String(f.GPN_KSN).toUpperCase() };
  },
};

/** RMC (§3.3.14, blocking while a card is in): shows the message and waits for the card to leave. */
export const RMC: CommandSpec<TwoLineText, void> = {
  id: 'RMC',
  blocking: CARD_COMMANDS.RMC.blocking,
  encode: (msg) =>
    encodeCommand('RMC', [encodeLayout(CARD_LAYOUTS.RMC_REQUEST, { RMC_MSG: twoLines(msg, 'RMC_MSG') })]),
  decode: (rsp) => void blocks(rsp, 0),
};
