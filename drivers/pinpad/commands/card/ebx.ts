import { CARD_COMMANDS } from '../../../../tables/pinpad/card-commands.js';
import { PinpadError } from '../../errors.js';
import { encodeCommand } from '../../codec/message.js';
import { encodeParams } from '../../codec/params.js';
import type { CommandSpec } from '../spec.js';
import { bytes, digits, hex, iv8, params, readData } from './kit.js';
import type { EncryptedField } from './gtk.js';

/** EBX with method 51 (§3.3.6): a block (multiple of 8, at most 256 bytes) under the DUKPT data key, CBC with an IV. */
export interface EbxRequest {
  data: Uint8Array;
  keyIndex: number;
  iv: Uint8Array;
}

export interface EbxResult extends EncryptedField {
  iv: string;
}

/** EBX (§3.3.6): encrypts a block inside the pinpad; used for a typed card number. */
export const EBX: CommandSpec<EbxRequest, EbxResult> = {
  id: 'EBX',
  blocking: CARD_COMMANDS.EBX.blocking,
  encode: (r) => {
    if (r.data.length === 0 || r.data.length % 8 !== 0 || r.data.length > 256) {
      throw new PinpadError(
        'PINPAD_INVALID_ARGUMENT',
        `SPE_DATAIN: ${r.data.length} bytes; expected a multiple of 8 up to 256`,
        { field: 'SPE_DATAIN' },
      );
    }
    return encodeCommand(
      'EBX',
      encodeParams(
        params([
          ['SPE_DATAIN', r.data],
          ['SPE_MTHDDAT', '51'],
          ['SPE_KEYIDX', digits(r.keyIndex, 2, 'SPE_KEYIDX')],
          ['SPE_IVCBC', iv8(r.iv)],
        ]),
      ),
    );
  },
  decode: (rsp, req) => {
    const d = readData(rsp, 'EBX');
    const out = bytes(d, 'PP_DATAOUT');
    const ksn = bytes(d, 'PP_KSN');
    if (!out || out.length !== req.data.length)
      throw new PinpadError('PINPAD_PROTOCOL', 'EBX: PP_DATAOUT missing or not the size of SPE_DATAIN', {
        where: 'EBX',
        field: 'PP_DATAOUT',
      });
    if (!ksn || ksn.length !== 10)
      throw new PinpadError('PINPAD_PROTOCOL', 'EBX: PP_KSN missing (DUKPT)', { where: 'EBX', field: 'PP_KSN' });
    return { data: hex(out), ksn: hex(ksn), iv: hex(req.iv) };
  },
};

/**
 * A typed card number as EBX's block, packed like GTK packs a PAN (§5.4.2.2): one digit per nibble,
 * 'F' filler to whole 8-byte blocks. The caller wipes the digits it holds; `wipe` clears this block.
 */
export function typedPanBlock(pan: string): Uint8Array {
  if (!/^\d{12,19}$/.test(pan))
    throw new PinpadError(
      'PINPAD_INVALID_ARGUMENT',
      `typed card number: expected 12 to 19 digits, got ${pan.length} characters`,
      { field: 'SPE_DATAIN' },
    );
  const nibbles = pan.padEnd(Math.ceil(pan.length / 16) * 16, 'F');
  return Buffer.from(nibbles, 'hex');
}

/** Overwrites a buffer that held card data. */
export function wipe(b: Uint8Array): void {
  b.fill(0);
}
