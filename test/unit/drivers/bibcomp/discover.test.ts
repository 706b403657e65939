import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBibcompLibraries } from '../../../../drivers/bibcomp/discover.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

const tempDir = useTempDirs();

describe('finding BibComp libraries by name (issue 19: omnipos pinpad ports)', () => {
  it('takes lib*ppcomp*.so and *bibcomp*.so (versioned too) in the folders and /opt/*/lib; nothing else; a dangling link is skipped', () => {
    const root = tempDir('omnipos-libs-');
    const usr = path.join(root, 'usr/lib');
    const optA = path.join(root, 'opt/gertec/lib');
    const optB = path.join(root, 'opt/acquirer/lib');
    for (const d of [usr, optA, optB]) mkdirSync(d, { recursive: true });
    for (const [d, n] of [
      [usr, 'libppcomp.so'],
      [usr, 'libfoo.so'],
      [usr, 'ppcomp.so'],
      [optA, 'libPPCOMP_Gertec.so.1.2'],
      [optB, 'vendor-bibcomp.so'],
      [optB, 'libbibcomp.so.txt'],
    ] as const)
      writeFileSync(path.join(d, n), '');
    symlinkSync(path.join(root, 'nowhere.so'), path.join(usr, 'libppcomp-old.so'));
    expect(findBibcompLibraries([usr, path.join(root, 'opt/*/lib'), path.join(root, 'missing')])).toEqual(
      [
        path.join(optB, 'vendor-bibcomp.so'),
        path.join(optA, 'libPPCOMP_Gertec.so.1.2'),
        path.join(usr, 'libppcomp.so'),
      ].sort(),
    );
  });
});
