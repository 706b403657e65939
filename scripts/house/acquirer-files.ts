// The files a second acquirer touches (issue 21, "The acquirer as a port"), from the tree as it is:
//   npx tsx scripts/house/acquirer-files.ts            the figure
//   npx tsx scripts/house/acquirer-files.ts --root DIR  another checkout
// A kind lives in src/acquirer/<kind>/ (its backend, its configuration keys, its factory entry). Outside that folder
// a kind is named where the kinds are listed (the configuration's ACQUIRER_CONFIG) and where each kind gets its
// entry (the factory's table keyed by every kind, `[K in AcquirerKind]`): those files are the figure, both
// written by `npm run generate` from the folders. Every other file takes the backend it is given; the
// checks in test/unit/engine/ports.stub-backend.test.ts hold the engine, the commands and the metrics to it.
// Beside the figure: the files outside src/acquirer that import it at all, and among them those that build or
// hold the omni clients (the `Acquirer` type, `acquirerFromConfig`, `createAcquirer`): the omni entry of the
// factory and its helpers only, never the daemon's composition root (src/main.ts, src/main/daemon.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesBelow } from './test-sources.js';

/** The code of a file without its comments (a comment naming a path or a number decides nothing). */
export function codeOf(root: string, file: string): string {
  return readFileSync(path.join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export interface AcquirerFiles {
  /** Every .ts file of src/ (repository-relative, sorted). */
  src: string[];
  /** The files of src/ outside the backends' folders (src/acquirer/<kind>/). */
  outsideBackends: string[];
  /** Outside the kinds' folders, where a new kind is named: the kinds' two registries (generated). The figure. */
  naming: string[];
  /** Outside src/acquirer, the files that import it (src/acquirer/index.ts). */
  importers: string[];
  /** Outside src/acquirer, the files that build or hold the omni clients (`Acquirer`, `acquirerFromConfig`, `createAcquirer`). */
  omniClients: string[];
}

/** Code that builds the omni clients or names their type imported from src/acquirer. */
const OMNI_CLIENTS =
  /\bacquirerFromConfig\(|\bcreateAcquirer\(|import[^;]*[{,]\s*(type\s+)?Acquirer\s*[,}][^;]*from '(\.\.?\/)+(src\/)?acquirer\/index\.js'/;

export function acquirerFiles(root: string): AcquirerFiles {
  const src = filesBelow(root, 'src').filter((f) => f.endsWith('.ts'));
  const outsideBackends = src.filter((f) => !/^src\/acquirer\/[^/]+\//.test(f));
  const naming = outsideBackends.filter((f) =>
    /\bACQUIRER_CONFIG\s*=|\bKINDS\s*:\s*\{\s*readonly \[K in AcquirerKind\]/.test(codeOf(root, f)),
  );
  const importers = src.filter(
    (f) => !f.startsWith('src/acquirer/') && /from '(\.\.?\/)+(src\/)?acquirer\/index\.js'/.test(codeOf(root, f)),
  );
  const omniClients = src.filter((f) => !f.startsWith('src/acquirer/') && OMNI_CLIENTS.test(codeOf(root, f)));
  return { src, outsideBackends, naming, importers, omniClients };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rootArg = process.argv.indexOf('--root');
  const root =
    rootArg > 0
      ? path.resolve(process.argv[rootArg + 1]!)
      : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const r = acquirerFiles(root);
  console.log(`files a second acquirer touches outside src/acquirer/<kind>/: ${r.naming.length}`);
  for (const f of r.naming) console.log(`  ${f}`);
  console.log(`files outside src/acquirer that import it: ${r.importers.length}`);
  for (const f of r.importers) console.log(`  ${f}`);
  console.log(`of which build or hold the omni clients: ${r.omniClients.length}`);
  for (const f of r.omniClients) console.log(`  ${f}`);
}
