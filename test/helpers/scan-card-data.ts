import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TEST_CARDS } from '../../tables/test-cards.js';

/** Every test card's PAN and track 2 (both separators), as they would appear in clear. */
export function clearCardData(): string[] {
  return TEST_CARDS.flatMap((c) => [c.pan, c.track2, c.track2.replace('=', 'D')]);
}

/**
 * Files under `dir` (database, WAL, logs, anything) holding a test card's PAN or track in
 * clear (or any of `secrets`), as `file: what`. Empty when nothing leaked.
 */
export function scanForCardData(dir: string, secrets: readonly string[] = clearCardData()): string[] {
  const needles = secrets.map((n) => Buffer.from(n, 'ascii'));
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
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
