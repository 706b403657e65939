import { DC2 } from '../control.js';
import { crc16 } from '../crc.js';
import { PinpadError } from '../errors.js';
import { SessionAes, aesCbcOnce, checkKsec } from './packet-aes.js';

export { KSEC_LENGTH } from './packet-aes.js';
/** Largest CLRDATA a secure packet carries (§5.2.2: DATALEN "até 2044 bytes"; 1 + 2048 = the 2049 of §2.2.1). */
export const MAX_CLRDATA = 2044;

const BLOCK = 16;
/** A session's cipher (its key schedule made once), or KSEC itself (a cipher made for the one packet). */
export type PacketKey = SessionAes | Uint8Array;

function checkKey(key: PacketKey): void {
  if (!(key instanceof SessionAes)) checkKsec(key);
}

function aes(decrypt: boolean, key: PacketKey, data: Uint8Array): Buffer {
  if (key instanceof SessionAes) return decrypt ? key.decrypt(data) : key.encrypt(data);
  return aesCbcOnce(decrypt, key, data);
}

/** True when PKTDATA is a secure-channel packet (starts with DC2, §2.3). */
export function isSealed(pktdata: Uint8Array): boolean {
  return pktdata.length > 0 && pktdata[0] === DC2;
}

/**
 * Seals CLRDATA (§5.2.2.1): `DATALEN(X2) DATACRC(X2) CLRDATA FILLER(00h..)` to a multiple of 16,
 * AES-128-CBC under KSEC with a zero IV, preceded by DC2. The CRC is the link's (§7.2) over CLRDATA.
 */
export function sealPacket(key: PacketKey, clr: Uint8Array): Uint8Array {
  checkKey(key);
  if (clr.length > MAX_CLRDATA) {
    throw new PinpadError(
      'PINPAD_INVALID_ARGUMENT',
      `secure channel: ${clr.length} bytes of CLRDATA exceed ${MAX_CLRDATA} (§5.2.2)`,
      { length: clr.length },
    );
  }
  const plain = Buffer.alloc(Math.ceil((4 + clr.length) / BLOCK) * BLOCK);
  plain.writeUInt16BE(clr.length, 0);
  plain.writeUInt16BE(crc16(clr), 2);
  plain.set(clr, 4);
  const out = new Uint8Array(1 + plain.length);
  out[0] = DC2;
  out.set(aes(false, key, plain), 1);
  return out;
}

/** Why a sealed packet does not open (the three checks of §5.2.2.2). */
export type OpenFailure = 'not-sealed' | 'length' | 'datalen' | 'datacrc';

/**
 * Opens a DC2 packet (§5.2.2.2) and runs its checks: the ciphertext a multiple of 16, DATALEN
 * within it, DATACRC equal to the CRC of CLRDATA. A failure is PINPAD_PROTOCOL with
 * `context.reason` (an OpenFailure); nothing of the packet or the key goes into the error.
 */
export function openPacket(key: PacketKey, pktdata: Uint8Array, where = 'secure channel'): Uint8Array {
  checkKey(key);
  const fail = (reason: OpenFailure, message: string): PinpadError =>
    new PinpadError('PINPAD_PROTOCOL', `${where}: ${message}`, { where, reason });
  if (!isSealed(pktdata)) throw fail('not-sealed', 'the packet does not start with DC2');
  const body = pktdata.subarray(1);
  if (body.length === 0 || body.length % BLOCK !== 0)
    throw fail('length', `${body.length} bytes of ciphertext are not a positive multiple of ${BLOCK}`);
  const plain = aes(true, key, body);
  const len = plain.readUInt16BE(0);
  if (len > plain.length - 4) throw fail('datalen', `DATALEN ${len} exceeds the ${plain.length - 4} bytes after it`);
  const clr = plain.subarray(4, 4 + len);
  if (crc16(clr) !== plain.readUInt16BE(2)) throw fail('datacrc', 'DATACRC does not match CLRDATA');
  const out = Uint8Array.from(clr);
  plain.fill(0);
  return out;
}
