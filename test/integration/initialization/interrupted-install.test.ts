import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BinIndex, InitializationStore, parseInitialization } from '../../../src/initialization/index.js';
import { MIGRATIONS, openDatabase } from '../../../src/store/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { sandboxAnswer } from '../../helpers/initialization-tables.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');
const tempDir = useTempDirs();

/** Runs the child until it has committed `killAfter` chunks, then SIGKILLs it; resolves with its output. */
function installAndKill(
  file: string,
  version: number,
  ranges: number,
  killAfter: number,
): Promise<{ out: string; signal: string | null }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(HERE, 'install-child.ts'), file, String(version), String(ranges)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if ((out.match(/^chunk /gm) ?? []).length >= killAfter) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) =>
      signal || code === 0 ? resolve({ out, signal }) : reject(new Error(`child exited ${code}: ${err}`)),
    );
  });
}

describe('an initialization killed while it writes', () => {
  it('leaves the previous version in force, and the next run completes', async () => {
    const file = path.join(tempDir(), 'omnipos.db');
    const db = openDatabase({ file, migrations: MIGRATIONS });
    const store = new InitializationStore(db, { now: () => new Date() });
    const previous = parseInitialization(sandboxAnswer());
    store.install(previous);

    const run = await installAndKill(file, 1763769600009, 20_000, 3);
    expect(run.signal).toBe('SIGKILL');
    expect(run.out).not.toContain('done');

    // Another connection, as after a restart: the previous tables are whole and in force.
    const db2 = openDatabase({ file, migrations: MIGRATIONS });
    const after = new InitializationStore(db2, { now: () => new Date() });
    expect(after.currentVersion()).toBe(previous.version);
    expect(after.current()).toEqual(previous);
    const left = after.versions().find((v) => v.version === '1763769600009');
    expect(left?.state).toBe('writing');
    const index = BinIndex.build(after.current()!.bins);
    for (const c of TEST_CARDS) expect(index.lookup(c.pan.slice(0, 8)), c.name).toBeDefined();

    // The next run completes and replaces it.
    const done = await installAndKill(file, 1763769600009, 20_000, Number.POSITIVE_INFINITY);
    expect(done.out).toContain('done');
    expect(after.currentVersion()).toBe('1763769600009');
    expect(after.current()!.bins).toHaveLength(20_000);
    expect(after.versions()).toHaveLength(1);
    db.close();
    db2.close();
  }, 120_000);
});
