/**
 * CRC-16/CCITT-FALSE (poly 1021h, init FFFFh, no reflection, no final XOR), the checksum of
 * EMV MPM object 63 (ISO/IEC 13239). Check value: `crc16("123456789")` = 29B1h.
 */
const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[n] = c;
  }
  return t;
})();

const UTF8 = new TextEncoder();

/** CRC over bytes. */
export function crc16Bytes(bytes: Uint8Array, init = 0xffff): number {
  let crc = init;
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ bytes[i]!) & 0xff]!;
  return crc;
}

/** CRC over the UTF-8 bytes of `text` (ASCII fast path). */
export function crc16(text: string): number {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return crc16Bytes(UTF8.encode(text));
    crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ c) & 0xff]!;
  }
  return crc;
}

const HEX = '0123456789ABCDEF';

/** The CRC as object 63 carries it: four upper-case hex digits. */
export function crc16Hex(text: string): string {
  const c = crc16(text);
  return HEX[c >>> 12]! + HEX[(c >>> 8) & 0xf]! + HEX[(c >>> 4) & 0xf]! + HEX[c & 0xf]!;
}
