import { CARD_COMMANDS, MEDIA_TYPES } from '../../../../tables/pinpad/card-commands.js';
import { PARAM_PATTERNS } from '../../../../tables/pinpad/command-params.js';
import { PinpadError } from '../../errors.js';
import { crc16 } from '../../crc.js';
import { encodeCommand } from '../../codec/message.js';
import { encodeParams, MAX_PARLEN } from '../../codec/params.js';
import { blocks, type CommandSpec } from '../spec.js';
import { params } from './kit.js';

/** A multimedia file name (SPE_MFNAME, §3.1.3.1 A8): exactly 8 letters or digits. */
function mfName(name: string): string {
  if (!PARAM_PATTERNS.SPE_MFNAME!.test(name))
    throw new PinpadError(
      'PINPAD_INVALID_ARGUMENT',
      `SPE_MFNAME: expected 8 letters or digits (A8, no spaces), got ${JSON.stringify(name)}`,
      { field: 'SPE_MFNAME' },
    );
  return name.toUpperCase();
}

export interface MliRequest {
  name: string;
  type: keyof typeof MEDIA_TYPES;
  size: number;
  /** CRC of the whole file (§7.2's CRC-16: the same function as the packets'). */
  crc: number;
}

/** SPE_MFINFO: X4 size, B2 CRC, B1 type, B3 RUF. */
export function mediaInfo(r: Pick<MliRequest, 'type' | 'size' | 'crc'>): Uint8Array {
  const b = Buffer.alloc(10);
  b.writeUInt32BE(r.size, 0);
  b.writeUInt16BE(r.crc & 0xffff, 4);
  b.writeUInt8(MEDIA_TYPES[r.type], 6);
  return b;
}

/** MLI (§3.4.1): starts loading a file. */
export const MLI: CommandSpec<MliRequest, void> = {
  id: 'MLI',
  blocking: CARD_COMMANDS.MLI.blocking,
  encode: (r) =>
    encodeCommand(
      'MLI',
      encodeParams(
        params([
          ['SPE_MFNAME', mfName(r.name)],
          ['SPE_MFINFO', mediaInfo(r)],
        ]),
      ),
    ),
  decode: (rsp) => void blocks(rsp, 0),
};

/** MLR (§3.4.2): a piece of the file, as SPE_DATAIN parameters (at most 995 bytes each). */
export const MLR: CommandSpec<Uint8Array, void> = {
  id: 'MLR',
  blocking: CARD_COMMANDS.MLR.blocking,
  encode: (chunk) => {
    const ps = [];
    for (let i = 0; i < chunk.length; i += MAX_PARLEN)
      ps.push(...params([['SPE_DATAIN', chunk.subarray(i, i + MAX_PARLEN)]]));
    return encodeCommand('MLR', encodeParams(ps));
  },
  decode: (rsp) => void blocks(rsp, 0),
};

/** MLE (§3.4.3): the pinpad checks size and CRC and keeps the file. */
export const MLE: CommandSpec<void, void> = {
  id: 'MLE',
  blocking: CARD_COMMANDS.MLE.blocking,
  longAnswer: () => true, // the file is committed to flash
  encode: () => encodeCommand('MLE'),
  decode: (rsp) => void blocks(rsp, 0),
};

/** DSI (§3.4.6): shows a loaded file. */
export const DSI: CommandSpec<string, void> = {
  id: 'DSI',
  blocking: CARD_COMMANDS.DSI.blocking,
  encode: (name) => encodeCommand('DSI', encodeParams(params([['SPE_MFNAME', mfName(name)]]))),
  decode: (rsp) => void blocks(rsp, 0),
};

/** CRC of a media file for MLI. */
export function mediaCrc(file: Uint8Array): number {
  return crc16(file);
}

/** Loads and shows an image (a QR code on the customer's side): MLI, MLR in pieces of at most `chunk` bytes, MLE, DSI. */
export async function showImage(
  p: { run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: { signal?: AbortSignal }): Promise<Res> },
  image: { name: string; type: keyof typeof MEDIA_TYPES; data: Uint8Array },
  chunk = 1500,
): Promise<void> {
  await p.run(MLI, { name: image.name, type: image.type, size: image.data.length, crc: mediaCrc(image.data) });
  for (let i = 0; i < image.data.length; i += chunk) await p.run(MLR, image.data.subarray(i, i + chunk));
  await p.run(MLE, undefined);
  await p.run(DSI, image.name);
}
