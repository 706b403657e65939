import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pathOf,
  ROUTE_BASE,
  SANDBOX_ROUTES,
  type SandboxRoute,
  type SandboxRouteName,
} from '../../../src/sandbox/routes.js';
import { sale, startHarness, type Harness } from '../../helpers/sandbox.js';

/** Whatever a client sends, the sandbox answers with a status and a JSON body (or nothing), and keeps serving. */
let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness();
  token = await h.acquirer.tokens.token('transactional');
});
afterAll(async () => {
  await h.close();
});

const names = Object.keys(ROUTE_BASE) as SandboxRouteName[];
const routeOf = (n: SandboxRouteName): SandboxRoute =>
  (SANDBOX_ROUTES[ROUTE_BASE[n]] as Record<string, SandboxRoute>)[n] as SandboxRoute;

describe('sandbox fuzz over loopback HTTP', () => {
  it('random bodies, content types and tokens on every route never crash it (1000 runs)', async () => {
    const seed = Date.now() % 2_147_483_647;
    console.log(`fast-check seed ${seed}`);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.oneof(fc.json(), fc.string(), fc.constant(JSON.stringify(sale(1000))), fc.constant('')),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', ''),
        fc.boolean(),
        fc.string({ maxLength: 20 }),
        async (name, body, type, withToken, param) => {
          // the sandbox's own table, each route on its own base's listener
          const spec = routeOf(name);
          const params = Object.fromEntries(
            [...spec.path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => [m[1], param === '' ? 'x' : param]),
          );
          const base = new URL(h.running.urls[ROUTE_BASE[name]]);
          const path = pathOf(name, params);
          const headers: Record<string, string> = {};
          if (type) headers['content-type'] = type;
          if (withToken) headers.authorization = `Bearer ${token}`;
          const res = await request(`${base.protocol}//${base.host}${path}`, {
            method: spec.method,
            headers,
            ...(spec.method !== 'GET' && body !== '' ? { body } : {}),
          });
          const text = await res.body.text();
          expect(res.statusCode).toBeGreaterThanOrEqual(200);
          expect(res.statusCode).toBeLessThan(600);
          expect(res.statusCode).not.toBe(500);
          // every route is served where it lives: never the unknown path's empty 404 unless a parameter is refused
          if (res.statusCode === 404 && text === '') expect(param).toMatch(/[/?#%]|^\.{1,2}$/);
          if (text !== '') expect(() => JSON.parse(text) as unknown).not.toThrow();
        },
      ),
      { numRuns: 1000, seed },
    );
    expect((await h.acquirer.omni.createSale(sale(1000))).Payment.Status).toBe(2);
  }, 60_000);
});
