import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED } from '../../../scripts/generate/index.js';

/**
 * Every generated file (scripts/generate/index.ts) is what its generator makes of the tree as it is:
 * one test for all, naming the one command that rewrites them.
 */
const read = (file: string): string => readFileSync(path.join(process.cwd(), file), 'utf8');

describe('the generated files', () => {
  it('are current (a stale one: run `npm run generate` and commit what it writes)', async () => {
    const stale: string[] = [];
    for (const g of GENERATED) {
      const current = read(g.file);
      if ((await g.render(current)) !== current) stale.push(`${g.file} (from ${g.from})`);
    }
    expect(stale, 'stale generated files: run `npm run generate`').toEqual([]);
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
});
