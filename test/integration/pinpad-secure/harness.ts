import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DriverLogger } from '../../../drivers/pinpad/index.js';

/** A driver logger that keeps every line as JSON, unscrubbed: what the driver itself would write. */
export function captureLog(): DriverLogger & { lines: string[] } {
  const lines: string[] = [];
  const put = (level: string) => (obj: object, msg?: string) => {
    lines.push(
      JSON.stringify({ level, ...obj, msg }, (_k, v: unknown) =>
        v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
      ),
    );
  };
  return { lines, debug: put('debug'), info: put('info'), warn: put('warn') };
}

/** The ways a key's bytes could be written: hex (both cases), Base64, Base64url, and as a JSON byte list. */
export function spellings(bytes: Uint8Array): string[] {
  const b = Buffer.from(bytes);
  return [
    b.toString('hex'),
    b.toString('hex').toUpperCase(),
    b.toString('base64'),
    b.toString('base64url'),
    Array.from(b).join(','),
  ];
}

/** Secret parts of the terminal's private key file: d, p, q, dp, dq, qi and the PEM body. */
export function privateKeySecrets(pemFile: string): Uint8Array[] {
  const pem = readFileSync(pemFile, 'utf8');
  const jwk = createPrivateKey(pem).export({ format: 'jwk' });
  const parts = [jwk.d, jwk.p, jwk.q, jwk.dp, jwk.dq, jwk.qi].map((x) => Uint8Array.from(Buffer.from(x!, 'base64url')));
  const body = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return [...parts, Uint8Array.from(body)];
}

/** Every spelling of every secret found in `text` (a 12-character window of each, enough to be unique). */
export function secretsIn(text: string, secrets: readonly Uint8Array[]): string[] {
  const found: string[] = [];
  for (const s of secrets) {
    for (const sp of spellings(s)) {
      const probe = sp.slice(0, Math.min(sp.length, 24));
      if (text.includes(probe)) found.push(probe);
    }
  }
  return found;
}

export function until(pred: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (pred()) resolve();
      else if (Date.now() > end) reject(new Error('condition not met in time'));
      else setTimeout(tick, 10);
    };
    tick();
  });
}
