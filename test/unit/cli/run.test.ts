import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { omniOf, shippedConfig, writeConfig } from '../../helpers/config.js';
import { runCliCaptured as cli } from '../../helpers/cli.js';
import { omniposArgs } from '../../helpers/omnipos-process.js';

const tempDir = useTempDirs();

function badConfigFile(): string {
  const dir = tempDir();
  const c = shippedConfig();
  omniOf(c).queryUrl = 'not a url';
  return writeConfig(path.join(dir, 'bad.json'), c);
}

describe('omnipos CLI', () => {
  it('prints its version and help', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(await cli(['--version'])).toMatchObject({ code: 0, out: `${pkg.version}\n` });
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('config check');
    expect((await cli(['config', 'check', '--help'])).out).toContain('--config PATH');
  });

  it('exits 2 on an unknown command or option', async () => {
    expect((await cli(['frobnicate'])).code).toBe(2);
    const r = await cli(['config', 'check', '--nope']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--nope');
  });

  it('config check prints the effective configuration with secrets masked', async () => {
    const r = await cli(['config', 'check']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).values.environment).toBe('sandbox');
    expect(r.out).not.toContain('omnipos-sandbox-secret-not-for-production');
  });

  it('config check --config <bad file> exits 2 and names the key (in process)', async () => {
    const r = await cli(['config', 'check', '--config', badConfigFile()]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('acquirer.omni.queryUrl: must be an https or http URL');
  });

  it('config check --config <bad file> exits 2 and names the key (the real executable)', () => {
    const r = spawnSync(process.execPath, omniposArgs(['config', 'check', '--config', badConfigFile()]), {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('acquirer.omni.queryUrl: must be an https or http URL');
  });

  it('config check honours OMNIPOS_CONFIG', async () => {
    const r = await cli(['config', 'check'], { OMNIPOS_CONFIG: badConfigFile() });
    expect(r.code).toBe(2);
  });
});

describe('omnipos queue', () => {
  it('lists waiting requests and dead letters, and flush makes the waiting ones due now', async () => {
    const { Outbox, openTerminalDatabase } = await import('../../../src/store/index.js');
    const state = tempDir();
    const db = openTerminalDatabase(state);
    const outbox = new Outbox(db);
    const at = new Date('2026-11-22T13:00:00Z');
    outbox.enqueue({
      operation: 'sale.undo',
      idempotencyKey: 'undo:1',
      payload: { merchantOrderId: '263260010000001' },
      at,
      nextTryAt: new Date('2099-01-01T00:00:00Z'),
    });
    const dead = outbox.enqueue({
      operation: 'sale.confirm',
      idempotencyKey: 'confirm:2',
      payload: { merchantOrderId: '263260010000002' },
      at,
    });
    outbox.deadLetter(dead.id, 'sale was undone; cannot confirm');
    db.close();
    const env = { OMNIPOS_STATE_DIR: state };
    const list = await cli(['queue', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.out).toContain('sale.undo 263260010000001 attempts 0 next try 2099-01-01');
    expect(list.out).toContain('DEAD LETTER: sale was undone; cannot confirm');
    expect(JSON.parse((await cli(['queue', 'list', '--json'], env)).out).depth).toMatchObject({
      pending: 1,
      deadLetters: 1,
    });
    expect((await cli(['queue', 'flush'], env)).out).toBe('1 request(s) due now\n');
    expect((await cli(['queue', 'list'], env)).out).not.toContain('2099');
  });
});
