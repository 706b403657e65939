import { COMMANDS } from '../../../tables/pinpad/commands.js';
import { abecsIdByName } from '../../../tables/pinpad/abecs-ids.js';
import { CLASSIC_LAYOUTS } from '../../../tables/pinpad/classic-layouts.js';
import { PinpadError } from '../errors.js';
import { latin1 } from '../codec/fields.js';
import { encodeLayout } from '../codec/layout.js';
import { encodeCommand } from '../codec/message.js';
import { decodeParams, encodeParams, param, paramValue, type Param } from '../codec/params.js';
import { blocks, type CommandSpec } from './spec.js';
import { twoLines, type TwoLineText } from './text.js';

/** DSP (§3.3.5): a 2x16 message. */
export const DSP: CommandSpec<TwoLineText, void> = {
  id: 'DSP',
  blocking: COMMANDS.DSP.blocking,
  encode: (msg) =>
    encodeCommand('DSP', [encodeLayout(CLASSIC_LAYOUTS.DSP_REQUEST, { DSP_MSG: twoLines(msg, 'DSP_MSG') })]),
  decode: (rsp) => void blocks(rsp, 0),
};

/** DEX_OPTIONS (§3.3.4): alignment and the kind of message (the pinpad picks colours, icons, sounds). */
export interface DexOptions {
  horizontal?: 'left' | 'right' | 'center';
  vertical?: 'top' | 'bottom' | 'center';
  kind?: 'generic' | 'success' | 'error' | 'alert' | 'info';
}

const H = { left: 0, right: 1, center: 2 } as const;
const V = { top: 0, bottom: 1, center: 2 } as const;
const K = { generic: 0, success: 1, error: 2, alert: 3, info: 4 } as const;

/** DEX (§3.3.4): free text up to 160 characters, lines split by "\n" (sent as CR), with options. */
export const DEX: CommandSpec<{ text: string; options?: DexOptions }, void> = {
  id: 'DEX',
  blocking: COMMANDS.DEX.blocking,
  encode: ({ text, options }) => {
    const msg = text.replace(/\r?\n/g, '\r');
    const bytes = latin1({ name: 'DEX_MSG', format: 'S' }, msg, true);
    const opts = options
      ? `${H[options.horizontal ?? 'left']}${V[options.vertical ?? 'top']}${K[options.kind ?? 'generic']}000`
      : undefined;
    return encodeCommand('DEX', [
      encodeLayout(
        CLASSIC_LAYOUTS.DEX_REQUEST,
        { DEX_MSGLEN: bytes.length, DEX_MSG: msg, DEX_OPTIONS: opts },
        { allowCr: true },
      ),
    ]);
  },
  decode: (rsp) => void blocks(rsp, 0),
};

/** GCD request (§3.3.8): a prompt from the fixed table, numeric or alphanumeric, with limits. */
export interface GcdRequest {
  /** SPE_MSGIDX: index in the fixed prompt table (tables/pinpad/gcd-messages.ts), 1..65535. */
  message: number;
  alphanumeric?: boolean;
  /** SPE_MINDIG, 0..32 (default 0). */
  minDigits?: number;
  /** SPE_MAXDIG, 1..32 (default 32), at least minDigits. */
  maxDigits?: number;
  /** SPE_TIMEOUT, cardholder inactivity in seconds 0..255; absent = never times out. */
  timeoutS?: number;
}

/** GCD (§3.3.8, blocking): clear data typed on the pinpad's keyboard, returned as PP_VALUE. */
export const GCD: CommandSpec<GcdRequest, string> = {
  id: 'GCD',
  blocking: COMMANDS.GCD.blocking,
  encode: (req) => {
    const def = (n: string) => abecsIdByName(n)!;
    if (req.maxDigits !== undefined && req.minDigits !== undefined && req.maxDigits < req.minDigits) {
      throw new PinpadError(
        'PINPAD_INVALID_ARGUMENT',
        `GCD: maxDigits ${req.maxDigits} is below minDigits ${req.minDigits}`,
        { field: 'SPE_MAXDIG' },
      );
    }
    const ps: Param[] = [];
    if (req.timeoutS !== undefined) ps.push(param(def('SPE_TIMEOUT'), req.timeoutS));
    if (req.maxDigits !== undefined) ps.push(param(def('SPE_MAXDIG'), req.maxDigits));
    if (req.minDigits !== undefined) ps.push(param(def('SPE_MINDIG'), req.minDigits));
    ps.push(param(def('SPE_MSGIDX'), req.message));
    if (req.alphanumeric !== undefined) ps.push(param(def('SPE_GCDOPT'), req.alphanumeric ? '1000' : '0000'));
    return encodeCommand('GCD', encodeParams(ps));
  },
  decode: (rsp) => {
    const value = decodeParams(rsp.blocks, 'GCD')
      .map(paramValue)
      .find((p) => p.name === 'PP_VALUE');
    if (value === undefined)
      throw new PinpadError('PINPAD_PROTOCOL', 'GCD: PP_VALUE missing from the response', {
        where: 'GCD',
        field: 'PP_VALUE',
      });
    return String(value.value);
  },
};
