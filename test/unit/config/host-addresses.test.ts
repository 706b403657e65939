import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type ConfigProblem } from '../../../src/config/index.js';
import { OmniposError } from '../../../src/core/errors/index.js';
import { productionConfig, writeConfig, writeConfigWithSecret } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * The adversary of "TLS everywhere it leaves the machine": it does not read the guards' lists
 * (host-addresses.ts, outside-sandbox.ts) but the configuration's own JSON Schema
 * (config/omnipos.schema.json) for every key that holds an address (named `url` or `…Url`), fills a
 * production configuration with every optional block that has one, and changes each address in turn:
 * in clear off loopback it must be refused outside the sandbox, naming its key. The `webservice15`
 * card-not-present endpoint was refused by neither guard until this test (the store's access key and the
 * typed card numbers of phone orders went there), and an alarm webhook in clear passed in homologation.
 */
const tempDir = useTempDirs();

type Json = Record<string, any>;

/** Every key path of the schema whose name says it holds an address, through unions and nested objects. */
function addressKeysOfSchema(): string[] {
  const schema = JSON.parse(readFileSync('config/omnipos.schema.json', 'utf8')) as Json;
  const found: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Json;
    for (const [k, v] of Object.entries((n.properties ?? {}) as Json)) {
      const p = at ? `${at}.${k}` : k;
      if (/^url$|Url$/.test(k)) found.push(p);
      walk(v, p);
    }
    for (const u of ['anyOf', 'oneOf', 'allOf']) for (const m of (n[u] ?? []) as unknown[]) walk(m, at);
  };
  walk(schema, '');
  return [...new Set(found)].sort();
}

/** A production configuration with every optional block that holds an address, all on TLS, in `dir`. */
function everyAddress(dir: string): { config: Json; write: (c: Json) => string } {
  const c = productionConfig();
  const file = writeConfigWithSecret(dir, c, 'live-secret-7f3a');
  for (const f of ['ws15.key', 'hook']) writeFileSync(path.join(dir, f), 'not-a-sandbox-value\n', { mode: 0o600 });
  c.cardNotPresent = {
    kind: 'webservice15',
    url: 'https://ecommerce.acquirer.example/servicos/ecommwsec.do',
    affiliation: '1006993069',
    keyFile: 'ws15.key',
  };
  c.alarms = { webhook: { url: 'https://alarms.example/hook', secretFile: 'hook' } };
  c.fleet = { mqtt: { url: 'mqtts://broker.example:8883' } };
  return { config: c, write: (changed) => writeConfig(file, changed) };
}

/** Every string of `c` that is an address (`scheme://`), by its key path. */
function addressLeaves(c: unknown, at = ''): [string, string][] {
  if (typeof c === 'string') return /^[a-z][a-z0-9+.-]*:\/\//.test(c) ? [[at, c]] : [];
  if (c === null || typeof c !== 'object') return [];
  return Object.entries(c).flatMap(([k, v]) => addressLeaves(v, at ? `${at}.${k}` : k));
}

function set(c: Json, key: string, value: string): Json {
  const copy = structuredClone(c);
  const parts = key.split('.');
  let o = copy;
  for (const p of parts.slice(0, -1)) o = o[p];
  o[parts.at(-1)!] = value;
  return copy;
}

function problemsOf(file: string): ConfigProblem[] {
  try {
    loadConfig({ path: file, env: {} });
  } catch (e) {
    if (e instanceof OmniposError && Array.isArray(e.context.problems)) return e.context.problems as ConfigProblem[];
    throw e;
  }
  return [];
}

/** The same address in clear: https → http, mqtts → mqtt. */
const inClear = (url: string): string => url.replace(/^([a-z]+)s:\/\//, '$1://');

describe('every address a configuration sends to leaves the machine over TLS', () => {
  const keys = addressKeysOfSchema();

  it('the configuration under test holds every address key of the schema, and no address under another name', () => {
    const { config, write } = everyAddress(tempDir());
    expect(problemsOf(write(config))).toEqual([]);
    const leaves = addressLeaves(config).map(([k]) => k);
    expect(leaves.sort()).toEqual(keys);
    expect(keys.length).toBeGreaterThanOrEqual(11);
  });

  for (const environment of ['homologation', 'production'])
    it(`in ${environment}, each address in clear off loopback is refused, naming its key`, () => {
      const dir = tempDir();
      const { config, write } = everyAddress(dir);
      const missed: string[] = [];
      for (const [key, url] of addressLeaves(config)) {
        const changed = set({ ...config, environment }, key, inClear(url));
        const paths = problemsOf(write(changed)).map((p) => p.path);
        if (!paths.includes(key)) missed.push(`${key} = ${inClear(url)}: ${JSON.stringify(paths)}`);
      }
      expect(missed).toEqual([]);
    });

  it("in production, a host of money (the acquirer's addresses, the card-not-present endpoint) on loopback is refused", () => {
    const dir = tempDir();
    const { config, write } = everyAddress(dir);
    // A relay on this machine may take the alarms and the telemetry (a local agent); money hosts never are here.
    const mayBeLocal = new Set(['alarms.webhook.url', 'fleet.mqtt.url']);
    const missed: string[] = [];
    for (const [key, url] of addressLeaves(config)) {
      if (mayBeLocal.has(key)) continue;
      const local = url.replace(/:\/\/[^/:]+/, '://127.0.0.1');
      let refusedBy = '';
      try {
        loadConfig({ path: write(set(config, key, local)), env: {} });
      } catch (e) {
        refusedBy = JSON.stringify((e as OmniposError).context);
      }
      if (!refusedBy.includes(`"path":"${key}"`)) missed.push(key);
    }
    expect(missed).toEqual([]);
  });
});
