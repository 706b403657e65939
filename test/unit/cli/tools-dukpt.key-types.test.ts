import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
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
