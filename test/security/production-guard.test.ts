import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { runCliCaptured } from '../helpers/cli.js';
import {
  omniOf,
  productionConfig as production,
  shippedConfig,
  writeConfig,
  writeConfigWithSecret,
} from '../helpers/config.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';

/**
 * The production guard as an assessor tries it: `omnipos config check` (and the daemon's start,
 * which loads the configuration the same way) on a production configuration that exposes the
 * terminal. Each is refused, naming its key; secrets open to group or others are refused outside
 * the sandbox; the token files are tightened on every start.
 */
const temp = useTempDirs();
const tempDir = (): string => temp('omnipos-sec-guard-');

/** `config` written with its own client secret (mode 0600) and then changed by `change`; config check's answer. */
async function check(
  c: Record<string, any>,
  dir = tempDir(),
  change: (c: Record<string, any>, dir: string) => void = () => undefined,
): Promise<{ code: number; err: string }> {
  writeConfigWithSecret(dir, c, 'live-secret-7f3a');
  change(c, dir);
  const file = writeConfig(path.join(dir, 'omnipos.json'), c);
  return runCliCaptured(['config', 'check', '--config', file]);
}

/** `cardNotPresent` of kind `webservice15` on a store key of its own (mode 0600), or on `key`. */
function webservice15(c: Record<string, any>, dir: string, key = 'live-store-key-9c1e'): void {
  writeFileSync(path.join(dir, 'ws15.key'), `${key}\n`, { mode: 0o600 });
  c.cardNotPresent = {
    kind: 'webservice15',
    url: 'https://ecommerce.cielo.com.br/servicos/ecommwsec.do',
    affiliation: '1006993069',
    keyFile: 'ws15.key',
  };
}

describe('the production guard', () => {
  it('accepts the production configuration the refusals start from, with the webservice 1.5 too', async () => {
    expect((await check(production())).code).toBe(0);
    expect((await check(production(), tempDir(), webservice15)).code).toBe(0);
  });

  const exposures: [string, (c: Record<string, any>, dir: string) => void, string][] = [
    ['api.host 0.0.0.0 (the plain-HTTP API on the LAN)', (c) => (c.api = { host: '0.0.0.0' }), 'api.host'],
    ['api.host on a LAN address', (c) => (c.api = { host: '192.168.0.10' }), 'api.host'],
    [
      'an http:// alarm webhook with a token in its query',
      (c, dir) => {
        writeFileSync(path.join(dir, 'hook'), 'whsec\n', { mode: 0o600 });
        c.alarms = { webhook: { url: 'http://alarms.example/hook?token=abc', secretFile: 'hook' } };
      },
      'alarms.webhook.url',
    ],
    [
      'a tcp pinpad on loopback',
      (c) => (c.pinpad.device = { kind: 'tcp', host: '127.0.0.1', port: 4000 }),
      'pinpad.device.host',
    ],
    [
      "the sandbox's merchant key",
      (c) => {
        c.acquirer.omni.merchantId = 'b1b4d7a2-0000-4000-8000-00000000c0de';
        c.acquirer.omni.merchantKeyFile = omniOf(shippedConfig()).merchantKeyFile;
      },
      'acquirer.omni.merchantKeyFile',
    ],
    [
      'an acquirer at an IPv4-mapped loopback address',
      (c) => (c.acquirer.omni.requestUrl = 'https://[::ffff:7f00:1]'),
      'acquirer.omni.requestUrl',
    ],
    ['an MQTT broker in clear', (c) => (c.fleet = { mqtt: { url: 'mqtt://broker.example:1883' } }), 'fleet.mqtt.url'],
    [
      "the webservice 1.5 test store's key, as its manual publishes it (ws15:1528)",
      (c, dir) => webservice15(c, dir, SANDBOX_CREDENTIALS.webservice15Key),
      'cardNotPresent.keyFile',
    ],
  ];
  for (const [what, change, key] of exposures) {
    it(`refuses ${what}, naming ${key} (config check exits 2; the daemon's start throws)`, async () => {
      const dir = tempDir();
      const r = await check(production(), dir, change);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`${key}:`);
      expect(() => loadConfig({ path: path.join(dir, 'omnipos.json'), env: {} })).toThrow(
        new RegExp(key.replace(/\./g, '\\.')),
      );
    });
  }

  it('refuses a client secret its group may read, outside the sandbox (never printing it)', async () => {
    const dir = tempDir();
    const c = production();
    const file = writeConfigWithSecret(dir, c, 'live-secret-7f3a');
    chmodSync(path.join(dir, 'secret'), 0o640);
    const r = await runCliCaptured(['config', 'check', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/acquirer\.omni\.clientSecretFile: .*mode 0640/);
    expect(r.err).not.toContain('live-secret-7f3a');
    chmodSync(path.join(dir, 'secret'), 0o600);
    expect((await runCliCaptured(['config', 'check', '--config', file])).code).toBe(0);
  });

  it("refuses the webservice 1.5's key file its group may read, as the acquirer's (never printing it)", async () => {
    const dir = tempDir();
    const c = production();
    webservice15(c, dir);
    chmodSync(path.join(dir, 'ws15.key'), 0o640);
    const file = writeConfigWithSecret(dir, c, 'live-secret-7f3a');
    const r = await runCliCaptured(['config', 'check', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cardNotPresent\.keyFile: .*mode 0640/);
    expect(r.err).not.toContain('live-store-key-9c1e');
    chmodSync(path.join(dir, 'ws15.key'), 0o600);
    const ok = await runCliCaptured(['config', 'check', '--config', file]);
    expect(ok.code).toBe(0);
    // config check prints it masked, under its kind.
    expect(ok.out).not.toContain('live-store-key-9c1e');
    const described = JSON.parse(ok.out) as { secrets: { cardNotPresent: unknown } };
    expect(described.secrets.cardNotPresent).toEqual({
      kind: 'webservice15',
      webservice15: { key: `[secret from ${path.join(dir, 'ws15.key')}]` },
    });
  });

  it('tightens the token files to 0600 on every start', async () => {
    const stateDir = tempDir();
    const first = await startTestDaemon({ stateDir });
    await first.stop();
    for (const name of ['api-token', 'supervisor-token']) chmodSync(path.join(stateDir, name), 0o644);
    const again = await startTestDaemon({ stateDir });
    await again.stop();
    for (const name of ['api-token', 'supervisor-token'])
      expect((statSync(path.join(stateDir, name)).mode & 0o777).toString(8)).toBe('600');
  });
});
