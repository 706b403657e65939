import { describe, expect, it } from 'vitest';
import { secondAcquirer } from '../../../scripts/house/second-acquirer.js';

/**
 * The redone change 1 (the house issue): a stub acquirer kind with its own keys, added to a copy of the
 * tree as docs/architecture.md "Adding an acquirer" says, read through `acquirer.kind`; the figure is
 * the copy's changed files, not a regular expression over the code.
 */
describe('a second acquirer kind with its own configuration keys', () => {
  it('takes its folder, its configuration file and one line in each of two registries; its keys and its secret are read and guarded under acquirer.stub', () => {
    const r = secondAcquirer();
    expect(r.outside).toEqual([
      'src/config/acquirer-kinds.ts',
      'src/config/acquirer-stub.ts',
      'src/factory/acquirer-backend.ts',
    ]);
    expect(r.read).toMatchObject({
      kind: 'stub',
      keys: { hostUrl: 'https://stub.example', approveBelow: 5000, tokenFile: expect.stringMatching(/stub-token$/) },
      backend: 'stub',
      probe: 'https://stub.example',
    });
    // Outside the sandbox the stub's address must be https: the guard read it through the kind's rules.
    expect(r.read.refused).toContain('"path":"acquirer.stub.hostUrl"');
    // Its own secret file (`tokenFile`), read through its `secrets` list: given to its backend as
    // `Config.secrets.acquirer.stub.token`, masked when the configuration is described.
    expect(r.read.token).toEqual({ backend: 'stub-token-not-for-production', file: 'stub-token', masked: true });
  }, 120_000);
});
