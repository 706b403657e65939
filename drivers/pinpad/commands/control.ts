import { COMMANDS } from '../../../tables/pinpad/commands.js';
import { abecsIdByName, GIX_DEFAULT_IDS } from '../../../tables/pinpad/abecs-ids.js';
import { CLASSIC_LAYOUTS, ginLayout } from '../../../tables/pinpad/classic-layouts.js';
import type { FieldValue } from '../codec/fields.js';
import { decodeLayout, encodeLayout } from '../codec/layout.js';
import { encodeCommand } from '../codec/message.js';
import { decodeParams, encodeParams, param, paramValue } from '../codec/params.js';
import { blocks, type CommandSpec } from './spec.js';
import { twoLines, type TwoLineText } from './text.js';

/** Classic OPN (§3.2.1): `OPN` -> `OPN000`. No secure channel; the secure OPN is in secure/. */
export const OPN_CLASSIC: CommandSpec<void, void> = {
  id: 'OPN',
  blocking: COMMANDS.OPN.blocking,
  encode: () => encodeCommand('OPN'),
  decode: (rsp) => void blocks(rsp, 0),
};

/** CLO (§3.2.6): ends the session, leaving a 2x16 message on the display. */
export const CLO: CommandSpec<TwoLineText | undefined, void> = {
  id: 'CLO',
  blocking: COMMANDS.CLO.blocking,
  encode: (msg) =>
    encodeCommand('CLO', [encodeLayout(CLASSIC_LAYOUTS.CLO_REQUEST, { CLO_MSG: twoLines(msg ?? '', 'CLO_MSG') })]),
  decode: (rsp) => void blocks(rsp, 0),
};

/** GIN's answer: the fields of the layout for the acquirer index asked, by their spec names, text trimmed. */
export interface GinResult {
  readonly acqIdx: number;
  readonly fields: Readonly<Record<string, FieldValue>>;
}

/** GIN (§3.2.3, obsolete but the only information command of a classic pinpad). */
export const GIN: CommandSpec<number, GinResult> = {
  id: 'GIN',
  blocking: COMMANDS.GIN.blocking,
  encode: (acqIdx) => encodeCommand('GIN', [encodeLayout(CLASSIC_LAYOUTS.GIN_REQUEST, { GIN_ACQIDX: acqIdx })]),
  decode: (rsp, acqIdx) => {
    const [block] = blocks(rsp, 1);
    return { acqIdx, fields: decodeLayout(ginLayout(acqIdx), block!, `GIN ${String(acqIdx).padStart(2, '0')}`) };
  },
};

/** GIX's answer: each datum by PP_ name (the first of repeats), and all of them in order. */
export interface GixResult {
  readonly data: Readonly<Record<string, FieldValue>>;
  readonly entries: readonly { name: string; value: FieldValue }[];
}

/**
 * GIX (§3.2.4). The request always carries SPE_IDLIST: §6.4.3 answers ST_MANDAT without it,
 * while §3.2.4 defaults to the "(†)" set; sending the list works with both readings.
 */
export const GIX: CommandSpec<readonly number[] | undefined, GixResult> = {
  id: 'GIX',
  blocking: COMMANDS.GIX.blocking,
  // the key maps (PP_MKTDESP … PP_DKPTTDESD, 8030h–8036h) make a real PPC930 take 8 s of the 10 (timing.ts of the virtual pinpad)
  longAnswer: (ids) => (ids ?? GIX_DEFAULT_IDS).some((id) => id >= 0x8030 && id <= 0x8036),
  encode: (ids) => {
    const list = ids ?? GIX_DEFAULT_IDS;
    const bytes = new Uint8Array(list.length * 2);
    list.forEach((id, i) => {
      bytes[2 * i] = id >> 8;
      bytes[2 * i + 1] = id & 0xff;
    });
    return encodeCommand('GIX', encodeParams([param(abecsIdByName('SPE_IDLIST')!, bytes)]));
  },
  decode: (rsp) => {
    const entries = decodeParams(rsp.blocks, 'GIX').map(paramValue);
    const data: Record<string, FieldValue> = {};
    for (const e of entries) if (!(e.name in data)) data[e.name] = e.value;
    return { data, entries };
  },
};
