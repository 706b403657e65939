import { CARD_COMMANDS } from '../../../../tables/pinpad/card-commands.js';
import { PinpadError } from '../../errors.js';
import { encodeCommand } from '../../codec/message.js';
import { encodeParams } from '../../codec/params.js';
import type { CommandSpec } from '../spec.js';
import { bytes, need, params, readData, tagList, text } from './kit.js';

/** An FCX request (§3.7.4): the host's answer, or that none came. */
export interface FcxRequest {
  outcome: 'approved' | 'declined' | 'no-communication';
  /** SPE_ARC: the authorization response code (tag 8A) the host sent; required unless no-communication. */
  arc?: string;
  /** SPE_EMVDATA: the host's TLV (91 issuer authentication data, 71/72 issuer scripts). */
  emvData?: Uint8Array;
  /** SPE_TAGLIST: the second tag list. */
  tags?: readonly string[] | Uint8Array;
  /** Wait for a contactless card shown again for issuer scripts, seconds. */
  timeoutS?: number;
}

export interface FcxResult {
  /** The card's own decision. */
  decision: 'approved' | 'declined';
  result: string;
  emvData?: Uint8Array;
  issuerScriptResults?: Uint8Array;
}

const OUTCOME = { approved: 0, declined: 1, 'no-communication': 2 } as const;

/** FCX (§3.7.4): finishes the chip with the host's answer; the card gives its second cryptogram. */
export const FCX: CommandSpec<FcxRequest, FcxResult> = {
  id: 'FCX',
  blocking: CARD_COMMANDS.FCX.blocking,
  encode: (r) => {
    if (r.outcome !== 'no-communication' && (r.arc === undefined || !/^[\x20-\x7e]{2}$/.test(r.arc))) {
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'SPE_ARC: two characters are required when the host answered', {
        field: 'SPE_ARC',
      });
    }
    return encodeCommand(
      'FCX',
      encodeParams(
        params([
          ['SPE_EMVDATA', r.emvData],
          ['SPE_TAGLIST', r.tags === undefined ? undefined : tagList(r.tags)],
          ['SPE_ARC', r.outcome === 'no-communication' ? undefined : r.arc],
          ['SPE_FCXOPT', `${OUTCOME[r.outcome]}000`],
          ['SPE_TIMEOUT', r.timeoutS],
        ]),
      ),
    );
  },
  decode: (rsp) => {
    const d = readData(rsp, 'FCX');
    // The specification's own FCX example (§3.7.4) answers with id 8056h (PP_GOXRES) holding 3 digits:
    // read that too when PP_FCXRES (8058h) is absent.
    const legacy = text(d, 'PP_GOXRES');
    const res = text(d, 'PP_FCXRES') === undefined && legacy?.length === 3 ? legacy : need(d, 'PP_FCXRES', 'FCX');
    if (!/^[01]\d\d$/.test(res))
      throw new PinpadError('PINPAD_PROTOCOL', 'FCX: PP_FCXRES is not 0xx or 1xx', {
        where: 'FCX',
        field: 'PP_FCXRES',
      });
    const emv = bytes(d, 'PP_EMVDATA');
    const isr = bytes(d, 'PP_ISRESULTS');
    return {
      decision: res[0] === '0' ? 'approved' : 'declined',
      result: res,
      ...(emv ? { emvData: Uint8Array.from(emv) } : {}),
      ...(isr ? { issuerScriptResults: Uint8Array.from(isr) } : {}),
    };
  },
};
