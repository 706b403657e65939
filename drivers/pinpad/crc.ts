/** The CRC of each byte value, shifted through the polynomial once: the per-byte step is one lookup, not eight. */
const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[n] = c;
  }
  return t;
})();

/**
 * CRC-16 of ABECS 2.20 §7.2: polynomial 1021h, initial value 0000h, MSB first, no final XOR.
 * Computed over the unescaped PKTDATA plus ETB; sent high byte first.
 */
export function crc16(bytes: Uint8Array, init = 0): number {
  let crc = init & 0xffff;
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >>> 8) ^ bytes[i]!) & 0xff]!;
  return crc;
}
