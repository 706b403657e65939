import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH, loadConfig } from '../../../src/config/index.js';
import { loadConfigQuickly } from '../../../src/config/load-quick.js';
import { writeConfigWithSecret } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * `omnipos api token` loads the configuration with loadConfigQuickly (zod only when the fast path
 * declines): the same configuration as loadConfig, and for a broken one the same error, message and
 * problems, zod's.
 */

const tempDir = useTempDirs();

function shipped(): Record<string, any> {
  return JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8'));
}

async function both(
  path: string,
  env: Record<string, string> = {},
): Promise<[{ ok: unknown } | { error: unknown }, { ok: unknown } | { error: unknown }]> {
  const slow = ((): { ok: unknown } | { error: unknown } => {
    try {
      return { ok: loadConfig({ path, env }) };
    } catch (error) {
      return { error };
    }
  })();
  const quick = await loadConfigQuickly({ path, env }).then(
    (ok) => ({ ok }),
    (error: unknown) => ({ error }),
  );
  return [slow, quick];
}

function sameOutcome(slow: { ok: unknown } | { error: unknown }, quick: { ok: unknown } | { error: unknown }): void {
  if ('ok' in slow) {
    expect(quick).toHaveProperty('ok');
    expect(JSON.stringify((quick as { ok: unknown }).ok)).toBe(JSON.stringify(slow.ok));
    expect((quick as { ok: unknown }).ok).toStrictEqual(slow.ok);
  } else {
    expect(quick).toHaveProperty('error');
    const [a, b] = [slow.error as Error & { code?: string; context?: unknown }, (quick as { error: any }).error];
    expect([b.code, b.message, b.context]).toEqual([a.code, a.message, a.context]);
  }
}

describe('loadConfigQuickly', () => {
  it('a valid configuration, with overrides: the same as loadConfig', async () => {
    const path = writeConfigWithSecret(tempDir(), shipped());
    const env = {
      OMNIPOS_STATE_DIR: '/var/lib/omnipos',
      OMNIPOS_TERMINAL__TERMINAL_ID: '42004301',
      OMNIPOS_QR__POLL_MS: '250',
    };
    const [slow, quick] = await both(path, env);
    expect(slow).toHaveProperty('ok');
    sameOutcome(slow, quick);
  });

  it('broken configurations: the same error and problems as loadConfig (zod decides)', async () => {
    const broken: [string, (c: Record<string, any>) => void, Record<string, string>?][] = [
      ['a bad URL', (c) => (c.acquirer.omni.authUrl = 'ftp://x')],
      ['a missing key', (c) => delete c.terminal.terminalId],
      ['an unknown key', (c) => (c.printer.colour = 'red')],
      ['a port out of range', (c) => (c.api = { port: 70000 })],
      ['an unknown override', () => undefined, { OMNIPOS_NOPE: '1' }],
      ['an override of the wrong type', () => undefined, { OMNIPOS_QR__POLL_MS: 'soon' }],
      ['production without its keys', (c) => (c.environment = 'production')],
    ];
    for (const [what, change, env] of broken) {
      const c = shipped();
      change(c);
      const [slow, quick] = await both(writeConfigWithSecret(tempDir(), c), env);
      expect(slow, what).toHaveProperty('error');
      sameOutcome(slow, quick);
    }
  });

  it('a missing file, a file that is not JSON: the same errors', async () => {
    const dir = tempDir();
    writeFileSync(`${dir}/array.json`, '[]');
    writeFileSync(`${dir}/text.json`, '{ "stateDir": ');
    for (const path of [`${dir}/absent.json`, `${dir}/array.json`, `${dir}/text.json`]) {
      const [slow, quick] = await both(path);
      expect(slow).toHaveProperty('error');
      sameOutcome(slow, quick);
    }
  });
});
