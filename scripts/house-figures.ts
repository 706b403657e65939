// The house figures of issue 21 ("Tests where one looks"), each from the tree as it is:
//   npm run house:figures            the figures
//   npm run house:figures -- --list  and the files behind them
// 1. unit test files whose source cannot be found by name (the rule: scripts/house/test-sources.ts, test/README.md);
// 2. the integration test folders (one scenario each) and their test files;
// 3. setups written inline instead of taken from test/helpers/: call sites, outside test/helpers/, that build a
//    counterpart a test needs (a daemon, the sandbox host, the virtual pinpad, a store on a SQLite file, a temporary
//    folder, a configuration file), counted by the calls that build them;
// 4. when the workplace tool `duplicates` is on the PATH, its count of repeated runs (6+ lines) over test/.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesBelow, unitTestSources } from './house/test-sources.js';

const rootArg = process.argv.indexOf('--root');
/** The tree measured: this repository, or `--root DIR` (another checkout, e.g. `git archive` of an older commit). */
const ROOT =
  rootArg > 0
    ? path.resolve(process.argv[rootArg + 1]!)
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const list = process.argv.includes('--list');

// 1. Unit tests and their sources.
const units = unitTestSources(ROOT);
const lost = units.filter((u) => !u.source && !u.exception);
const pending = lost.filter((u) => u.pending);
const excepted = units.filter((u) => !u.source && u.exception);
console.log(`unit test files: ${units.length}`);
console.log(`  source found by name: ${units.length - lost.length - excepted.length}`);
console.log(`  listed exceptions (test/unit/lint/…, with why): ${excepted.length}`);
console.log(`  source NOT found by name: ${lost.length} (${Math.round((100 * lost.length) / units.length)} %)`);
if (list) for (const u of lost) console.log(`    ${u.test}${u.pending ? ` (to move: ${u.pending})` : ''}`);
console.log(`    of which listed as pending moves (scripts/house/test-sources.ts PENDING_MOVES): ${pending.length}`);
const strays = filesBelow(ROOT, 'test/unit').filter((f) => !f.endsWith('.test.ts'));
console.log(`  other files in test/unit (helpers not in test/helpers/): ${strays.length}`);
if (list) for (const f of strays) console.log(`    ${f}`);

// 2. Integration folders.
const integration = filesBelow(ROOT, 'test/integration');
const folders = new Map<string, { tests: number; other: number }>();
for (const f of integration) {
  const folder = f.split('/')[2]!;
  const entry = folders.get(folder) ?? { tests: 0, other: 0 };
  if (f.endsWith('.test.ts')) entry.tests++;
  else entry.other++;
  folders.set(folder, entry);
}
const scattered = filesBelow(ROOT, 'test/integration').filter((f) => !f.endsWith('.test.ts'));
console.log(`helper modules in test/integration (not in test/helpers/): ${scattered.length}`);
if (list) for (const f of scattered) console.log(`    ${f}`);
console.log(`modules in test/helpers/: ${filesBelow(ROOT, 'test/helpers').filter((f) => f.endsWith('.ts')).length}`);
console.log(`integration folders: ${folders.size}`);
for (const [name, n] of folders) console.log(`  ${name}: ${n.tests} test files, ${n.other} other`);

// 3. Inline setups.
const SETUPS: Array<{ kind: string; pattern: RegExp }> = [
  { kind: 'daemon (startDaemon({…}))', pattern: /\bstartDaemon\(\s*\{/g },
  { kind: 'sandbox host (listenSandbox(…))', pattern: /\blistenSandbox\(/g },
  { kind: 'virtual pinpad (new VirtualPinpad(…))', pattern: /\bnew VirtualPinpad\(/g },
  { kind: 'store on a SQLite file (openDatabase / openTerminalDatabase)', pattern: /\bopen(?:Terminal)?Database\(/g },
  { kind: 'temporary folder (mkdtemp)', pattern: /\bmkdtemp(?:Sync)?\(/g },
  {
    kind: "temporary configuration (a path ending …, 'omnipos.json'))",
    pattern: /, 'omnipos\.json'\)/g,
  },
];
const testFiles = filesBelow(ROOT, 'test').filter((f) => f.endsWith('.ts') && !f.startsWith('test/helpers/'));
let totalSites = 0;
const setupFiles = new Set<string>();
console.log(`setups written inline (outside test/helpers/, ${testFiles.length} files read):`);
for (const { kind, pattern } of SETUPS) {
  let sites = 0;
  const files: string[] = [];
  for (const f of testFiles) {
    const n = [...readFileSync(path.join(ROOT, f), 'utf8').matchAll(pattern)].length;
    if (n > 0) {
      sites += n;
      files.push(f);
      setupFiles.add(f);
    }
  }
  totalSites += sites;
  console.log(`  ${kind}: ${sites} call sites in ${files.length} files`);
  if (list) for (const f of files) console.log(`    ${f}`);
}
console.log(`  total: ${totalSites} call sites in ${setupFiles.size} files`);

// 4. The workplace tool, when present.
const dup = spawnSync('duplicates', ['--repo', 'test', '--most', '1', '--seconds', '120'], {
  cwd: ROOT,
  encoding: 'utf8',
});
if (dup.error) console.log('duplicates (workplace tool): not on this PATH, skipped');
else console.log(`duplicates --repo test: ${dup.stdout.split('\n')[0]}`);
