import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import cycle in src/ or drivers/: what `npx madge --circular --extensions ts src drivers`
 * reports, checked here without madge (not a dependency). Every import counts, as madge counts
 * them: static, `import type`, re-exports and `import()` (a lazy command table is still a cycle
 * for a reader and for the bundler). Two cycles ran through src/cli/run.ts's version() until it
 * moved to src/cli/version.ts.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The repository file a relative specifier names (`./x.js` → x.ts, `./dir/index.js`), if it is TypeScript. */
function resolve(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c) && statSync(c).isFile());
}

/** file → the files it imports (repository-relative), from TypeScript's own pre-processor. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((i) => resolve(file, i.fileName)).filter((t): t is string => t !== undefined);
    graph.set(path.relative(ROOT, file), [...new Set(targets.map((t) => path.relative(ROOT, t)))]);
  }
  return graph;
}

/** Every elementary cycle found by a depth-first walk (each reported once, from its smallest file). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const loop = stack.slice(stack.indexOf(next));
        const start = loop.indexOf([...loop].sort()[0]!);
        const canonical = [...loop.slice(start), ...loop.slice(0, start)];
        found.set(canonical.join(' > '), canonical);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return [...found.values()];
}

describe('import cycles (npx madge --circular --extensions ts src drivers)', () => {
  it('finds a cycle when there is one, type-only and lazy imports included', () => {
    const g = new Map([
      ['src/cli/run.ts', ['src/cli/commands.ts']],
      ['src/cli/commands.ts', ['src/cli/init.ts']],
      ['src/cli/init.ts', ['src/cli/run.ts']],
      ['src/cli/version.ts', []],
    ]);
    expect(cycles(g)).toEqual([['src/cli/commands.ts', 'src/cli/init.ts', 'src/cli/run.ts']]);
    const dir = path.join(ROOT, 'src/cli');
    const graph = importGraph([path.join(dir, 'commands.ts')]);
    // commands.ts loads each command lazily: those `import()` calls are edges.
    expect(graph.get('src/cli/commands.ts')).toContain('src/cli/init.ts');
  });

  it('src/ and drivers/ have none', () => {
    const files = [...tsFiles(path.join(ROOT, 'src')), ...tsFiles(path.join(ROOT, 'drivers'))];
    const graph = importGraph(files);
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph).map((c) => c.join(' > '))).toEqual([]);
  });
});
