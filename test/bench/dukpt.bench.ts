/**
 * DUKPT PIN block: derive the PIN key from BDK and KSN (X9.24-1:2009) and encrypt an ISO format 0 block,
 * ours beside the npm package `dukpt` (the one a user would pick), over the 21 KSNs of the annex's initial series.
 * Both are checked against the published encrypted blocks before timing.
 */
import { createRequire } from 'node:module';
import { bench, describe } from 'vitest';
import { deriveIpek, encodePinBlock, encryptPinBlock, pinKey, toHex } from '../../src/crypto/index.js';

interface PeerDukpt {
  dukptEncrypt(
    data: string,
    options: { inputEncoding: string; outputEncoding: string; encryptionMode: string },
  ): string;
}
const Dukpt = createRequire(import.meta.url)('dukpt') as new (bdk: string, ksn: string, mode: string) => PeerDukpt;

const BDK = '0123456789ABCDEFFEDCBA9876543210';
const KSNS = Array.from(
  { length: 21 },
  (_, i) => `FFFF9876543210E${(i + 1).toString(16).toUpperCase().padStart(5, '0')}`,
);
const FIRST = '1B9C1845EB993A7A'; // X9.24-1:2009 A.4.2, KSN ...E00001

function ours(ksn: string): string {
  const clear = encodePinBlock({ format: 0, pin: '1234', pan: '4012345678909' });
  return toHex(encryptPinBlock(pinKey(deriveIpek(BDK, ksn), ksn), clear));
}

function peer(ksn: string): string {
  const clear = '041274EDCBA9876F'; // the peer has no PIN block builder: give it the clear block
  return new Dukpt(BDK, ksn, 'pinkey')
    .dukptEncrypt(clear, { inputEncoding: 'hex', outputEncoding: 'hex', encryptionMode: '3DES' })
    .toUpperCase();
}

if (ours(KSNS[0]!) !== FIRST) throw new Error(`ours gives ${ours(KSNS[0]!)}, expected ${FIRST}`);
if (peer(KSNS[0]!) !== FIRST) throw new Error(`dukpt (npm) gives ${peer(KSNS[0]!)}, expected ${FIRST}`);

let i = 0;
describe('DUKPT PIN block (derive PIN key from BDK + KSN, encrypt format 0)', () => {
  bench('omnipos src/crypto', () => {
    ours(KSNS[i++ % KSNS.length]!);
  });
  bench('dukpt (npm 3.0.0)', () => {
    peer(KSNS[i++ % KSNS.length]!);
  });
});
