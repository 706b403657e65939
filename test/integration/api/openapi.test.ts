import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/api/operations.js';
import { isPublic } from '../../../src/api/routes.js';
import { openEvents, startTestDaemon } from '../../helpers/daemon.js';

const COMMITTED = new URL('../../../src/api/openapi.json', import.meta.url);

let t: Awaited<ReturnType<typeof startTestDaemon>>;
let doc: Record<string, unknown>;
beforeAll(async () => {
  t = await startTestDaemon();
  const res = await request(`${t.apiUrl}/v1/openapi.json`);
  expect(res.statusCode).toBe(200);
  doc = (await res.body.json()) as Record<string, unknown>;
});
afterAll(async () => {
  await t?.stop();
});

type Op = {
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  security?: unknown[];
};
const paths = () => doc.paths as Record<string, Record<string, Op>>;

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await request(`${t.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: await res.body.json() };
}

/** The response conforms to the schema the document gives for that route and status. */
function conforms(method: string, path: string, r: { status: number; body: unknown }) {
  const schema =
    paths()[path]?.[method.toLowerCase()]?.responses[String(r.status)]?.content?.['application/json']?.schema;
  expect(schema, `${method} ${path} ${r.status} is not documented`).toBeDefined();
  // The body's fit to it is the contract hook's (test/setup/contract.ts), on every answer.
  expect(r.body).toBeDefined();
}

describe('GET /v1/openapi.json', () => {
  it('is OpenAPI 3.1, served without a token, and equal to the committed src/api/openapi.json (`npm run generate` writes it)', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.parse(readFileSync(COMMITTED, 'utf8'))).toEqual(doc);
  });

  it('documents every route the router serves, and only those', () => {
    const served = OPERATIONS.map((r) => `${r.method} ${r.path}`).sort();
    const documented = Object.entries(paths())
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(served.length).toBeGreaterThanOrEqual(9);
    expect(documented).toEqual(served);
    for (const r of OPERATIONS) {
      const op = paths()[r.path]![r.method.toLowerCase()]!;
      // Every route but the document itself needs the token, and says so with its 401 and the error shape.
      if (isPublic(r)) expect(op.security).toEqual([]);
      else
        expect(op.responses['401']?.content?.['application/json']?.schema).toEqual({
          allOf: [{ $ref: '#/components/schemas/Error' }],
          properties: { error: { properties: { code: { type: 'string', enum: ['UNAUTHORIZED'] } } } },
        });
    }
  });

  it('holds together: every $ref resolves, every {param} of a path is a declared path parameter', () => {
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    const refs: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref') refs.push(x as string);
          else walk(x);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) expect(schemas[r.replace('#/components/schemas/', '')], r).toBeDefined();
    for (const [p, ops] of Object.entries(paths())) {
      const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(ops) as { parameters?: { name: string; in: string }[] }[]) {
        expect((op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name)).toEqual(names);
      }
    }
  });

  it('real answers conform to the documented schemas (payments, errors, health)', async () => {
    const created = await call('POST', '/v1/payments', { amount: 2510, method: 'credit', confirmation: 'ecr' });
    conforms('POST', '/v1/payments', created);
    const id = (created.body as { id: number }).id;
    let read = await call('GET', `/v1/payments/${id}`);
    for (let i = 0; i < 400 && (read.body as { status: string }).status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      read = await call('GET', `/v1/payments/${id}`);
    }
    expect((read.body as { status: string }).status).toBe('approved');
    conforms('GET', '/v1/payments/{id}', read);
    conforms('POST', '/v1/payments/{id}/confirm', await call('POST', `/v1/payments/${id}/confirm`));
    conforms('POST', '/v1/payments/{id}/confirm', await call('POST', `/v1/payments/${id}/confirm`)); // 409
    conforms('GET', '/v1/payments', await call('GET', '/v1/payments'));
    conforms('GET', '/v1/payments', await call('GET', '/v1/payments?status=nope')); // 400
    conforms('POST', '/v1/payments', await call('POST', '/v1/payments', { amount: -1, method: 'credit' })); // 400
    conforms('GET', '/v1/payments/{id}', await call('GET', '/v1/payments/99999')); // 404
    conforms('GET', '/v1/health', await call('GET', '/v1/health'));
    const wrong = await request(`${t.apiUrl}/v1/health`, { headers: { authorization: 'Bearer nope' } });
    conforms('GET', '/v1/health', { status: wrong.statusCode, body: await wrong.body.json() });
    // Each body's fit is the contract hook's (test/setup/contract.ts); contract-hook.test.ts shows it can fail.
  });

  it('events on the stream conform to the Event schema', async () => {
    const stream = await openEvents(t.apiUrl, t.token);
    await stream.next();
    await call('POST', '/v1/payments', { amount: 2610, method: 'wallet-qr', qrModality: 'credit' });
    const event = await stream.next();
    stream.close();
    if ('comment' in event) throw new Error('expected an event');
    // The contract hook checked it against `Event` as it came (test/setup/contract.ts).
    expect(JSON.parse(event.data)).toMatchObject({ type: expect.any(String) });
  });
});
