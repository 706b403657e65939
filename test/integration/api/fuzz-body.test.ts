import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from '../../helpers/daemon.js';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(async () => {
  await t?.stop();
});

/** Bodies a cash register might send by mistake: near-valid payment requests, any JSON, raw bytes. */
const nearPayment = fc.record(
  {
    amount: fc.oneof(fc.integer({ min: -5, max: 100_000_000 }), fc.double(), fc.string(), fc.constant(null)),
    method: fc.oneof(fc.constantFrom('credit', 'debit', 'voucher', 'wallet-qr', 'pix', 'CREDIT', ''), fc.string()),
    installments: fc.oneof(fc.integer({ min: -1, max: 120 }), fc.string()),
    interest: fc.constantFrom('ByMerchant', 'ByIssuer', 'x'),
    confirmation: fc.constantFrom('auto', 'ecr', 'never'),
    qrModality: fc.constantFrom('credit', 'debit', 'x'),
    payer: fc.oneof(fc.record({ name: fc.string(), document: fc.string() }), fc.anything()),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  nearPayment.map((b) => JSON.stringify(b)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  '',
  'application/json;;;',
);
const idempotencyKey = fc.option(
  fc.oneof(
    fc.constantFrom('k-1', 'k-2'),
    fc.string({ maxLength: 80 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  ),
  { nil: undefined },
);

describe('POST /v1/payments, fuzzed over loopback', () => {
  it('no body, header or content type crashes the daemon: every answer is JSON with a documented status, and 400s name a field or the body', async () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`payments body fuzz seed ${seed}`);
    const counts: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(body, contentType, idempotencyKey, async (b, type, key) => {
        const headers: Record<string, string> = { authorization: `Bearer ${t.token}` };
        if (type) headers['content-type'] = type;
        if (key !== undefined && key.trim() === key && key !== '') headers['idempotency-key'] = key;
        const res = await request(`${t.apiUrl}/v1/payments`, { method: 'POST', headers, body: b });
        const text = await res.body.text();
        counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
        expect([200, 202, 400, 409, 413, 415, 422]).toContain(res.statusCode);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        const parsed = JSON.parse(text) as { error?: { code: string; message: string; field?: string } };
        if (res.statusCode === 400 && parsed.error?.code === 'INVALID_FIELD') {
          expect(parsed.error.field).toBeTruthy();
          expect(parsed.error.message.startsWith(`${parsed.error.field}: `)).toBe(true);
        }
        // A started payment is withdrawn so the next run finds the terminal free more often.
        if (res.statusCode === 202) {
          const id = (parsed as { id: number }).id;
          await request(`${t.apiUrl}/v1/payments/${id}/cancel`, {
            method: 'POST',
            headers: { authorization: `Bearer ${t.token}` },
          }).then((r) => r.body.text());
        }
      }),
      { numRuns: 1000, seed },
    );
    console.log(`payments body fuzz statuses ${JSON.stringify(counts)}`);
    expect(counts[400]).toBeGreaterThan(100);
    for (let i = 0; i < 400 && t.busy; i++) await new Promise((r) => setTimeout(r, 25));
    const health = await request(`${t.apiUrl}/v1/health`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(health.statusCode).toBe(200);
    await health.body.text();
  }, 120_000);
});
