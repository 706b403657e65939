import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TEST_CARDS } from '../../tables/test-cards.js';

/** Every test card's PAN and track 2 (both separators), as they would appear in clear. */
export function clearCardData(): string[] {
  return TEST_CARDS.flatMap((c) => [c.pan, c.track2, c.track2.replace('=', 'D')]);
}

/**
 * Node's compile cache (src/cli/bin.ts: `<stateDir>/cache/node-compile`) holds V8's compiled code of
 * the program's modules, their constants with it: the virtual pinpad's test card table is program
 * text (as it is in dist/), never data a sale wrote. Every other file is read.
 */
const PROGRAM_CODE = path.join('cache', 'node-compile');

/**
 * Files under `dir` (database, WAL, logs, anything but the compiled program code) holding a test
 * card's PAN or track in clear (or any of `secrets`), as `file: what`. Empty when nothing leaked.
 */
export function scanForCardData(
  dir: string,
  secrets: readonly string[] = clearCardData(),
  /** Folders of `dir` not read (the embedded sandbox's `sandbox`: the acquirer's own data, not the terminal's). */
  skip: readonly string[] = [],
): string[] {
  const needles = secrets.map((n) => Buffer.from(n, 'ascii'));
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (path.relative(dir, p) === PROGRAM_CODE || skip.includes(path.relative(dir, p))) continue;
      if (statSync(p).isDirectory()) walk(p);
      else {
        const bytes = readFileSync(p);
        for (const n of needles)
          if (bytes.includes(n)) found.push(`${path.relative(dir, p)}: ${n.toString('ascii').slice(0, 6)}…`);
      }
    }
  };
  walk(dir);
  return found;
}
