import { ascii, concat } from './bytes.js';
import { PinpadError } from '../errors.js';

/** A decoded response (§2.3.2): `RSP_ID RSP_STAT [RSP_LEN RSP_BLK]…`. */
export interface Response {
  readonly id: string;
  readonly status: number;
  readonly blocks: readonly Uint8Array[];
}

/** Largest CMD_BLK/RSP_BLK (§2.3.1). */
export const MAX_BLOCK = 999;

const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

function n3(n: number): Uint8Array {
  return ascii(String(n).padStart(3, '0'));
}

/** Encodes a command (§2.3.1): CMD_ID then each block preceded by its N3 length. No blocks gives the bare id (`OPN`). */
export function encodeCommand(id: string, blocks: readonly Uint8Array[] = []): Uint8Array {
  if (!/^[A-Z0-9]{3}$/.test(id))
    throw new PinpadError('PINPAD_INVALID_ARGUMENT', `command id must be 3 characters, got ${JSON.stringify(id)}`, {
      id,
    });
  const parts: Uint8Array[] = [ascii(id)];
  for (const b of blocks) {
    if (b.length > MAX_BLOCK)
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', `${id}: block of ${b.length} bytes exceeds ${MAX_BLOCK}`, {
        id,
        length: b.length,
      });
    parts.push(n3(b.length), b);
  }
  return concat(parts);
}

/** Encodes a response (the virtual pinpad's side): RSP_ID, RSP_STAT, then the blocks (none unless status is 0). */
export function encodeResponse(id: string, status: number, blocks: readonly Uint8Array[] = []): Uint8Array {
  const parts: Uint8Array[] = [ascii(id), n3(status)];
  for (const b of status === 0 ? blocks : []) parts.push(n3(b.length), b);
  return concat(parts);
}

function splitBlocks(data: Uint8Array, from: number, where: string): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  let at = from;
  while (at < data.length) {
    const lenText = text(data.subarray(at, at + 3));
    if (!/^\d{3}$/.test(lenText)) {
      throw new PinpadError('PINPAD_PROTOCOL', `${where}: block length at offset ${at} is not 3 digits`, {
        where,
        offset: at,
      });
    }
    const len = Number(lenText);
    if (at + 3 + len > data.length) {
      throw new PinpadError(
        'PINPAD_PROTOCOL',
        `${where}: block at offset ${at} declares ${len} bytes, ${data.length - at - 3} left`,
        {
          where,
          offset: at,
        },
      );
    }
    blocks.push(data.subarray(at + 3, at + 3 + len));
    at += 3 + len;
  }
  return blocks;
}

/** Decodes a response packet's data. A malformed one is a PINPAD_PROTOCOL error with the offset. */
export function decodeResponse(data: Uint8Array): Response {
  const id = text(data.subarray(0, 3));
  const statusText = text(data.subarray(3, 6));
  if (data.length < 6 || !/^\d{3}$/.test(statusText)) {
    throw new PinpadError('PINPAD_PROTOCOL', `response ${JSON.stringify(id)} has no 3-digit status`, {
      where: id,
      offset: 3,
    });
  }
  return { id, status: Number(statusText), blocks: splitBlocks(data, 6, id) };
}

/** Decodes a command packet's data (the virtual pinpad's side): CMD_ID and blocks. */
export function decodeCommand(data: Uint8Array): { id: string; blocks: Uint8Array[] } {
  if (data.length < 3)
    throw new PinpadError('PINPAD_PROTOCOL', `command of ${data.length} bytes has no id`, { offset: 0 });
  const id = text(data.subarray(0, 3));
  return { id, blocks: splitBlocks(data, 3, id) };
}
