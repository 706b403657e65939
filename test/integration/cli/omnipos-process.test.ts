import { spawnSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseOmnipos, omniposArgs } from '../../helpers/omnipos-process.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();

/** A repository laid out as the choice reads it, every file at `at` (seconds). */
function repo(at: number, built = true): string {
  const root = tempDir();
  const files = ['src/cli/bin.ts', 'src/main.ts', 'drivers/d.ts', 'tables/t.json', 'package.json', 'tsconfig.json'];
  const dirs = ['src/cli', 'src', 'drivers', 'tables'];
  if (built) files.push('dist/src/cli/bin.js', 'dist/src/cli/daemon/daemon-cli.js');
  for (const f of files) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), '');
  }
  for (const f of [...files, ...dirs]) utimesSync(path.join(root, f), at, at);
  return root;
}

const touch = (root: string, f: string, at: number): void => utimesSync(path.join(root, f), at, at);

describe('the omnipos a test starts: the build when it is not older than its sources, else the source through tsx', () => {
  it('a build as new as every source is run', () => {
    const root = repo(1_000_000);
    expect(chooseOmnipos(root)).toEqual({ args: [path.join(root, 'dist/src/cli/bin.js')], built: true });
  });

  it.each(['src/main.ts', 'drivers/d.ts', 'tables/t.json', 'package.json', 'tsconfig.json'])(
    'a source edited after the build (%s): the source, through tsx',
    (file) => {
      const root = repo(1_000_000);
      touch(root, file, 1_000_001);
      expect(chooseOmnipos(root)).toEqual({
        args: ['--import', 'tsx', path.join(root, 'src/cli/bin.ts')],
        built: false,
      });
    },
  );

  it('a source file added or removed after the build (its folder changed): the source', () => {
    const root = repo(1_000_000);
    touch(root, 'src/cli', 1_000_001);
    expect(chooseOmnipos(root).built).toBe(false);
  });

  it('a build that stopped before the daemon was bundled again (its daemon older than a source): the source', () => {
    const root = repo(1_000_000);
    touch(root, 'src/main.ts', 1_000_002);
    touch(root, 'dist/src/cli/bin.js', 1_000_003);
    expect(chooseOmnipos(root).built).toBe(false);
  });

  it('no build at all: the source', () => {
    expect(chooseOmnipos(repo(1_000_000, false)).built).toBe(false);
  });

  it('whichever is chosen here, it is the same program as the source (its --version)', () => {
    const run = (args: string[]): string => {
      const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(run(omniposArgs(['--version']))).toBe(run(['--import', 'tsx', 'src/cli/bin.ts', '--version']));
  });
});
