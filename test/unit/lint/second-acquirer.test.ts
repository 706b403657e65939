import { describe, expect, it } from 'vitest';
import { secondAcquirer } from '../../../scripts/house/second-acquirer.js';

/**
 * The redone change 1 (the house issue): a stub acquirer kind with its own keys, added to a copy of the
 * tree as docs/architecture.md "Adding an acquirer" says (its folder, then `npm run generate`), type-checked
 * whole (`tsc --noEmit`: src and tests compile with two kinds) and read through `acquirer.kind`; the figure
 * is the copy's changed files, not a regular expression over the code.
 */
describe('a second acquirer kind with its own configuration keys', () => {
  it('takes its folder and `npm run generate`, no hand edit elsewhere, and the whole tree compiles with it; its keys and its secret are read and guarded under acquirer.stub', () => {
    const r = secondAcquirer(undefined, true);
    expect(r.byHand).toEqual([]);
    // What the generator wrote: the kinds' two registries and the configuration's schema and shape.
    expect(r.generated).toEqual([
      'config/omnipos.schema.json',
      'src/config/acquirer-registry.ts',
      'src/config/config-shape.generated.ts',
      'src/factory/acquirer-registry.ts',
    ]);
    expect(r.outside).toEqual(r.generated);
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
  }, 300_000);
});
