import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, apiCodeOf, type ErrorCode } from '../../../src/core/index.js';
import { openApiDocument } from '../../../src/api/openapi.js';
import { OPERATIONS } from '../../../src/api/operations.js';
import { operationKey } from '../../../src/api/routes.js';
import { createLogger } from '../../../src/core/log/index.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import { supervisedDaemon } from '../../helpers/wallet-pay.js';

/**
 * Issue 32: the error codes are the document's, from the one catalogue, and a refusal says what is
 * wrong where. Every answer here is also held to the document by the contract check (test/setup).
 */

type Op = {
  responses: Record<string, { description?: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
const doc = openApiDocument(OPERATIONS) as { paths: Record<string, Record<string, Op>> };
const codesOf = (op: Op, status: string): string[] =>
  (
    op.responses[status]?.content?.['application/json']?.schema as {
      properties?: { error?: { properties?: { code?: { enum?: string[] } } } };
    }
  )?.properties?.error?.properties?.code?.enum ?? [];

let t: Awaited<ReturnType<typeof supervisedDaemon>>;
beforeAll(async () => {
  t = await supervisedDaemon(createLogger({ level: 'silent' }));
});
afterAll(() => t?.stop());

async function call(method: 'GET' | 'POST', p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${t.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

async function until(p: string, done: (b: Record<string, any>) => boolean): Promise<Record<string, any>> {
  for (let i = 0; i < 800; i++) {
    const r = await call('GET', p);
    if (done(r.body)) return r.body;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`${p} never settled`);
}

describe('the error codes: one catalogue, listed per operation and status', () => {
  it('every operation lists its codes per status as an enum of Error.code, each at the status the catalogue gives it', () => {
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const key = `${method.toUpperCase()} ${path}`;
        expect(OPERATIONS.find((o) => operationKey(o) === key)?.errors, key).toBeDefined();
        for (const [status, r] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const codes = codesOf(op, status);
          expect(codes.length, `${key} ${status}`).toBeGreaterThan(0);
          for (const c of codes) expect(String(ERROR_CODES[c as ErrorCode]?.http), `${key} ${c}`).toBe(status);
          for (const c of codes) expect(r.description, `${key} ${status}`).toContain(`\`${c}\``);
        }
      }
  });

  it('no engine code reaches the API: each answers by its API name, which the operations list', () => {
    const listed = new Set(OPERATIONS.flatMap((o) => o.errors));
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      expect(apiCodeOf(code)).not.toMatch(/^ENGINE_/);
      if (code.startsWith('ENGINE_') && code !== 'ENGINE_CANCELLED') expect(listed).toContain(apiCodeOf(code));
    }
    for (const { errors } of OPERATIONS) for (const c of errors) expect(c).not.toMatch(/^ENGINE_/);
  });

  it('declares the 503s a cash register must handle on the operations that answer them', () => {
    const create = doc.paths['/v1/payments']!.post!;
    expect(codesOf(create, '503').sort()).toEqual(
      [
        'CLOCK_BEHIND',
        'INIT_NOT_INITIALIZED',
        'PINPAD_OPENING',
        'RECEIPT_PRINTER_NOT_READY',
        'STORE_WRITE_FAILED',
      ].sort(),
    );
    expect(codesOf(doc.paths['/v1/payments/{id}/void']!.post!, '503')).toEqual(
      expect.arrayContaining(['PINPAD_OPENING', 'STORE_WRITE_FAILED', 'INIT_NOT_INITIALIZED']),
    );
  });
});

describe("the event stream's own document", () => {
  it("is OpenAPI 3.2 (its meta-schema, by the contract validator), served without a token, equal to src/api/events.openapi.json, its Event the API document's", async () => {
    const res = await request(`${t.apiUrl}/v1/events.openapi.json`);
    expect(res.statusCode).toBe(200);
    const served = (await res.body.json()) as { components: { schemas: Record<string, unknown> } };
    expect(served).toEqual(
      JSON.parse(readFileSync(new URL('../../../src/api/events.openapi.json', import.meta.url), 'utf8')),
    );
    const { validate } = await import('@hyperjump/json-schema/openapi-3-2');
    expect(await validate('https://spec.openapis.org/oas/3.2/schema-base', served as never)).toMatchObject({
      valid: true,
    });
    const api = openApiDocument(OPERATIONS) as { components: { schemas: Record<string, unknown> } };
    for (const [name, schema] of Object.entries(served.components.schemas))
      expect(api.components.schemas[name]).toEqual(schema);
  });
});

describe("the day's close: one truth", () => {
  it('the document and docs/decisions.md both say a supervisor closes the day (403 SUPERVISOR_REQUIRED without)', () => {
    const close = doc.paths['/v1/day/close']!.post!;
    expect(codesOf(close, '403')).toEqual(['SUPERVISOR_REQUIRED']);
    const decisions = readFileSync(new URL('../../../docs/decisions.md', import.meta.url), 'utf8');
    const line = decisions.slice(
      decisions.indexOf('`POST /v1/day/close`'),
      decisions.indexOf('`POST /v1/day/close`') + 300,
    );
    expect(line).toContain('supervisor');
    expect(line).not.toContain('for now');
  });
});

describe('refusals on the daemon', () => {
  it('a void of a payment that does not exist is 404 NOT_FOUND, as every other operation says (was ENGINE_NOT_FOUND)', async () => {
    const r = await call('POST', '/v1/payments/999999/void', undefined, { 'x-supervisor-token': t.supervisor });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
  });

  it('`field` is the path of the field at fault: payer.email, not email', async () => {
    const r = await call('POST', '/v1/payments', {
      amount: 1000,
      method: 'pix',
      payer: { name: 'Ana Souza', document: '52998224725', email: 'ana@example.com' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'payer.email',
      message: 'payer.email: unknown field',
    });
    const name = await call('POST', '/v1/payments', {
      amount: 1000,
      method: 'pix',
      payer: { name: 'A', document: '52998224725' },
    });
    expect(name.body.error).toMatchObject({ field: 'payer.name' });
  });

  it('says what is wrong in the house style, not the validator’s phrasing', async () => {
    const big = await call('POST', '/v1/payments', { amount: 100_000_000, method: 'credit' });
    expect(big.body.error).toMatchObject({ field: 'amount', message: 'amount: must be at most 99999999' });
    const method = await call('POST', '/v1/payments', { amount: 100, method: 'cheque' });
    expect(method.body.error.message).toBe('method: one of credit, debit, voucher, wallet-qr, pix');
    const installments = await call('POST', '/v1/payments', { amount: 100, method: 'credit', installments: 0 });
    expect(installments.body.error.message).toBe('installments: must be at least 1');
  });

  it('a voided sale reads voided (amount, full); a second full void says the sale is voided in full, not that 0 is not a positive amount', async () => {
    const r = cardSim(t.pinpad.state).deck.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
    if (!r.ok) throw new Error(r.error);
    const sale = await call('POST', '/v1/payments', { amount: 1500, method: 'credit' });
    expect(sale.status).toBe(202);
    await until(`/v1/payments/${sale.body.id}`, (b) => b.state === 'confirmed');
    await new Promise((res) => setTimeout(res, 200)); // the card leaves the pinpad
    const first = await call('POST', `/v1/payments/${sale.body.id}/void`, undefined, {
      'x-supervisor-token': t.supervisor,
    });
    expect(first.status).toBe(202);
    await until(`/v1/voids/${first.body.id}`, (b) => b.state === 'confirmed');
    await until('/v1/health', (h) => h.busy === false);
    // The payment says it was voided, and by how much, without listing its voids.
    const voided = await call('GET', `/v1/payments/${sale.body.id}`);
    expect(voided.body).toMatchObject({ status: 'confirmed', voided: { amount: 1500, full: true } });
    const listed = await call('GET', '/v1/payments?status=confirmed');
    expect(listed.body.payments.find((p: { id: number }) => p.id === sale.body.id)).toMatchObject({
      voided: { amount: 1500, full: true },
    });
    const again = await call('POST', `/v1/payments/${sale.body.id}/void`, undefined, {
      'x-supervisor-token': t.supervisor,
    });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('VOID_OVER_LIMIT');
    expect(again.body.error.message).toContain('already voided in full');
  });
});
