import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { decryptPin } from '../../../src/crypto/index.js';

async function cli(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t), env });
  return { code, out, err };
}

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

describe('omnipos tools dukpt: AES DUKPT working key types (X9.24-3:2017 supplement)', () => {
  it.each(V.suites)(
    '--bdk-type $bdkType --key-type $keyType prints the published keys of KSN ...0001',
    async (suite) => {
      const row = suite.rows[0]!;
      const r = await cli([
        'tools',
        'dukpt',
        '--bdk',
        V[suite.bdk],
        '--ksn',
        row.ksn,
        '--bdk-type',
        suite.bdkType,
        '--key-type',
        suite.keyType,
        '--json',
      ]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({
        scheme: 'aes',
        bdkType: suite.bdkType,
        keyType: suite.keyType,
        pinKey: row.pinKey,
        macKey: row.macKeyRequest,
        dataKey: row.dataKeyRequest,
      });
    },
  );

  it('--scheme aes128 with a 32-byte BDK: an AES-256 BDK deriving AES-128 keys (it was refused)', async () => {
    const r = await cli(['tools', 'dukpt', '--bdk', V.bdk256, '--ksn', KSN1, '--scheme', 'aes128', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      bdkType: 'aes256',
      keyType: 'aes128',
      pinKey: '09C9C432966811D6B2C3336BAC1B1202',
    });
  });

  it.each([
    [['--bdk', V.bdk128, '--key-type', 'aes256'], 'an aes128 BDK cannot give aes256 working keys'],
    [['--bdk', V.bdk128, '--scheme', 'aes192'], 'an aes128 BDK cannot give aes192 working keys'],
    [['--bdk', V.bdk128, '--bdk-type', 'aes192'], 'BDK: aes192 expects 24 bytes, got 16 bytes'],
    [['--bdk', V.bdk128, '--key-type', 'des'], '--key-type: expected tdes2, tdes3, aes128, aes192, aes256'],
    [['--bdk', V.bdk128, '--bdk-type', 'tdes2'], '--bdk-type: expected aes128, aes192, aes256'],
    [['--bdk', '0123456789ABCDEFFEDCBA9876543210', '--scheme', 'tdes', '--key-type', 'aes128'], 'AES DUKPT'],
  ])('exits 2 with the reason for %j', async (args, reason) => {
    const r = await cli(['tools', 'dukpt', '--ksn', KSN1, ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(reason);
    expect(r.out).toBe('');
  });
});

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
