import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tarArchive, untar } from '../../../../src/operations/support/index.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed (operations/support/tar): ${SEED}`);
const tempDir = useTempDirs();

describe('the tar writer', () => {
  it('reads back what it wrote, any names and contents (1000 runs)', () => {
    const name = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,40}(\/[a-z0-9][a-z0-9._-]{0,20})?$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ name, data: fc.uint8Array({ maxLength: 1500 }) }), {
          selector: (f) => f.name,
          maxLength: 8,
        }),
        (files) => {
          const back = untar(tarArchive(files));
          return (
            back.length === files.length &&
            back.every((b, i) => b.name === files[i]!.name && Buffer.compare(b.data, Buffer.from(files[i]!.data)) === 0)
          );
        },
      ),
      { numRuns: 1000, seed: SEED },
    );
  });

  it('the system tar extracts it byte for byte (POSIX ustar), and unsafe names are refused', () => {
    const dir = tempDir();
    const files = [
      { name: 'README.txt', data: 'hello\n' },
      { name: 'a/b.json', data: JSON.stringify({ x: 'é'.repeat(600) }) },
      { name: 'empty', data: '' },
    ];
    writeFileSync(path.join(dir, 'x.tar'), tarArchive(files));
    mkdirSync(path.join(dir, 'out'));
    execFileSync('tar', ['xf', path.join(dir, 'x.tar'), '-C', path.join(dir, 'out')]);
    for (const f of files) expect(readFileSync(path.join(dir, 'out', f.name), 'utf8')).toBe(f.data);
    for (const bad of ['/etc/passwd', '../x', 'a/../../x', 'x'.repeat(101), 'ñ'])
      expect(() => tarArchive([{ name: bad, data: '' }])).toThrow(/tar: /);
  });
});
