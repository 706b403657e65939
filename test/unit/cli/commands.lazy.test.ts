import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForFile } from '../../helpers/temp-dir.js';

/**
 * Fast start: a command line loads only what it uses. `omnipos --help` lists every command from
 * the table in src/cli/commands.ts without importing one command module; `omnipos api token`
 * imports its own module, the configuration and the token file, and none of the daemon, the
 * drivers, the sandbox, the engines or the database. (Figures: test/bench/startup.mjs.)
 */

const dir = tempDirForFile('omnipos-imports-');

/** The project's modules (src/, drivers/) and packages a command line resolved, relative. */
function imports(
  args: string[],
  name: string,
): { src: string[]; packages: string[]; status: number | null; stdout: string; stderr: string } {
  const log = path.join(dir, `${name}.log`);
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', './test/helpers/record-imports.ts', 'src/cli/bin.ts', ...args],
    {
      env: { ...process.env, RECORD_IMPORTS_LOG: log, OMNIPOS_STATE_DIR: path.join(dir, 'state'), OMNIPOS_CONFIG: '' },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const root = new URL('../../../', import.meta.url).href;
  const src = [
    ...new Set(
      urls.filter((u) => u.startsWith(root) && !u.includes('/node_modules/')).map((u) => u.slice(root.length)),
    ),
  ].sort();
  const packages = [...new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))]
    .filter((p) => p !== 'tsx' && p !== 'get-tsconfig' && p !== 'esbuild')
    .sort();
  return { src, packages, status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('omnipos loads only what a command uses', () => {
  it('--help: the table and the CLI core, no command module, no package', () => {
    const r = imports(['--help'], 'help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('api token');
    expect(r.src.filter((f) => f.startsWith('src/'))).toEqual(
      expect.arrayContaining(['src/cli/bin.ts', 'src/cli/commands.ts', 'src/cli/run.ts']),
    );
    const commandModules = r.src.filter(
      (f) =>
        /^src\/cli\//.test(f) &&
        ![
          'src/cli/bin.ts',
          'src/cli/commands.ts',
          'src/cli/run.ts',
          'src/cli/run-commands.ts',
          'src/cli/version.ts',
          'src/cli/context.ts',
        ].includes(f),
    );
    expect(commandModules).toEqual([]);
    expect(r.src.filter((f) => !/^src\/(cli|core\/errors)\//.test(f))).toEqual([]);
    expect(r.packages).toEqual([]);
  }, 120_000);

  it('api token: its module, the configuration and the token file; none of the daemon, drivers, sandbox, engines, store or API', () => {
    const r = imports(['api', 'token'], 'token');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    expect(r.src).toContain('src/cli/api-token.ts');
    expect(r.src).toContain('src/store/api-token.ts');
    // A kind's config.ts or cnp-config.ts (its keys and rules, of the configuration ring: eslint.layers.js KIND_FILES)
    // is the configuration's; the rest of src/acquirer is the client, never loaded here.
    const kindConfig = (f: string): boolean => /^src\/acquirer\/[a-z0-9]+\/(cnp-)?config\.ts$/.test(f);
    expect(
      r.src.filter(
        (f) =>
          (/^(drivers\/|src\/(main|sandbox|engine|api|acquirer|sim|adapters|initialization|receipt|qr|emv)[/.])/.test(
            f,
          ) &&
            !kindConfig(f)) ||
          f === 'src/store/index.ts',
      ),
    ).toEqual([]);
    expect(
      r.packages.filter((p) =>
        ['better-sqlite3', 'serialport', 'usb', 'undici', 'pino', 'node-forge', 'qrcode'].includes(p),
      ),
    ).toEqual([]);
    // A valid configuration is validated by the fast path (src/config/fast-parse.ts): zod (its package
    // and the schema built with it, ~20 ms of CPU on Node 22) loads only when the fast path declines.
    expect(r.packages).not.toContain('zod');
    expect(r.src).not.toContain('src/config/schema.ts');
    expect(r.src).toContain('src/config/fast-parse.ts');
  }, 120_000);

  it('api token with a broken configuration: zod loads and says what is wrong, as before', () => {
    const config = path.join(dir, 'broken.json');
    writeFileSync(config, JSON.stringify({ stateDir: path.join(dir, 'state'), api: { port: 'x' } }));
    const r = imports(['api', 'token', '--config', config], 'token-broken');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('api.port: must be a TCP port number');
    expect(r.stderr).toContain('terminal: is required');
    expect(r.packages).toContain('zod');
  }, 120_000);
});
