import { describe, expect, it } from 'vitest';
import { newOperation } from '../../../scripts/house/new-operation.js';

/**
 * The redone change 2 (the house issue): `GET /v1/version` added to a copy of the tree as
 * docs/architecture.md "Adding an API operation" says, served by the copy's router and read in its
 * document; the figure is the copy's changed files, not a regular expression over the code.
 * (`npx tsx scripts/house/new-operation.ts --typecheck --test` also typechecks the copy and runs its tests.)
 */
describe('a new API operation', () => {
  it('takes one declaration beside its handler and its test, and `npm run generate`; the router serves it and the document names it', () => {
    const r = newOperation();
    expect(r.written).toEqual(['src/api/health.ts', 'test/integration/api/version.test.ts']);
    expect(r.generated).toEqual(['docs/integration.md', 'src/api/openapi.json']);
    expect(r.read).toEqual({
      served: { status: 200, body: { version: expect.stringMatching(/^\d+\.\d+\.\d+/) } },
      refused: 401,
      operationId: 'getVersion',
    });
  }, 180_000);
});
