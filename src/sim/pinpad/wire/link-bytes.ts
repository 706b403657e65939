/**
 * The link's special bytes as the pinpad reads them (ABECS 2.20 §2.2, table of control characters),
 * written here from the specification for the virtual pinpad's own reader and writer.
 */
export const EOT = 0x04;
export const ACK = 0x06;
export const DC2 = 0x12;
export const DC3 = 0x13;
export const NAK = 0x15;
export const SYN = 0x16;
export const ETB = 0x17;
export const CAN = 0x18;

/** §2.2.1: an escaped byte is DC3 followed by the byte plus 20h; only DC3, SYN and ETB are escaped. */
export const ESCAPED_FORMS: ReadonlySet<number> = new Set([DC3 + 0x20, SYN + 0x20, ETB + 0x20]);

/** §2.2.1: PKTDATA holds at most 2049 bytes ("original", unescaped). */
export const MAX_PKTDATA = 2049;
/** §2.2.1 / §3.1.3: a packet longer than 1024 bytes is only allowed for an "Abecs" command. */
export const MAX_CLASSIC_PKTDATA = 1024;

/**
 * CRC-16 of §7.2 (polynomial 1021h, initial value 0, MSB first, no final XOR), over the original
 * PKTDATA and ETB. Written from the specification's algorithm, not shared with the driver.
 */
export function linkCrc(data: Uint8Array, withEtb = true): number {
  let crc = 0;
  const step = (b: number): void => {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = (crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1) & 0xffff;
  };
  for (const b of data) step(b);
  if (withEtb) step(ETB);
  return crc;
}

/** The packet for PKTDATA (§2.2.1): SYN, PKTDATA with DC3/SYN/ETB escaped, ETB, CRC high then low. */
export function writePacket(data: Uint8Array): Uint8Array {
  const out: number[] = [SYN];
  for (const b of data) {
    if (b === DC3 || b === SYN || b === ETB) out.push(DC3, b + 0x20);
    else out.push(b);
  }
  const crc = linkCrc(data);
  out.push(ETB, crc >> 8, crc & 0xff);
  return Uint8Array.from(out);
}
