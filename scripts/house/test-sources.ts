// Where a unit test's source is, by name alone (test/README.md, "Where a test is"):
//
//   test/unit/<dir>/<name>[.<aspect>].test.ts  tests  <root>/<dir>/<name>.{ts,js,json}  or the folder <root>/<dir>/<name>/
//
// <root>/<dir> is src/<dir>, except test/unit/drivers/… → drivers/… and test/unit/tables/… → tables/… (src/ has no
// folder of either name, which the lint test checks). <aspect> names what a second file of tests for the same
// source is about (`framer.property.test.ts`, `decoder.faults.test.ts`). A test of a folder as a whole (through
// its index.ts, or several of its files) is named for the folder: `test/unit/qr/padraoq.test.ts` → `src/qr/padraoq/`.
// A test that is no file's test (a check over the whole repository) is listed in UNIT_TEST_EXCEPTIONS with why.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Roots a unit test path may mirror besides src/: test/unit/<root>/… → <root>/…. */
export const OTHER_ROOTS = ['drivers', 'tables'] as const;

/** Endings a source may have. */
const SOURCE_ENDINGS = ['.ts', '.js', '.json'];

/** Unit tests (or folders of them, ending in '/') whose source is not one file or folder, each with why. */
export const UNIT_TEST_EXCEPTIONS: ReadonlyArray<{ path: string; why: string }> = [
  {
    path: 'test/unit/lint/',
    why: 'checks over the whole repository (the layer rule, import cycles, markers, this rule): the tree is their source',
  },
  {
    path: 'test/unit/bench/',
    why: 'tests of the bench scripts themselves (test/bench: the ratio check and the table it writes), not of product code',
  },
];

/**
 * Unit tests not moved yet, each with the name the rule gives it (none now: the last 35 moved together). A move
 * that must wait for other work goes here, old path to new; the lint test checks that each destination leads to a
 * source and that each file is still there: moving one means removing its line.
 */
export const PENDING_MOVES: Readonly<Record<string, string>> = {};

/** The repository-relative candidates for the source of a unit test file (repository-relative). */
export function sourceCandidates(testFile: string): string[] {
  const rel = testFile.split(path.sep).join('/');
  if (!rel.startsWith('test/unit/') || !rel.endsWith('.test.ts')) return [];
  const inner = rel.slice('test/unit/'.length);
  const dir = path.posix.dirname(inner);
  const name = path.posix.basename(inner).split('.')[0]!;
  const first = inner.split('/')[0]!;
  const base =
    (OTHER_ROOTS as readonly string[]).includes(first) && inner.includes('/') ? dir : path.posix.join('src', dir);
  const stem = path.posix.join(base, name);
  return [...SOURCE_ENDINGS.map((e) => stem + e), `${stem}/`];
}

/** The source a unit test file's name leads to, or undefined. `root` is the repository. */
export function sourceOf(root: string, testFile: string): string | undefined {
  return sourceCandidates(testFile).find((c) => {
    const p = path.join(root, c);
    if (!existsSync(p)) return false;
    return c.endsWith('/') ? statSync(p).isDirectory() : statSync(p).isFile();
  });
}

/** The exception that covers a unit test file, if any. */
export function exceptionFor(testFile: string): { path: string; why: string } | undefined {
  const rel = testFile.split(path.sep).join('/');
  return UNIT_TEST_EXCEPTIONS.find((e) => (e.path.endsWith('/') ? rel.startsWith(e.path) : rel === e.path));
}

/** Every file below `dir` (repository-relative, '/'-separated), sorted. */
export function filesBelow(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/** Unit test files, with the source each one's name leads to (undefined: none) and the exception that covers it. */
export function unitTestSources(
  root: string,
): Array<{ test: string; source?: string; exception?: string; pending?: string }> {
  return filesBelow(root, 'test/unit')
    .filter((f) => f.endsWith('.test.ts'))
    .map((test) => ({
      test,
      source: sourceOf(root, test),
      exception: exceptionFor(test)?.why,
      pending: PENDING_MOVES[test],
    }));
}
