import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What `npm run build` compiles (tsconfig.build.json's `include`) and what shapes its output. */
const BUILT_FROM = ['src', 'drivers', 'tables'];
const BUILD_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'packaging/bundle.ts'];
/** The program (packaging/bundle.ts writes it over tsc's bin.js), and the daemon it loads, bundled after it. */
const BUILT_BIN = path.join('dist', 'src', 'cli', 'bin.js');
const BUILT_DAEMON = path.join('dist', 'src', 'cli', 'daemon', 'daemon-cli.js');
const SOURCE_BIN = path.join('src', 'cli', 'bin.ts');

/** The newest modification time under `p` (itself included: a folder's time moves when a file is added or removed). */
function newest(p: string): number {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  let t = st.mtimeMs;
  if (st.isDirectory()) for (const e of readdirSync(p)) t = Math.max(t, newest(path.join(p, e)));
  return t;
}

/** How a test starts `omnipos`: node's arguments before the command's own, and which program that is. */
export interface OmniposCommand {
  readonly args: readonly string[];
  readonly built: boolean;
}

/**
 * The `omnipos` program a test runs in a process of its own: the build (`dist/src/cli/bin.js`, which `npm ci` writes
 * through `prepare`) when it is not older than any file it was built from, else the source through tsx, so a test
 * never runs stale code. The build starts in about a quarter of the CPU (esbuild's few chunks, no loader thread
 * compiling ~500 modules), which is most of what the process-heavy tests spend.
 */
export function chooseOmnipos(root: string): OmniposCommand {
  const built = [BUILT_BIN, BUILT_DAEMON].map((f) => statSync(path.join(root, f), { throwIfNoEntry: false }));
  const sources = Math.max(
    ...BUILT_FROM.map((d) => newest(path.join(root, d))),
    ...BUILD_FILES.map((f) => newest(path.join(root, f))),
  );
  if (built.every((b) => b !== undefined && b.mtimeMs >= sources))
    return { args: [path.join(root, BUILT_BIN)], built: true };
  return { args: ['--import', 'tsx', path.join(root, SOURCE_BIN)], built: false };
}

let chosen: OmniposCommand | undefined;

/** `chooseOmnipos` for this repository, decided once per test process. */
export function omniposCommand(): OmniposCommand {
  chosen ??= chooseOmnipos(ROOT);
  return chosen;
}

/** node's arguments to run `omnipos <args>` (spawn(process.execPath, omniposArgs([...]), …)). */
export function omniposArgs(args: readonly string[]): string[] {
  return [...omniposCommand().args, ...args];
}
