import { CARD_COMMANDS, CEX_EVENTS } from '../../../../tables/pinpad/card-commands.js';
import { PinpadError } from '../../errors.js';
import { encodeCommand } from '../../codec/message.js';
import { encodeParams } from '../../codec/params.js';
import type { CommandSpec } from '../spec.js';
import { need, params, readData, text } from './kit.js';
import { DEFAULT_PAN_MASK, panMaskParam, type PanMask } from './gcx.js';
import { maskPanField } from './mask.js';

/** CEX (§3.3.1): which events to wait for. */
export interface CexRequest {
  keys?: boolean;
  stripe?: boolean;
  icc?: 'insert' | 'remove';
  contactless?: boolean;
  timeoutS?: number;
  panMask?: PanMask;
}

export interface CexResult {
  code: string;
  event: (typeof CEX_EVENTS)[keyof typeof CEX_EVENTS] | 'unknown';
  track1?: string;
  track2?: string;
  track3?: string;
}

/** CEX (§3.3.1, blocking): a key, a stripe, a chip inserted or removed, or a contactless card. */
export const CEX: CommandSpec<CexRequest, CexResult> = {
  id: 'CEX',
  blocking: CARD_COMMANDS.CEX.blocking,
  encode: (r) => {
    const opt = `${r.keys ? 1 : 0}${r.stripe ? 1 : 0}${r.icc === 'insert' ? 1 : r.icc === 'remove' ? 2 : 0}${r.contactless ? 1 : 0}00`;
    if (opt === '000000')
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'CEX: ask for at least one event', { field: 'SPE_CEXOPT' });
    return encodeCommand(
      'CEX',
      encodeParams(
        params([
          ['SPE_CEXOPT', opt],
          ['SPE_TIMEOUT', r.timeoutS],
          ['SPE_PANMASK', panMaskParam(r.panMask ?? DEFAULT_PAN_MASK)],
        ]),
      ),
    );
  },
  decode: (rsp, req) => {
    const d = readData(rsp, 'CEX');
    const code = need(d, 'PP_EVENT', 'CEX', /^\d{2}$/);
    const m = req.panMask ?? DEFAULT_PAN_MASK;
    const track = (n: string): string | undefined => {
      const v = text(d, n);
      return v === undefined ? undefined : maskPanField(v, m.left, m.right);
    };
    const t1 = track('PP_TRK1INC');
    const t2 = track('PP_TRK2INC');
    const t3 = track('PP_TRK3INC');
    return {
      code,
      event: CEX_EVENTS[code as keyof typeof CEX_EVENTS] ?? 'unknown',
      ...(t1 ? { track1: t1 } : {}),
      ...(t2 ? { track2: t2 } : {}),
      ...(t3 ? { track3: t3 } : {}),
    };
  },
};

/** MNU (§3.3.13): up to 20 options of at most 24 characters, an optional title. */
export interface MnuRequest {
  title?: string;
  options: readonly string[];
  timeoutS?: number;
}

/** MNU (§3.3.13, blocking): the customer picks an option; its 1-based index comes back. */
export const MNU: CommandSpec<MnuRequest, number> = {
  id: 'MNU',
  blocking: CARD_COMMANDS.MNU.blocking,
  encode: (r) => {
    if (r.options.length === 0 || r.options.length > 20)
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', `MNU: 1 to 20 options, got ${r.options.length}`, {
        field: 'SPE_MNUOPT',
      });
    return encodeCommand(
      'MNU',
      encodeParams(
        params([
          ['SPE_TIMEOUT', r.timeoutS],
          ...r.options.map((o) => ['SPE_MNUOPT', o] as const),
          ['SPE_DSPMSG', r.title],
        ]),
      ),
    );
  },
  decode: (rsp, req) => {
    const v = Number(need(readData(rsp, 'MNU'), 'PP_VALUE', 'MNU', /^\d{2}$/));
    if (v < 1 || v > req.options.length)
      throw new PinpadError('PINPAD_PROTOCOL', `MNU: option ${v} was not offered`, { where: 'MNU', field: 'PP_VALUE' });
    return v;
  },
};
