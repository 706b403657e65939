/**
 * Fast start (issue 22): the compiled program in a few files. `npm run build` compiles with tsc into
 * dist/ (the type check, and every file as before) and then runs this: esbuild reads src/cli/bin.ts
 * and everything it imports and writes dist/src/cli/bin.js over tsc's, with the rest in dist/src/cli/chunks/ (one chunk per group of
 * modules loaded together: each command, the sandbox host, the virtual devices… stay lazy, as
 * their dynamic imports become chunk loads). The ~500 modules the daemon loaded one by one (each
 * resolved, read, compiled and linked on its own) became ~50 files; the daemon, built apart into
 * dist/src/cli/daemon/ (see `daemonApart` below), now loads ~10. tsc's other files stay in
 * dist/ (nothing loads them; bin.js is the entry the CLI, the systemd units and the package name).
 *
 * Production dependencies stay in node_modules (native modules, CommonJS packages loaded at first
 * use through createRequire), except zod: pure ES modules, ~95 files read at every start (the
 * configuration's schema), bundled with the program. Assets are looked up from the package's root
 * (package.json) or beside the source, never by a path relative to a compiled file (config/load.ts,
 * cli/version.ts, api/screens.ts), so they are found from the chunks too.
 *
 * Run: `node --import tsx packaging/bundle.ts` (after tsc; `npm run build` does both).
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the bundle goes: dist/src/cli, or OMNIPOS_BUNDLE_DIR (a test bundles into a package laid out in a temporary directory). */
const CLI = process.env.OMNIPOS_BUNDLE_DIR ?? path.join(ROOT, 'dist', 'src', 'cli');
/** Bundled into the program rather than loaded from node_modules: pure ES modules, many files, used at start. */
const INLINE = new Set(['zod']);

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const external = Object.keys(pkg.dependencies)
  .filter((d) => !INLINE.has(d))
  .flatMap((d) => [d, `${d}/*`]);

/**
 * zod's namespaces re-export its ~45 error-message locales (`z.locales`, `z.core.locales`), which no code here uses
 * (zod sets English itself): only `en` is bundled, ~200 kB less to parse wherever the
 * configuration loads.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic[\\/]external|core[\\/]index)\.js$/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * Node's own modules through `require`, not ES imports. An ES import of a built-in module builds its ES
 * facade, which reads every export once, lazy getters included: on Node 22 and 24 `import … from
 * 'node:http'` thereby loads Node's internal undici for `http.WebSocket` (~30 ms of CPU, more than a
 * bare `node -e 0`; Node 20 has no such getter), `node:fs` its streams. Each built-in becomes a module
 * of the bundle that takes it with one `require` and exports the module as default and, by name, the
 * names the program imports from it (found in its sources here; a name missed fails the bundle with
 * esbuild's "No matching export"), each read once when the module loads — never every export (on Node
 * 24 reading `fs.F_OK` prints a deprecation warning). `node:module` stays an ES import: it gives the `require`.
 */
function importedBuiltinNames(): Map<string, Set<string>> {
  const byModule = new Map<string, Set<string>>();
  const files = ['src', 'tables', 'drivers']
    .filter((d) => existsSync(path.join(ROOT, d)))
    .flatMap((d) =>
      readdirSync(path.join(ROOT, d), { recursive: true, encoding: 'utf8' }).map((f) => path.join(ROOT, d, f)),
    )
    .filter((f) => f.endsWith('.ts'));
  for (const f of files) {
    for (const m of readFileSync(f, 'utf8').matchAll(
      /^import\s+(?!type\b)[^;]*?\{([^}]*)\}\s*from\s*'(node:[^']+)'/gm,
    )) {
      const names = byModule.get(m[2] as string) ?? new Set<string>();
      for (const spec of (m[1] as string).split(',')) {
        const name = spec
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name && !spec.trim().startsWith('type ')) names.add(name);
      }
      byModule.set(m[2] as string, names);
    }
  }
  return byModule;
}
const IMPORTED = importedBuiltinNames();
const builtinsByRequire: Plugin = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.path === 'node:module' || args.namespace === 'builtin'
        ? { path: args.path, external: true }
        : args.kind === 'import-statement' || args.kind === 'dynamic-import'
          ? { path: args.path, namespace: 'builtin' }
          : undefined,
    );
    b.onResolve({ filter: /^builtin-require$/ }, () => ({ path: 'builtin-require', namespace: 'builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents:
        args.path === 'builtin-require'
          ? `import { createRequire } from 'node:module';\nexport default createRequire(import.meta.url);\n`
          : [
              `import load from 'builtin-require';`,
              `const m = load(${JSON.stringify(args.path)});`,
              `export default m;`,
              ...[...(IMPORTED.get(args.path) ?? [])].sort().map((n) => `export const ${n} = m.${n};`),
            ].join('\n'),
    }));
  },
};

