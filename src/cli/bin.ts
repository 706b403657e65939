#!/usr/bin/env node
import type * as Fs from 'node:fs';
import module from 'node:module';
import type * as Path from 'node:path';

// Node's modules by require, as in the bundle (packaging/bundle.ts): this file loads nothing else before the cache is on.
const require = module.createRequire(import.meta.url);
const { existsSync } = require('node:fs') as typeof Fs;
const path = require('node:path') as typeof Path;

// Fast start: V8's compiled code of every module, kept between runs (Node ≥ 22.1; Node 20 has no
// such cache and goes on without it). Enabled before the program's first module loads, hence the
// dynamic import below. Under systemd the OS temporary directory is private to each start
// (PrivateTmp=yes) and would be lost: the cache goes under the state directory when it exists
// (OMNIPOS_STATE_DIR), else where NODE_COMPILE_CACHE says or the OS temporary directory. Safe to
// lose: Node checks each entry against its source and recompiles what does not match.
const enableCompileCache = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
if (enableCompileCache) {
  const state = process.env.OMNIPOS_STATE_DIR;
  try {
    enableCompileCache(
      state && !process.env.NODE_COMPILE_CACHE && existsSync(state)
        ? path.join(state, 'cache', 'node-compile')
        : undefined,
    );
  } catch {
    // no cache: a slower start, nothing else
  }
}

// The daemon (`omnipos run`, `omnipos start`) from its own entry, built apart (packaging/bundle.ts).
const daemon = process.argv[2] === 'run' || process.argv[2] === 'start';
const { runCli } = daemon ? await import('./daemon-cli.js') : await import('./run.js');
const code = await runCli(process.argv.slice(2), {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
  tty: process.stdout.isTTY === true,
  columns: process.stdout.columns,
});
process.exitCode = code;
