import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetMqttSettings } from '../../../src/config/fleet.js';
import { loadConfig } from '../../../src/config/index.js';
import { shippedConfig, writeConfig } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();

function configWith(dir: string, extra: Record<string, unknown>): string {
  return writeConfig(path.join(dir, 'omnipos.json'), { ...shippedConfig(), stateDir: dir, ...extra });
}

describe('fleet.mqtt in the configuration', () => {
  it('is absent by default: no broker', () => {
    const dir = tempDir();
    expect(fleetMqttSettings(loadConfig({ path: configWith(dir, {}), env: {} }))).toBeUndefined();
  });

  it('derives the prefix and client id from merchant and terminal, and reads credentials from files', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'user'), 'term-42004201\n');
    writeFileSync(path.join(dir, 'pass'), 's3cret-pass\n');
    writeFileSync(path.join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
    const config = loadConfig({
      path: configWith(dir, {
        fleet: {
          mqtt: {
            url: 'mqtts://broker.example:8883',
            merchant: 'loja-7',
            usernameFile: 'user',
            passwordFile: 'pass',
            caFile: 'ca.pem',
          },
        },
      }),
      env: {},
    });
    const s = fleetMqttSettings(config);
    expect(s).toMatchObject({
      url: 'mqtts://broker.example:8883',
      prefix: 'omnipos/loja-7/42004201',
      clientId: 'omnipos-42004201',
      username: 'term-42004201',
      keepaliveSeconds: 30,
    });
    expect(s?.password?.reveal()).toBe('s3cret-pass');
    expect(JSON.stringify(s)).not.toContain('s3cret-pass');
  });

  it('refuses mqtt:// outside the sandbox (as the configuration loads: config check tells it), a certificate without its key, and an unreadable file', () => {
    const dir = tempDir();
    const clear = (): unknown =>
      loadConfig({
        path: configWith(dir, { environment: 'homologation', fleet: { mqtt: { url: 'mqtt://broker.example:1883' } } }),
        env: {},
      });
    expect(clear).toThrow(/fleet\.mqtt\.url: must be mqtts:\/\/ in homologation/);
    const half = loadConfig({
      path: configWith(dir, { fleet: { mqtt: { url: 'mqtts://b:8883', certFile: 'c.pem' } } }),
      env: {},
    });
    expect(() => fleetMqttSettings(half)).toThrow(/certFile and keyFile go together/);
    const missing = loadConfig({
      path: configWith(dir, { fleet: { mqtt: { url: 'mqtts://b:8883', caFile: 'nope.pem' } } }),
      env: {},
    });
    expect(() => fleetMqttSettings(missing)).toThrow(/fleet\.mqtt\.caFile: cannot read nope\.pem: ENOENT/);
    expect(() => loadConfig({ path: configWith(dir, { fleet: { mqtt: { url: 'http://b' } } }), env: {} })).toThrow(
      /fleet\.mqtt\.url/,
    );
  });
});
