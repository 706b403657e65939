import { describe, expect, it } from 'vitest';
import { runCliCaptured as cli } from '../../helpers/cli.js';

const BDK = '0123456789ABCDEFFEDCBA9876543210';
const KSN1 = 'FFFF9876543210E00001';

describe('omnipos tools pinblock', () => {
  it('encode: the annex PIN block under the DUKPT PIN key of BDK and KSN', async () => {
    const r = await cli([
      'tools',
      'pinblock',
      'encode',
      '--pin',
      '1234',
      '--pan',
      '4012345678909',
      '--bdk',
      BDK,
      '--ksn',
      KSN1,
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ clearBlock: '041274EDCBA9876F', encryptedPinBlock: '1B9C1845EB993A7A' });
  });

  it('encode: --random reproduces the IBM ISO format 3 example; no key, no configuration needed', async () => {
    const r = await cli(
      [
        'tools',
        'pinblock',
        'encode',
        '--pin',
        '123456',
        '--pan',
        '1112223334445550',
        '--format',
        '3',
        '--random',
        'AFBECDDC',
        '--json',
      ],
      {
        OMNIPOS_ENVIRONMENT: 'production',
      },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ format: 3, clearBlock: '361216759CFA8889' });
  });

  it('encode and decode format 4 under AES DUKPT (X9.24-3 test BDK)', async () => {
    const keys = ['--bdk', 'FEDCBA9876543210F1F1F1F1F1F1F1F1', '--ksn', '123456789012345600000001'];
    const enc = await cli([
      'tools',
      'pinblock',
      'encode',
      '--pin',
      '1234',
      '--pan',
      '4111111111111111',
      '--format',
      '4',
      ...keys,
      '--json',
    ]);
    expect(enc.code).toBe(0);
    const { clearBlock, encryptedPinBlock } = JSON.parse(enc.out) as Record<string, string>;
    expect(clearBlock).toMatch(/^441234AAAAAAAAAA[0-9A-F]{16}$/);
    const dec = await cli([
      'tools',
      'pinblock',
      'decode',
      '--block',
      encryptedPinBlock!,
      '--pan',
      '4111111111111111',
      '--format',
      '4',
      ...keys,
      '--json',
    ]);
    expect(dec.code).toBe(0);
    expect(JSON.parse(dec.out)).toEqual({ format: 4, pin: '1234' });
  });

  it('decode: the annex encrypted PIN block gives 1234', async () => {
    const r = await cli([
      'tools',
      'pinblock',
      'decode',
      '--block',
      '1B9C1845EB993A7A',
      '--pan',
      '4012345678909',
      '--bdk',
      BDK,
      '--ksn',
      KSN1,
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ format: 0, pin: '1234' });
  });

  it.each([
    [['--block', '041274EDCBA9876E', '--pan', '4012345678909'], 'fill'],
    [['--block', '141274EDCBA9876F', '--pan', '4012345678909'], 'control field'],
    [['--block', '041274EDCBA98', '--pan', '4012345678909'], '8 bytes'],
    [
      ['--block', '1B9C1845EB993A7A', '--pan', '4012345678909', '--bdk', BDK, '--ksn', 'FFFF9876543210E00002'],
      'PIN block',
    ],
    [['--block', '041274EDCBA9876F', '--pan', '4012345678909', '--format', '2'], '--format'],
    [['--block', '041274EDCBA9876F'], '--pan'],
  ])('decode exits 2 with the reason for %j', async (args, reason) => {
    const r = await cli(['tools', 'pinblock', 'decode', ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(reason);
  });

  it('refuses a key outside the sandbox environment', async () => {
    const r = await cli(['tools', 'pinblock', 'encode', '--pin', '1234', '--pan', '4012345678909', '--key', BDK], {
      OMNIPOS_ENVIRONMENT: 'homologation',
    });
    expect(r.code).toBe(4);
    expect(r.out).toBe('');
  });
});
