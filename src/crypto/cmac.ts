/** AES-CMAC (NIST SP 800-38B, RFC 4493): node:crypto has no CMAC, and AES KCVs and AES DUKPT MACs need it. */
import { toBytes, type BytesLike } from './bytes.js';
import { AES_BLOCK, aesEcb } from './ciphers.js';

function shiftLeft(block: Buffer): Buffer {
  const out = Buffer.alloc(AES_BLOCK);
  for (let i = 0; i < AES_BLOCK; i++) out[i] = ((block[i]! << 1) | ((block[i + 1] ?? 0) >>> 7)) & 0xff;
  if (block[0]! & 0x80) out[AES_BLOCK - 1]! ^= 0x87;
  return out;
}

/** The 16-byte AES-CMAC of a message under an AES key (16, 24 or 32 bytes). */
export function aesCmac(key: BytesLike, message: BytesLike): Buffer {
  const k = toBytes(key, { what: 'AES key', lengths: [16, 24, 32], code: 'CRYPTO_INVALID_KEY' });
  const m = toBytes(message, { what: 'message' });
  const k1 = shiftLeft(aesEcb(k, Buffer.alloc(AES_BLOCK)));
  const k2 = shiftLeft(k1);
  const blocks = Math.max(1, Math.ceil(m.length / AES_BLOCK));
  const complete = m.length > 0 && m.length % AES_BLOCK === 0;
  const last = Buffer.alloc(AES_BLOCK);
  const tail = m.subarray((blocks - 1) * AES_BLOCK);
  last.set(tail);
  if (!complete) last[tail.length] = 0x80;
  const sub = complete ? k1 : k2;
  for (let i = 0; i < AES_BLOCK; i++) last[i]! ^= sub[i]!;
  let x: Buffer = Buffer.alloc(AES_BLOCK);
  for (let b = 0; b < blocks - 1; b++) {
    for (let i = 0; i < AES_BLOCK; i++) x[i]! ^= m[b * AES_BLOCK + i]!;
    x = aesEcb(k, x);
  }
  for (let i = 0; i < AES_BLOCK; i++) x[i]! ^= last[i]!;
  return aesEcb(k, x);
}
