import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decryptPin } from '../../../src/crypto/index.js';
import { runCliCaptured as cli } from '../../helpers/cli.js';

interface Suite {
  bdk: 'bdk128' | 'bdk256';
  bdkType: string;
  keyType: string;
  rows: { ksn: string; pinKey: string; macKeyRequest: string; dataKeyRequest: string }[];
}
const V = JSON.parse(
  readFileSync(new URL('../../vectors/crypto/x9.24-3-2017-key-combinations.json', import.meta.url), 'utf8'),
) as {
  bdk128: string;
  bdk256: string;
  suites: Suite[];
};
const KSN1 = '123456789012345600000001';

describe('omnipos tools pinblock: PIN keys of any AES DUKPT key type', () => {
  const tdes2 = V.suites.find((s) => s.keyType === 'tdes2')!.rows[0]!.pinKey;
  const aes128of256 = V.suites.find((s) => s.bdkType === 'aes256' && s.keyType === 'aes128')!.rows[0]!.pinKey;

  it('format 0 under the 2TDEA PIN key of an AES-128 BDK: the published key decrypts it', async () => {
    const r = await cli([
      'tools',
      'pinblock',
      'encode',
      '--pin',
      '1234',
      '--pan',
      '4111111111111111',
      '--bdk',
      V.bdk128,
      '--ksn',
      KSN1,
      '--key-type',
      'tdes2',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { encryptedPinBlock: string; keyType: string; ksn: string };
    expect(j).toMatchObject({ keyType: 'tdes2', ksn: KSN1 });
    expect(decryptPin({ format: 0, pan: '4111111111111111', block: j.encryptedPinBlock, key: tdes2 })).toBe('1234');
    const back = await cli([
      'tools',
      'pinblock',
      'decode',
      '--block',
      j.encryptedPinBlock,
      '--pan',
      '4111111111111111',
      '--bdk',
      V.bdk128,
      '--ksn',
      KSN1,
      '--key-type',
      'tdes2',
      '--json',
    ]);
    expect(JSON.parse(back.out)).toEqual({ format: 0, pin: '1234' });
  });

  it('format 4 with a 7-digit PAN under the AES-128 PIN key of an AES-256 BDK: the published key decrypts it', async () => {
    const args = [
      '--pan',
      '1234567',
      '--format',
      '4',
      '--bdk',
      V.bdk256,
      '--ksn',
      KSN1,
      '--bdk-type',
      'aes256',
      '--key-type',
      'aes128',
      '--json',
    ];
    const r = await cli(['tools', 'pinblock', 'encode', '--pin', '98765', ...args]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { encryptedPinBlock: string };
    expect(decryptPin({ format: 4, pan: '1234567', block: j.encryptedPinBlock, key: aes128of256 })).toBe('98765');
    const back = await cli(['tools', 'pinblock', 'decode', '--block', j.encryptedPinBlock, ...args]);
    expect(JSON.parse(back.out)).toEqual({ format: 4, pin: '98765' });
  });

  it.each([
    [['--format', '0', '--key-type', 'aes128'], 'format 0 needs a TDES PIN key'],
    [['--format', '4', '--key-type', 'tdes3'], 'format 4 needs an AES PIN key'],
    [['--format', '3', '--scheme', 'aes'], 'format 3 needs a TDES PIN key'],
  ])('exits 2 when the PIN key does not fit the format: %j', async (args, reason) => {
    const r = await cli([
      'tools',
      'pinblock',
      'encode',
      '--pin',
      '1234',
      '--pan',
      '4111111111111111',
      '--bdk',
      V.bdk128,
      '--ksn',
      KSN1,
      ...args,
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(reason);
  });

  it('--key-type with --key (no DUKPT) exits 2 instead of being ignored', async () => {
    const r = await cli([
      'tools',
      'pinblock',
      'encode',
      '--pin',
      '1234',
      '--pan',
      '1234567',
      '--format',
      '4',
      '--key',
      '00112233445566778899AABBCCDDEEFF',
      '--key-type',
      'aes128',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--key-type go with --bdk and --ksn');
  });
});
