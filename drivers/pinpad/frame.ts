import { DC3, ETB, MAX_PKTDATA, SYN } from './control.js';
import { crc16 } from './crc.js';
import { PinpadError } from './errors.js';

/** True for the bytes that must be escaped inside PKTDATA (§2.2.1): DC3, SYN, ETB. */
export function needsEscape(b: number): boolean {
  return b === DC3 || b === SYN || b === ETB;
}

/** The CRC of a packet: over PKTDATA (unescaped) followed by ETB. */
export function packetCrc(data: Uint8Array): number {
  return crc16(Uint8Array.of(ETB), crc16(data));
}

/**
 * Encodes PKTDATA as a packet: `SYN escaped(data) ETB CRC-hi CRC-lo` (§2.2.1). DC3, SYN and ETB
 * inside the data become DC3 followed by the byte plus 20h; the CRC bytes after ETB are raw.
 */
export function encodeFrame(data: Uint8Array): Uint8Array {
  if (data.length === 0 || data.length > MAX_PKTDATA) {
    throw new PinpadError(
      'PINPAD_INVALID_ARGUMENT',
      `packet data must be 1..${MAX_PKTDATA} bytes, got ${data.length}`,
      {
        length: data.length,
      },
    );
  }
  let escapes = 0;
  for (const b of data) if (needsEscape(b)) escapes++;
  const out = new Uint8Array(data.length + escapes + 4);
  let o = 0;
  out[o++] = SYN;
  for (const b of data) {
    if (needsEscape(b)) {
      out[o++] = DC3;
      out[o++] = b + 0x20;
    } else out[o++] = b;
  }
  out[o++] = ETB;
  const crc = packetCrc(data);
  out[o++] = crc >> 8;
  out[o++] = crc & 0xff;
  return out;
}

/** Bytes on the wire for a packet of this data (for timing): SYN, escaped data, ETB, 2 CRC bytes. */
export function wireLength(data: Uint8Array): number {
  let n = data.length + 4;
  for (const b of data) if (needsEscape(b)) n++;
  return n;
}
