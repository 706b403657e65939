// The test files that read a field of the daemon's composition root (`Daemon`, src/main/daemon.ts) rather than
// the narrow handle tests are given (test/helpers/daemon.ts `DaemonHandle`), found by type, not by name:
//   npx tsx scripts/house/daemon-reads.ts            the figure and each file with the fields it reads
//   npx tsx scripts/house/daemon-reads.ts --root DIR  another checkout (e.g. a worktree of an older commit)
// A read is a property access whose object's type is `Daemon` (`t.daemon.db`, `daemon.outbox` on a local of that
// type, `e.daemon.journal`). Counted: the `*.test.ts` files of test/. Apart: the helpers and the daemon programs
// tests spawn (`*-child.ts`), which are where a handle is made or a daemon is the program itself.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface DaemonReads {
  /** Test files (`*.test.ts`) reading a `Daemon` field: file → the fields, sorted. */
  tests: Record<string, string[]>;
  /** Other files of test/ reading one (helpers, spawned daemon programs, benches). */
  others: Record<string, string[]>;
}

/** Every property access on a value of type `Daemon` in the files of test/ of the checkout at `root`. */
export function daemonReads(root: string): DaemonReads {
  const configFile = ts.findConfigFile(root, (f) => ts.sys.fileExists(f), 'tsconfig.json')!;
  const parsed = ts.parseJsonConfigFileContent(
    ts.readConfigFile(configFile, (f) => ts.sys.readFile(f)).config,
    ts.sys,
    root,
  );
  const testDir = path.join(root, 'test') + path.sep;
  const files = parsed.fileNames.filter((f) => f.startsWith(testDir));
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const daemonFile = path.join(root, 'src', 'main', 'daemon.ts');
  const isDaemon = (t: ts.Type): boolean => {
    const s = t.getNonNullableType().aliasSymbol ?? t.getNonNullableType().getSymbol();
    return s?.getName() === 'Daemon' && (s.declarations ?? []).some((d) => d.getSourceFile().fileName === daemonFile);
  };
  const result: DaemonReads = { tests: {}, others: {} };
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const fields = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && isDaemon(checker.getTypeAtLocation(node.expression)))
        fields.add(node.name.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (fields.size === 0) continue;
    const rel = path.relative(root, file).split(path.sep).join('/');
    (rel.endsWith('.test.ts') ? result.tests : result.others)[rel] = [...fields].sort();
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = path.resolve(
    at > 0 ? process.argv[at + 1]! : path.join(path.dirname(fileURLToPath(import.meta.url)), '../..'),
  );
  const r = daemonReads(root);
  for (const [file, fields] of Object.entries(r.tests)) console.log(`${file}: ${fields.join(', ')}`);
  console.log(`test files reading Daemon fields: ${Object.keys(r.tests).length}`);
  console.log(`other files of test/ reading them (helpers, spawned daemons): ${Object.keys(r.others).length}`);
}