/**
 * pino (CommonJS, loaded at every daemon start) and undici (the commands that call the daemon's API)
 * through `require`, not an ES import: an ES import of a CommonJS package has Node's loader parse its
 * main file for its export names (cjs-module-lexer) and wrap it as an ES module, and on Node 22 route
 * the package's own requires through the ES loader's resolution; a `require` does none of it (a restart
 * ~13 ms less CPU on Node 22, `omnipos day report` ~15 ms; Node 20 and 24 the same within the noise).
 * Neither package has an `exports` map: `require` loads the file the ES import did. The module here exports the package as default and
 * the names the program imports from it (a name missed fails the bundle with "No matching export").
 */
const CJS_BY_REQUIRE: Readonly<Record<string, readonly string[]>> = { pino: ['pino'], undici: ['Agent', 'request'] };
const cjsByRequire: Plugin = {
  name: 'cjs-by-require',
  setup(b) {
    const names = Object.keys(CJS_BY_REQUIRE);
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) =>
      args.namespace === 'cjs-require'
        ? { path: args.path, external: true }
        : args.kind === 'import-statement'
          ? { path: args.path, namespace: 'cjs-require' }
          : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'cjs-require' }, (args) => ({
      contents: [
        `import load from 'builtin-require';`,
        `const m = load(${JSON.stringify(args.path)});`,
        `export default m;`,
        ...(CJS_BY_REQUIRE[args.path] ?? []).map((n) => `export const ${n} = m.${n};`),
      ].join('\n'),
    }));
  },
};

/**
 * The daemon apart. Split with every command, the daemon's modules fall into ~40 chunks (one per set of
 * commands that load them), which `omnipos run` loads one by one: each resolved, read, compiled and
 * linked on its own. So `omnipos run` and `omnipos start` have an entry of their own, src/cli/daemon-cli.ts,
 * built into dist/src/cli/daemon/: its modules in one file, and its own lazy parts (the embedded sandbox
 * host, the virtual devices, undici…) in chunks beside it. bin.js imports it for those two commands
 * (the import of './daemon-cli.js' is left to the daemon's build); every other command runs from the
 * split above, and no process loads both (bin.js itself imports nothing of either at top level).
 */
const DAEMON = 'daemon';
const daemonApart: Plugin = {
  name: 'daemon-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/daemon-cli\.js$/ }, (args) =>
      args.importer.endsWith(path.join('src', 'cli', 'bin.ts'))
        ? { path: `./${DAEMON}/daemon-cli.js`, external: true }
        : undefined,
    );
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  allowOverwrite: true,
  external,
  // a stack trace under --enable-source-maps names the .ts line
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
} as const;

rmSync(path.join(CLI, 'chunks'), { recursive: true, force: true });
rmSync(path.join(CLI, DAEMON), { recursive: true, force: true });
const builds = [
  {
    what: 'the commands',
    dir: CLI,
    result: await build({
      ...common,
      // from the TypeScript itself (tsconfig.json's isolatedModules and verbatimModuleSyntax make each file's
      // transpilation tsc's), so running it again never reads its own output
      entryPoints: [path.join(ROOT, 'src', 'cli', 'bin.ts')],
      outdir: CLI,
      plugins: [zodEnglishOnly, builtinsByRequire, cjsByRequire, daemonApart],
    }),
  },
  {
    what: 'the daemon',
    dir: path.join(CLI, DAEMON),
    result: await build({
      ...common,
      entryPoints: [path.join(ROOT, 'src', 'cli', 'daemon-cli.ts')],
      outdir: path.join(CLI, DAEMON),
      plugins: [zodEnglishOnly, builtinsByRequire, cjsByRequire],
    }),
  },
];
for (const { what, dir, result } of builds) {
  const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
  const inputs = Object.keys(result.metafile.inputs).length;
  process.stdout.write(
    `bundle: ${what}, ${inputs} modules into ${outputs.length} files under ${path.relative(ROOT, dir) || dir}\n`,
  );
}
