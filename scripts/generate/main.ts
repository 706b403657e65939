/**
 * `npm run generate`: rewrites every generated file (scripts/generate/index.ts) from its source, and
 * says which changed. `--check` writes nothing and exits 1 when one is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED } from './index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const check = process.argv.includes('--check');
let stale = 0;
// One file may hold several sections (docs/architecture.md): each render reads what the previous wrote.
for (const g of GENERATED) {
  const abs = path.join(root, g.file);
  const current = readFileSync(abs, 'utf8');
  const wanted = await g.render(current);
  if (wanted === current) continue;
  stale++;
  if (check) console.log(`stale: ${g.file} (from ${g.from})`);
  else {
    writeFileSync(abs, wanted);
    console.log(`wrote ${g.file} (from ${g.from})`);
  }
}
console.log(`generate: ${GENERATED.length} generated files, ${stale} ${check ? 'stale' : 'rewritten'}`);
if (check && stale > 0) process.exitCode = 1;
