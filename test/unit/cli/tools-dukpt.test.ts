import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH } from '../../../src/config/index.js';
import { encryptData, toHex, xor } from '../../../src/crypto/index.js';
import { runCliCaptured as cli } from '../../helpers/cli.js';

const BDK = '0123456789ABCDEFFEDCBA9876543210';
const KSN1 = 'FFFF9876543210E00001';

describe('omnipos tools dukpt', () => {
  it('prints the X9.24-1:2009 annex keys for KSN ...E00001 as JSON', async () => {
    const r = await cli(['tools', 'dukpt', '--bdk', BDK, '--ksn', KSN1, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, string>;
    expect(j.ipek).toBe('6AC292FAA1315B4D858AB3A3D7D5933A');
    expect(j.transactionKey).toBe('042666B49184CFA368DE9628D0397BC9');
    // PIN key = published transaction key XOR the PIN variant mask (X9.24-1:2009 table A-1)
    expect(j.pinKey).toBe(
      toHex(
        xor(
          Buffer.from('042666B49184CFA368DE9628D0397BC9', 'hex'),
          Buffer.from('00000000000000FF00000000000000FF', 'hex'),
        ),
      ),
    );
    // the data key encrypts the annex sample data to the published request ciphertext
    expect(toHex(encryptData(j.dataKey!, Buffer.from('4012345678909D987')))).toBe(
      'FC0D53B7EA1FDA9EE68AAF2E70D9B9506229BE2AA993F04F',
    );
  });

  it('prints the X9.24-3:2017 AES-128 initial and transaction keys', async () => {
    const r = await cli([
      'tools',
      'dukpt',
      '--bdk',
      'FEDCBA9876543210F1F1F1F1F1F1F1F1',
      '--ksn',
      '123456789012345600000001',
      '--scheme',
      'aes128',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, string>;
    expect(j.ipek).toBe('1273671EA26AC29AFA4D1084127652A1');
    expect(j.transactionKey).toBe('4F21B565BAD9835E112B6465635EAE44');
    expect(j.pinKey).toMatch(/^[0-9A-F]{32}$/);
  });

  it('reads the acquirer KSN layout and prints readable lines by default', async () => {
    const r = await cli([
      'tools',
      'dukpt',
      '--bdk',
      BDK,
      '--ksn',
      'FFFFF030331234500012',
      '--config',
      DEFAULT_CONFIG_PATH,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ipek\s+[0-9A-F]{32}$/m);
    expect(r.out).toMatch(/^counter\s+1048594$/m);
  });

  it.each([
    [['--bdk', BDK, '--ksn', 'FFFF9876543210E007FF'], 'one-bits'],
    [['--bdk', '0123', '--ksn', KSN1], 'BDK'],
    [['--bdk', BDK, '--ksn', KSN1, '--scheme', 'des'], '--scheme'],
    [['--bdk', BDK, '--ksn', '123456789012345600000001', '--scheme', 'aes256'], 'BDK'],
    [['--ksn', KSN1], '--bdk'],
  ])('exits 2 with the reason for %j', async (args, reason) => {
    const r = await cli(['tools', 'dukpt', ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(reason);
    expect(r.out).toBe('');
  });

  it('refuses outside the sandbox environment (exit 4), printing no key', async () => {
    const r = await cli(['tools', 'dukpt', '--bdk', BDK, '--ksn', KSN1], { OMNIPOS_ENVIRONMENT: 'homologation' });
    expect(r.code).toBe(4);
    expect(r.err).toContain('sandbox');
    expect(r.out).toBe('');
  });
});
