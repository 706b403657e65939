import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { loadConfig } from '../../src/config/index.js';
import type { AsyncTarget } from './http-inputs.js';

/**
 * The configuration loader: the file (the repository's own configurations, edited; random JSON
 * objects) and OMNIPOS_* overrides (known keys, with every kind of value; unknown keys). A
 * refusal is CONFIG_INVALID / ENVIRONMENT_REFUSED (an OmniposError).
 */
export function configTarget(root: string): AsyncTarget<unknown> {
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-fuzz-config-'));
  const file = path.join(dir, 'omnipos.json');
  // The sandbox's secret files the configuration names, beside it (as in the repository).
  cpSync(path.join(root, 'config', 'sandbox'), path.join(dir, 'sandbox'), { recursive: true });
  const base = readFileSync(path.join(root, 'config', 'omnipos.json'), 'utf8');
  const known = [
    'STATE_DIR',
    'ENVIRONMENT',
    'TERMINAL__TERMINAL_ID',
    'TERMINAL__MODE',
    'TERMINAL__ORDINAL',
    'PINPAD__DEVICE__KIND',
    'PINPAD__DEVICE__PORT',
    'PINPAD__DEVICE__PATH',
    'PINPAD__DEVICE__HOST',
    'PRINTER__KIND',
    'ACQUIRER__TIMEOUT_MS',
    'API__PORT',
    'API__HOST',
    'QR__PROVIDER',
    'QR__VALIDITY_SECONDS',
    'SANDBOX__EMBEDDED',
    'PAYMENTS__ECR_DECISION_SECONDS',
    'FLEET__MQTT__URL',
    'LOG__LEVEL',
  ];
  const edit = fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.string({ maxLength: 6 })).map(([at, cut, ins]) => {
    const i = at % (base.length + 1);
    return base.slice(0, i) + ins + base.slice(i + cut);
  });
  const envValue = fc.oneof(
    fc.constantFrom(
      'true',
      'false',
      'null',
      '0',
      '-1',
      '4000',
      '1e400',
      '[]',
      '{}',
      '{"kind":"tcp"}',
      'tcp',
      'virtual',
      'bibcomp',
      'serial',
      'sandbox',
      'production',
      '/dev/ttyACM0',
      '',
    ),
    fc.string({ maxLength: 20 }),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  );
  return {
    name: 'configuration (file + OMNIPOS_* overrides)',
    input: fc.record({
      text: fc.oneof(
        { arbitrary: fc.constant(base), weight: 3 },
        { arbitrary: edit, weight: 3 },
        { arbitrary: fc.json({ maxDepth: 3 }), weight: 1 },
      ),
      env: fc.dictionary(
        fc
          .oneof(
            { arbitrary: fc.constantFrom(...known), weight: 5 },
            { arbitrary: fc.stringMatching(/^[A-Z_]{1,20}$/), weight: 1 },
          )
          .map((k) => `OMNIPOS_${k}`),
        envValue,
        { maxKeys: 4 },
      ),
    }),
    run: (x: unknown) => {
      const r = x as { text: string; env: Record<string, string> };
      writeFileSync(file, r.text);
      return Promise.resolve(loadConfig({ path: file, env: { OMNIPOS_STATE_DIR: dir, ...r.env } }));
    },
  };
}
