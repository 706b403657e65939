import { generateKeyPair } from 'node:crypto';
import { WALLET_RSA_BITS } from '../crypto/index.js';

/** 81.01 `DDMMYYHHmmss` in host time → epoch ms, or undefined. */
export function qrInstant(ts: string): number | undefined {
  const m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(ts);
  if (!m) return undefined;
  const [, dd, mo, yy, hh, mi, ss] = m.map(Number) as [number, number, number, number, number, number, number];
  // São Paulo has no daylight saving time since 2019: UTC-3.
  const ms = Date.UTC(2000 + yy, mo - 1, dd, hh + 3, mi, ss);
  return Number.isNaN(ms) ? undefined : ms;
}

/** An RSA-2048 wallet key pair made on libuv's thread pool: Base64 DER SPKI public key, PKCS#8 PEM private key. */
export function makeKeyPair(): Promise<{ publicKey: string; privateKeyPem: string }> {
  return new Promise((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: WALLET_RSA_BITS }, (e, publicKey, privateKey) => {
      if (e) {
        reject(e);
        return;
      }
      resolve({
        publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
        privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      });
    });
  });
}
