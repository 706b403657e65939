import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG_PATH } from '../../src/config/index.js';

/** A configuration as its JSON file holds it: sections by name. */
export type ConfigJson = Record<string, Record<string, unknown>>;

/**
 * The shipped configuration (config/omnipos.json) with its relative files (the sandbox's client secret and
 * merchant key) made absolute and without `$schema`, so that a copy written anywhere reads the same.
 */
export function shippedConfig(): ConfigJson {
  const c = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as ConfigJson;
  delete c.$schema;
  const dir = path.dirname(DEFAULT_CONFIG_PATH);
  const omni = omniOf(c);
  omni.clientSecretFile = path.resolve(dir, String(omni.clientSecretFile));
  omni.merchantKeyFile = path.resolve(dir, String(omni.merchantKeyFile));
  return c;
}

/**
 * The omni acquirer's keys of a configuration's JSON, to change in place: `acquirer.omni`, or `acquirer`
 * itself in a file of the shape before the kinds (omni's keys flat).
 */
export function omniOf(config: Record<string, any>): Record<string, unknown> {
  return (config.acquirer.omni ?? config.acquirer) as Record<string, unknown>;
}

/** Writes `config` as JSON to `file` (a path in a test's temporary folder) and returns the path. */
export function writeConfig(file: string, config: unknown, indent?: number): string {
  writeFileSync(file, JSON.stringify(config, null, indent));
  return file;
}

/**
 * `config` (a configuration's JSON, e.g. config/omnipos.json as read, changed by the test) written to
 * `<dir>/omnipos.json` with the acquirer's client secret in a file beside it (`secret`), without the e-commerce
 * credentials (they are optional) or `$schema`: a configuration that reads only its own secret, which a test can
 * make a production one. Returns the file's path.
 */
export function writeConfigWithSecret(
  dir: string,
  config: Record<string, any>,
  secret = 'a-real-looking-secret',
): string {
  writeFileSync(path.join(dir, 'secret'), `${secret}\n`, { mode: 0o600 });
  const omni = omniOf(config);
  omni.clientSecretFile = 'secret';
  delete omni.merchantKeyFile;
  delete omni.merchantId;
  delete config.$schema;
  return writeConfig(path.join(dir, 'omnipos.json'), config);
}

/**
 * The shipped configuration (as its JSON) made a production one that loads: real devices, no embedded
 * sandbox, every omni address https, the keys the real host needs. Its secret is written by
 * `writeConfigWithSecret` (which drops the e-commerce credentials).
 */
export function productionConfig(): Record<string, any> {
  const c: Record<string, any> = shippedConfig();
  c.environment = 'production';
  c.sandbox.embedded = false;
  c.pinpad.device = { kind: 'serial', path: '/dev/pinpad' };
  c.printer = { kind: 'usb', vendorId: '0519', productId: '0001' };
  const omni = omniOf(c);
  for (const k of [
    'authUrl',
    'requestUrl',
    'queryUrl',
    'parametersUrl',
    'registrationUrl',
    'walletUrl',
    'ecommerceUrl',
    'ecommerceQueryUrl',
  ])
    omni[k] = 'https://api.acquirer.example';
  omni.clientId = 'merchant-client-7f3a';
  c.terminal.orderIdTerminal = 4711;
  c.terminal.softDescriptor = 'PADARIA SOL';
  return c;
}
