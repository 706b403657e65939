import { CARD_COMMANDS } from '../../../../tables/pinpad/card-commands.js';
import { PinpadError } from '../../errors.js';
import { encodeCommand } from '../../codec/message.js';
import { encodeParams } from '../../codec/params.js';
import type { CommandSpec } from '../spec.js';
import { bytes, digits, hex, iv8, params, readData, type Data } from './kit.js';

/** GTK with method 51 (§3.3.12, §5.4.2): DUKPT:TDES:DAT#3 in CBC with the terminal's IV; no open digits. */
export interface GtkRequest {
  /** SPE_KEYIDX: the DUKPT data key slot. */
  keyIndex: number;
  /** SPE_IVCBC: 8 random bytes, sent to the host beside the ciphertext. */
  iv: Uint8Array;
  /** SPE_TRACKS: which data (default PAN and track 2). */
  pan?: boolean;
  track1?: boolean;
  track2?: boolean;
  track3?: boolean;
}

/** One encrypted datum: ciphertext (hex, whole 8-byte blocks) and the KSN it was made under. */
export interface EncryptedField {
  data: string;
  ksn: string;
}

export interface GtkResult {
  /** The IV the data was encrypted with (hex). */
  iv: string;
  pan?: EncryptedField;
  track1?: EncryptedField;
  track2?: EncryptedField;
  track3?: EncryptedField;
}

function field(d: Data, data: string, ksn: string, where: string): EncryptedField | undefined {
  const c = bytes(d, data);
  if (c === undefined) return undefined;
  const k = bytes(d, ksn);
  if (c.length === 0 || c.length % 8 !== 0)
    throw new PinpadError('PINPAD_PROTOCOL', `${where}: ${data} of ${c.length} bytes is not whole 8-byte blocks`, {
      where,
      field: data,
    });
  if (!k || k.length !== 10)
    throw new PinpadError('PINPAD_PROTOCOL', `${where}: ${ksn} missing beside ${data} (DUKPT)`, { where, field: ksn });
  return { data: hex(c), ksn: hex(k) };
}

/** GTK (§3.3.12): the tracks and PAN of the card GCX/CEX read, encrypted inside the pinpad; only once per card. */
export const GTK: CommandSpec<GtkRequest, GtkResult> = {
  id: 'GTK',
  blocking: CARD_COMMANDS.GTK.blocking,
  encode: (r) => {
    const flags = `${(r.pan ?? true) ? 1 : 0}${r.track1 ? 1 : 0}${(r.track2 ?? true) ? 1 : 0}${r.track3 ? 1 : 0}`;
    return encodeCommand(
      'GTK',
      encodeParams(
        params([
          ['SPE_TRACKS', flags],
          ['SPE_MTHDDAT', '51'],
          ['SPE_IVCBC', iv8(r.iv)],
          ['SPE_KEYIDX', digits(r.keyIndex, 2, 'SPE_KEYIDX')],
        ]),
      ),
    );
  },
  decode: (rsp, req) => {
    const d = readData(rsp, 'GTK');
    const out: GtkResult = { iv: hex(req.iv) };
    const pan = field(d, 'PP_ENCPAN', 'PP_ENCPANKSN', 'GTK');
    const t1 = field(d, 'PP_TRACK1', 'PP_TRK1KSN', 'GTK');
    const t2 = field(d, 'PP_TRACK2', 'PP_TRK2KSN', 'GTK');
    const t3 = field(d, 'PP_TRACK3', 'PP_TRK3KSN', 'GTK');
    return {
      ...out,
      ...(pan ? { pan } : {}),
      ...(t1 ? { track1: t1 } : {}),
      ...(t2 ? { track2: t2 } : {}),
      ...(t3 ? { track3: t3 } : {}),
    };
  },
};
