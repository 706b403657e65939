/**
 * CRC-16 of ABECS 2.20 §7.2: polynomial 1021h, initial value 0000h, MSB first, no final XOR.
 * Computed over the unescaped PKTDATA plus ETB; sent high byte first.
 */
export function crc16(bytes: Uint8Array, init = 0): number {
  let crc = init;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
