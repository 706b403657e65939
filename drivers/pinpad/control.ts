/** Link-layer control bytes (ABECS 2.20 §2.2). */
export const EOT = 0x04;
export const ACK = 0x06;
export const DC2 = 0x12;
export const DC3 = 0x13;
export const NAK = 0x15;
export const SYN = 0x16;
export const ETB = 0x17;
export const CAN = 0x18;

/** Largest unescaped PKTDATA (§2.2.1). */
export const MAX_PKTDATA = 2049;

/** Line speed of the physical level (§2.1): 19200 bps, 8N1, so 10 bits on the wire per byte. */
export const WIRE_BPS = 19200;
export const WIRE_BITS_PER_BYTE = 10;
