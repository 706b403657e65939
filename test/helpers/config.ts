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
  c.acquirer = {
    ...c.acquirer,
    clientSecretFile: path.resolve(dir, String(c.acquirer!.clientSecretFile)),
    merchantKeyFile: path.resolve(dir, String(c.acquirer!.merchantKeyFile)),
  };
  return c;
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
  config.acquirer.clientSecretFile = 'secret';
  delete config.acquirer.merchantKeyFile;
  delete config.acquirer.merchantId;
  delete config.$schema;
  return writeConfig(path.join(dir, 'omnipos.json'), config);
}
