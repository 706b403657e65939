/**
 * `npm run generate`: rewrites every generated file (scripts/generate/index.ts) from its source, and
 * says which changed. `--check` writes nothing and exits 1 when one is stale.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Generated } from './generated.js';
import { ACQUIRER_KINDS } from './acquirer-kinds.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const check = process.argv.includes('--check');
let stale = 0;

// The acquirer kinds' registries first, from the folders alone: the generators loaded after them read the
// configuration, whose `acquirer` union those registries make (a new kind's folder shows in its schema at once).
const done = new Set<string>();
for (const g of ACQUIRER_KINDS) await write(g);
const { GENERATED } = await import('./index.js');
// One file may hold several sections (docs/architecture.md): each render reads what the previous wrote.
for (const g of GENERATED) if (!done.has(g.file)) await write(g);
console.log(`generate: ${GENERATED.length} generated files, ${stale} ${check ? 'stale' : 'rewritten'}`);
if (check && stale > 0) process.exitCode = 1;

async function write(g: Generated): Promise<void> {
  done.add(g.file);
  const abs = path.join(root, g.file);
  const current = existsSync(abs) ? readFileSync(abs, 'utf8') : '';
  const wanted = await g.render(current);
  if (wanted === current) return;
  stale++;
  if (check) console.log(`stale: ${g.file} (from ${g.from})`);
  else {
    writeFileSync(abs, wanted);
    console.log(`wrote ${g.file} (from ${g.from})`);
  }
}
