import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { runCliCaptured as cli } from '../../helpers/cli.js';

const tempDir = useTempDirs();

/** A store as the manual's merchant table lists it; the CNPJ has valid check digits (11.444.777/0001-61). */
const STORE = {
  TradeName: 'PADARIA TESTE',
  CompanyName: 'PADARIA TESTE LTDA',
  DocumentNumber: '11444777000161',
  DocumentType: 'Cnpj',
  Mcc: 5462,
  PhoneNumber: '1133334444',
  Email: 'loja@example.com',
  Address: { ZipCode: '01310-100', Street: 'AV PAULISTA', Number: '1000' },
  Owner: {
    Name: 'Maria Teste',
    Email: 'maria@example.com',
    PhoneNumber: '11999998888',
    MessengerPhone: '11999998888',
    Gender: 'Female',
  },
};

describe('omnipos register, against the embedded sandbox host', () => {
  it('registers a store, reads it back, registers a terminal for it; a taken terminal id and a bad CNPJ are refused naming the field', async () => {
    const dir = tempDir();
    // Port 0: the sandbox host starts here on a free port, with its database in the state directory.
    const env = { OMNIPOS_STATE_DIR: dir, OMNIPOS_SANDBOX__PORT: '0' };
    writeFileSync(path.join(dir, 'store.json'), JSON.stringify(STORE));
    const created = await cli(['register', 'merchant', '--file', path.join(dir, 'store.json'), '--json'], env);
    expect(created.err).toMatch(/embedded sandbox host started here/);
    expect(created.code).toBe(0);
    const merchant = JSON.parse(created.out) as { SubordinatedMerchantId: string };
    expect(merchant.SubordinatedMerchantId).toMatch(/^[0-9a-f-]{36}$/);

    const got = await cli(['register', 'merchant', '--get', merchant.SubordinatedMerchantId], env);
    expect(got.code).toBe(0);
    expect(got.out).toContain(`SubordinatedMerchantId ${merchant.SubordinatedMerchantId}`);
    expect(got.out).toContain('Cnpj 11444777000161');

    const terminal = await cli(
      [
        'register',
        'terminal',
        '--terminal-id',
        '42004299',
        '--merchant',
        merchant.SubordinatedMerchantId,
        '--model',
        '1',
        '--serial',
        'VPP0000000001',
      ],
      env,
    );
    expect(terminal.code).toBe(0);
    expect(terminal.out).toContain(`terminal 42004299 registered for ${merchant.SubordinatedMerchantId}`);
    const again = await cli(
      [
        'register',
        'terminal',
        '--terminal-id',
        '42004299',
        '--merchant',
        merchant.SubordinatedMerchantId,
        '--skip-equipment',
      ],
      env,
    );
    expect(again.code).toBe(2);
    expect(again.err).toContain('TerminalId');

    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ ...STORE, DocumentNumber: '11444777000162' }));
    const bad = await cli(['register', 'merchant', '--file', path.join(dir, 'bad.json')], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('DocumentNumber');
  }, 60_000);

  it('refuses bad arguments with exit 2 before any request', async () => {
    const env = { OMNIPOS_STATE_DIR: tempDir() };
    expect((await cli(['register', 'merchant'], env)).code).toBe(2);
    expect((await cli(['register', 'terminal', '--terminal-id', 'short', '--skip-equipment'], env)).code).toBe(2);
    expect((await cli(['register', 'terminal', '--terminal-id', '42004299'], env)).err).toContain('--skip-equipment');
  });
});
