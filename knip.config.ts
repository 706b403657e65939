import type { KnipConfig } from 'knip';

/**
 * knip (`npm run knip`, a part of `npm test`): files nothing reaches, exports nothing imports, dependencies nothing
 * uses, and the ones used but not listed. Its plugins read package.json's scripts, vitest's and eslint's
 * configurations; the entries below are the programs started some other way, each with how. docs/dependencies.md.
 */
const config: KnipConfig = {
  ignoreExportsUsedInFile: true,
  entry: [
    // The screens' scripts, loaded by their HTML pages (`<script type="module" src=…>`) in the browser:
    'src/screens/*.js',
    // Programs run as `node --import tsx <file>` or `tsx <file>` by a test, a script or a person (the file says how):
    'test/**/*-child.ts',
    'test/bench/*.ts',
    'test/soak/*.ts',
    'test/security/measure-streams.ts',
    'test/fixtures/initialization/build-sandbox-tables.ts',
    // Preloaded with `--import` by the lazy-loading tests:
    'test/helpers/record-*.ts',
    // The Debian package's test (`npm run test:package`, its own vitest configuration):
    'test/packaging/*.pkgtest.ts',
    'scripts/**/*.ts',
    'packaging/*.ts',
  ],
  // Dependencies used in a way knip cannot see:
  ignoreDependencies: [
    // better-sqlite3 13 under its alias, loaded by a name chosen at run time for the running Node (src/store/sqlite.ts).
    'better-sqlite3-napi',
    // The benchmark's peer (test/bench/dukpt.bench.ts), loaded with createRequire: the package ships no types.
    'dukpt',
  ],
  // Programs of the system, not of npm: the Debian packages .ci/run installs (socat, mount, losetup, mkfs.ext2,
  // systemd-analyze, ...), the shell's own (truncate, nm, script, chroot, strace, openssl), and the workplace's
  // `duplicates`, which scripts/house-figures.ts runs when it is on the PATH.
  ignoreBinaries: [
    'chroot',
    'duplicates',
    'losetup',
    'mkfs.ext2',
    'mount',
    'nm',
    'openssl',
    'script',
    'socat',
    'strace',
    'systemd-analyze',
    'systemd-notify',
    'truncate',
    'umount',
  ],
  project: ['src/**', 'drivers/**', 'tables/**', 'test/**', 'scripts/**', 'packaging/**', 'eslint/**', '*.{ts,js}'],
};

export default config;
