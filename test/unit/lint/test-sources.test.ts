import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  OTHER_ROOTS,
  PENDING_MOVES,
  UNIT_TEST_EXCEPTIONS,
  filesBelow,
  sourceCandidates,
  sourceOf,
  unitTestSources,
} from '../../../scripts/house/test-sources.js';

/** Tests where one looks (test/README.md): a unit test's name leads to its source, or it is listed with why. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('unit tests are named for their source (test/unit mirrors src/, drivers/, tables/)', () => {
  const units = unitTestSources(ROOT);

  it('every unit test file leads to its source by name, or is a listed exception or pending move', () => {
    const lost = units.filter((u) => !u.source && !u.exception && !u.pending).map((u) => u.test);
    expect(lost, 'name each test for the file or folder it tests (test/README.md), or list it with why').toEqual([]);
  });

  it('every listed exception still covers a test file, and says why', () => {
    for (const e of UNIT_TEST_EXCEPTIONS) {
      expect(e.why.length, e.path).toBeGreaterThan(20);
      expect(
        units.some((u) => (e.path.endsWith('/') ? u.test.startsWith(e.path) : u.test === e.path)),
        e.path,
      ).toBe(true);
    }
  });

  it('a pending move names a test that is still there and a destination that leads to a source', () => {
    for (const [from, to] of Object.entries(PENDING_MOVES)) {
      expect(existsSync(path.join(ROOT, from)), `${from} moved: remove its PENDING_MOVES line`).toBe(true);
      expect(sourceOf(ROOT, to), `${to} leads to no source`).toBeDefined();
      expect(existsSync(path.join(ROOT, to)), `${to} exists already`).toBe(false);
    }
  });

  it('no unit test lives beside the sources, and no helper is left in test/unit (shared ones are in test/helpers)', () => {
    const beside = ['src', ...OTHER_ROOTS].flatMap((r) => filesBelow(ROOT, r)).filter((f) => f.endsWith('.test.ts'));
    expect(beside).toEqual([]);
    const helpers = filesBelow(ROOT, 'test/unit').filter((f) => !f.endsWith('.test.ts'));
    expect(helpers).toEqual([]);
  });

  it('src/ has no folder named like another root, so test/unit/drivers and test/unit/tables are unambiguous', () => {
    for (const r of OTHER_ROOTS) expect(existsSync(path.join(ROOT, 'src', r)), `src/${r}`).toBe(false);
    for (const r of OTHER_ROOTS) expect(statSync(path.join(ROOT, r)).isDirectory()).toBe(true);
  });
});

describe('the rule itself', () => {
  it.each([
    ['test/unit/store/journal.test.ts', 'src/store/journal.ts'],
    ['test/unit/drivers/pinpad/framer.property.test.ts', 'drivers/pinpad/framer.ts'],
    ['test/unit/drivers/pinpad.ppc930-log.test.ts', 'drivers/pinpad/'],
    ['test/unit/tables/printers/models.test.ts', 'tables/printers/models.json'],
    ['test/unit/qr/padraoq.test.ts', 'src/qr/padraoq/'],
    ['test/unit/main.lazy.test.ts', 'src/main.ts'],
  ])('%s → %s', (test, source) => {
    expect(sourceCandidates(test)).toContain(source);
    expect(sourceOf(ROOT, test)).toBe(source);
  });

  it('a name that matches nothing leads nowhere, and only test/unit/**.test.ts files have candidates', () => {
    expect(sourceOf(ROOT, 'test/unit/store/journal-outbox.test.ts')).toBeUndefined();
    expect(sourceOf(ROOT, 'test/unit/pinpad/frame.test.ts')).toBeUndefined();
    expect(sourceCandidates('test/integration/e2e/sales.test.ts')).toEqual([]);
    expect(sourceCandidates('test/unit/store/helper.ts')).toEqual([]);
  });
});
