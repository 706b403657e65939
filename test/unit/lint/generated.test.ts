import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindsOf } from '../../../scripts/generate/acquirer-kinds.js';
import { GENERATED } from '../../../scripts/generate/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * Every generated file (scripts/generate/index.ts) is what its generator makes of the tree as it is:
 * one test for all, naming the one command that rewrites them.
 */
const tempDir = useTempDirs();
const read = (file: string): string => readFileSync(path.join(process.cwd(), file), 'utf8');

/** The generated files whose text (as `text` gives it) is not what their generator makes, with their source. */
async function staleFiles(text: (file: string) => string): Promise<string[]> {
  const stale: string[] = [];
  for (const g of GENERATED) {
    const current = text(g.file);
    if ((await g.render(current)) !== current) stale.push(`${g.file} (from ${g.from})`);
  }
  return stale;
}

describe('the generated files', () => {
  it('are current (a stale one: run `npm run generate` and commit what it writes)', async () => {
    expect(await staleFiles(read), 'stale generated files: run `npm run generate`').toEqual([]);
  });

  it('a stale one fails the check above, by name: the OpenAPI document with a hand edit, the layer table drifted from eslint.layers.js (planted)', async () => {
    const LAYER_ROW = '| `tables`, `src/screens` | nothing |';
    expect(read('docs/architecture.md')).toContain(LAYER_ROW);
    const planted: Record<string, string> = {
      'src/api/openapi.json': read('src/api/openapi.json').replace('"openapi": "3.', '"openapi":  "3.'),
      'docs/architecture.md': read('docs/architecture.md').replace(
        LAYER_ROW,
        '| `tables`, `src/screens` | `src/core` |',
      ),
    };
    const stale = await staleFiles((file) => planted[file] ?? read(file));
    expect(stale.map((s) => s.split(' ')[0])).toEqual(['src/api/openapi.json', 'docs/architecture.md']);
    expect(stale.find((s) => s.startsWith('docs/architecture.md'))).toMatch(/from eslint\.layers\.js/);
  });

  it('one entry per file, and every guide with a generated section has its entry', () => {
    const files = GENERATED.map((g) => g.file);
    expect(new Set(files).size).toBe(files.length);
    const guides = readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`)
      .filter((f) => /<!-- [^>]*generated from/.test(read(f)));
    expect(guides.filter((f) => !files.includes(f))).toEqual([]);
  });

  it("the kinds' registries list every folder with both of its port's files, and refuse a half-made kind by name", () => {
    expect(kindsOf()).toEqual({ acquirer: ['omni'], 'card-not-present': ['ecommerce', 'webservice15'] });
    const root = tempDir();
    const kind = (name: string, files: string[]): void => {
      mkdirSync(path.join(root, 'src/acquirer', name), { recursive: true });
      for (const f of files) writeFileSync(path.join(root, 'src/acquirer', name, f), '');
    };
    kind('alpha', ['config.ts', 'entry.ts', 'cnp-config.ts', 'cnp-entry.ts']);
    kind('plain', ['index.ts']);
    expect(kindsOf(root)).toEqual({ acquirer: ['alpha'], 'card-not-present': ['alpha'] });
    kind('beta', ['config.ts']);
    expect(() => kindsOf(root)).toThrow(
      'src/acquirer/beta/ has config.ts alone: acquirer kinds need both config.ts and entry.ts',
    );
    kind('beta', ['entry.ts']);
    kind('Gamma', ['cnp-entry.ts']);
    expect(() => kindsOf(root)).toThrow('src/acquirer/Gamma/ has cnp-entry.ts alone');
    kind('Gamma', ['cnp-config.ts']);
    expect(() => kindsOf(root)).toThrow("src/acquirer/Gamma/: a kind's name is lowercase letters and digits");
  });
});
