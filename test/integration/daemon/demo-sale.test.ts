import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { runCliCaptured } from '../../helpers/cli.js';

const tempDir = useTempDirs();

function demo(args: string[]) {
  return runCliCaptured(['demo', 'sale', '--state-dir', tempDir(), ...args]);
}

describe('omnipos demo sale (the README run command)', () => {
  it('runs an approved chip sale on the embedded default to confirmed, with a test-environment receipt', async () => {
    const r = await demo([]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('AMBIENTE DE TESTE - SEM VALOR');
    expect(r.out).toMatch(/CARTÃO +476173\*{6}0060/);
    expect(r.out).toMatch(/host approved → finishing-chip/);
    expect(r.out).toMatch(/result: confirmed \(confirmed\)/);
    expect(r.out).not.toMatch(/4761730000000060/);
  });

  it('a declined amount ends declined, and an ECR confirmation waits for the cash register', async () => {
    expect((await demo(['--amount', '1011'])).out).toMatch(/result: declined/);
    const ecr = await demo(['--confirmation', 'ecr']);
    expect(ecr.out).toMatch(/→ awaiting-decision \(approved\)/);
    expect(ecr.out).toMatch(/result: confirmed/);
  });

  it('refuses a bad amount with exit 2', async () => {
    expect((await demo(['--amount', '10.10'])).code).toBe(2);
  });
});
