import { createCipheriv, createDecipheriv } from 'node:crypto';
import { DC2, linkCrc } from '../wire/link-bytes.js';

/**
 * The secure packet as the pinpad handles it (ABECS 2.20 §5.2.2.1 and §5.2.2.2), written for the
 * virtual pinpad: PKTDATA = DC2 then AES-128-CBC (KSEC, IV zero) of DATALEN (X2), DATACRC (X2, the
 * §7.2 CRC of CLRDATA), CLRDATA and 00h filler to a multiple of 16.
 */
export const KSEC_BYTES = 16;
/** §5.2.2: DATALEN "até 2044 bytes". */
export const MAX_CLRDATA = 2044;

function aes(decrypt: boolean, key: Uint8Array, data: Uint8Array): Buffer {
  const iv = Buffer.alloc(16);
  const c = decrypt ? createDecipheriv('aes-128-cbc', key, iv) : createCipheriv('aes-128-cbc', key, iv);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]);
}

export function isSecurePacket(pktdata: Uint8Array): boolean {
  return pktdata.length > 0 && pktdata[0] === DC2;
}

/** The pinpad's answer sealed under KSEC. */
export function sealAnswer(ksec: Uint8Array, clr: Uint8Array): Uint8Array {
  if (clr.length > MAX_CLRDATA) throw new RangeError(`CLRDATA of ${clr.length} bytes exceeds ${MAX_CLRDATA}`);
  const plain = Buffer.alloc(Math.ceil((4 + clr.length) / 16) * 16);
  plain.writeUInt16BE(clr.length, 0);
  plain.writeUInt16BE(linkCrc(clr, false), 2);
  plain.set(clr, 4);
  const enc = aes(false, ksec, plain);
  plain.fill(0);
  return Uint8Array.from(Buffer.concat([Buffer.of(DC2), enc]));
}

/**
 * Opens a command received sealed; undefined when §5.2.2.2's checks fail (ciphertext not a
 * positive multiple of 16, DATALEN beyond the data, DATALEN over 2044, DATACRC wrong).
 */
export function openCommand(ksec: Uint8Array, pktdata: Uint8Array): Uint8Array | undefined {
  const body = pktdata.subarray(1);
  if (!isSecurePacket(pktdata) || body.length === 0 || body.length % 16 !== 0) return undefined;
  const plain = aes(true, ksec, body);
  const len = plain.readUInt16BE(0);
  if (len > plain.length - 4 || len > MAX_CLRDATA) return undefined;
  const clr = Uint8Array.from(plain.subarray(4, 4 + len));
  const ok = linkCrc(clr, false) === plain.readUInt16BE(2);
  plain.fill(0);
  return ok ? clr : undefined;
}
