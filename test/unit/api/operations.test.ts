import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/api/operations.js';
import { openApiDocument } from '../../../src/api/openapi.js';
import { isPublic, operationKey, takesTicket, type Operation } from '../../../src/api/routes.js';
import { reachOf, SCREEN_SCOPES } from '../../../src/api/scopes.js';

/**
 * One declaration per operation (src/api/routes.ts `Operation`): the router serves the list of
 * src/api/operations.ts and the document is built from it. What the compiler cannot hold is held
 * here: a declaration left out of the list, and two declarations of one route or one operationId.
 */

const isOperation = (v: unknown): v is Operation<never> =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { operationId?: unknown }).operationId === 'string' &&
  typeof (v as { handle?: unknown }).handle === 'function';

/** The operations a module exports (alone or in an array) that the list does not hold. */
function leftOut(exports: Record<string, unknown>, list: readonly unknown[]): string[] {
  const listed = new Set(list);
  return Object.entries(exports).flatMap(([name, v]) =>
    (Array.isArray(v) ? v : [v])
      .filter((o) => isOperation(o) && !listed.has(o))
      .map((o) => `${name}: ${operationKey(o as Operation<never>)}`),
  );
}

const SRC = new URL('../../../src/api/', import.meta.url);

describe('the API operations, one declaration each', () => {
  it('every operation declared in src/api is in OPERATIONS (a declaration left out is neither served nor documented)', async () => {
    const files = readdirSync(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    const missing: string[] = [];
    let found = 0;
    for (const f of files) {
      const exports = (await import(new URL(f, SRC).href)) as Record<string, unknown>;
      found += Object.values(exports)
        .flatMap((v) => (Array.isArray(v) ? v : [v]))
        .filter(isOperation).length;
      missing.push(...leftOut(exports, OPERATIONS).map((m) => `${f} ${m}`));
    }
    expect(missing).toEqual([]);
    // The reference's three are declared beside the list itself, not exported.
    expect(found + 3).toBeGreaterThanOrEqual(OPERATIONS.length);
    // The check can fail: a declaration exported and not listed.
    const orphan = { ...OPERATIONS[0]!, path: '/v1/orphan', operationId: 'orphan' };
    expect(leftOut({ ORPHAN: [orphan] }, OPERATIONS)).toEqual(['ORPHAN: POST /v1/orphan']);
  });

  it('names each route and each operationId once', () => {
    const keys = OPERATIONS.map(operationKey);
    const ids = OPERATIONS.map((o) => o.operationId);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("the router's admission is the document's security: open with `[]`, a ticket where `ticket` is listed, a screen's scheme where `screens` is declared", () => {
    const doc = openApiDocument(OPERATIONS) as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    for (const o of OPERATIONS) {
      const security = doc.paths[o.path]![o.method.toLowerCase()]!.security;
      const schemes = (security ?? [{ bearer: [] }]).flatMap((s) => Object.keys(s));
      expect(isPublic(o), operationKey(o)).toBe(security !== undefined && security.length === 0);
      expect(takesTicket(o), operationKey(o)).toBe(schemes.includes('ticket'));
      for (const screen of SCREEN_SCOPES)
        expect(schemes.includes(screen), `${screen} ${operationKey(o)}`).toBe(reachOf(o.screens, screen) !== undefined);
    }
    expect(OPERATIONS.filter(isPublic).map((o) => o.operationId)).toEqual([
      'getOpenApiDocument',
      'getEventStreamDocument',
      'getApiReference',
    ]);
    expect(OPERATIONS.filter(takesTicket).map((o) => o.operationId)).toEqual(['streamEvents']);
  });

  it("a documented error answer that none of the operation's codes gives is refused when the document is built", () => {
    const [first, ...rest] = OPERATIONS;
    const wrong = {
      ...first!,
      responses: {
        ...first!.responses,
        '418': { $ref: 'x' },
        '404': {
          description: 'd',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
    expect(() => openApiDocument([wrong, ...rest])).toThrow(
      'openapi: POST /v1/payments documents 404 but none of its errors gives it',
    );
  });
});
