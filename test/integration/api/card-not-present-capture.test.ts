import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedApi, type TestDaemon } from '../../helpers/documented-api.js';

/**
 * `POST /v1/card-not-present/sales/{id}/capture` and `…/void` on a real daemon with
 * `cardNotPresent: ecommerce` on the embedded sandbox: every answer the document declares for them,
 * produced and checked against its schema. The sale starts through `CnpEngine.start` (its own route
 * is another area's); the capture and the void go through the routes.
 */
const api = documentedApi({ env: { OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' } });
const { hit, paths, seen } = api;
let t: TestDaemon;
let supervisor: string;
beforeAll(async () => {
  t = await api.start();
  supervisor = readFileSync(path.join(t.stateDir, 'supervisor-token'), 'utf8').trim();
}, 60_000);
afterAll(async () => {
  await api.stop();
});

const CAPTURE = '/v1/card-not-present/sales/{id}/capture';
const VOID = '/v1/card-not-present/sales/{id}/void';
const card = {
  number: '4000000000000001',
  holder: 'Maria da Silva',
  expiry: '12/2030',
  securityCode: '123',
  brand: 'Visa',
};

async function preauth(amount: number): Promise<number> {
  const { entry, done } = await t.daemon.cnpEngine!.start(
    { amount, installments: 1, capture: false, method: 'credit' },
    card,
  );
  await done;
  return entry.id;
}
/** A fault on the embedded sandbox's next request of a route (its controls listener). */
async function fault(spec: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${t.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(r.status).toBe(200);
}
const url = (route: string, id: number | string) => route.replace('{id}', String(id));
const json = (v: unknown): string => JSON.stringify(v);

describe('the capture and void of a card-not-present sale, through the API', () => {
  it('a pre-authorization captured in part (200), then voided in part and whole by a supervisor (200)', async () => {
    const id = await preauth(8800);
    const captured = await hit(CAPTURE, url(CAPTURE, id), { method: 'POST', body: json({ amount: 6000 }) });
    expect(captured).toMatchObject({
      status: 200,
      body: { id, state: 'captured', status: 'confirmed', capturedAmount: 6000 },
    });
    // A second capture: 409 NOT_ALLOWED (once only).
    const again = await hit(CAPTURE, url(CAPTURE, id), { method: 'POST', body: json({}) });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'NOT_ALLOWED' } } });
    // Without the supervisor: 403; more than remains: 400 on `amount`.
    expect((await hit(VOID, url(VOID, id), { method: 'POST', body: json({ amount: 1000 }) })).status).toBe(403);
    const over = await hit(VOID, url(VOID, id), {
      method: 'POST',
      body: json({ amount: 6001 }),
      headers: { 'x-supervisor-token': supervisor },
    });
    expect(over).toMatchObject({ status: 400, body: { error: { code: 'INVALID_FIELD', field: 'amount' } } });
    const part = await hit(VOID, url(VOID, id), {
      method: 'POST',
      body: json({ amount: 1000 }),
      headers: { 'x-supervisor-token': supervisor },
    });
    expect(part).toMatchObject({ status: 200, body: { state: 'captured', voidedAmount: 1000 } });
    const rest = await hit(VOID, url(VOID, id), {
      method: 'POST',
      headers: { 'x-supervisor-token': supervisor, 'content-length': '0' },
    });
    expect(rest).toMatchObject({ status: 200, body: { state: 'voided', status: 'cancelled' } });
    expect(await t.call('GET', `/v1/payments/${id}`)).toMatchObject({ body: { state: 'voided', voidedAmount: 6000 } });
  });

  it('the host refuses (422 CNP_HOST_REFUSED, the sale as it was), the answer lost (202, settled by the outbox)', async () => {
    const id = await preauth(8810);
    await fault({ route: 'ecommerceSaleCapture', error: 308 });
    const refused = await hit(CAPTURE, url(CAPTURE, id), { method: 'POST', body: json({}) });
    expect(refused).toMatchObject({ status: 422, body: { error: { code: 'CNP_HOST_REFUSED' } } });
    expect(t.journal.get(id)!.state).toBe('authorized');
    const other = await preauth(8820);
    await fault({ route: 'ecommerceSaleVoid', status: 503 });
    const lost = await hit(VOID, url(VOID, other), {
      method: 'POST',
      body: json({}),
      headers: { 'x-supervisor-token': supervisor },
    });
    expect(lost).toMatchObject({ status: 202, body: { state: 'voiding' } });
    const third = await preauth(8840);
    await fault({ route: 'ecommerceSaleCapture', status: 503 });
    const lostCapture = await hit(CAPTURE, url(CAPTURE, third), { method: 'POST', body: json({ amount: 840 }) });
    expect(lostCapture).toMatchObject({ status: 202, body: { state: 'capturing' } });
    // The void of a pre-authorization the host refuses (309 "not available to void"): 422, still authorized.
    await fault({ route: 'ecommerceSaleVoid', error: 309 });
    const voidRefused = await hit(VOID, url(VOID, id), {
      method: 'POST',
      body: json({}),
      headers: { 'x-supervisor-token': supervisor },
    });
    expect(voidRefused).toMatchObject({ status: 422, body: { error: { code: 'CNP_HOST_REFUSED' } } });
    expect(t.journal.get(id)!.state).toBe('authorized');
  });

  it('refusals before anything is sent: 404, 400, 413, 415, 401, 421, and 409 for a sale that is not pre-authorized', async () => {
    expect((await hit(CAPTURE, url(CAPTURE, 999999), { method: 'POST', body: json({}) })).status).toBe(404);
    expect((await hit(VOID, url(VOID, 999999), { method: 'POST', body: json({}) })).status).toBe(404);
    const id = await preauth(8830);
    for (const route of [CAPTURE, VOID]) {
      const at = url(route, id);
      const headers = { 'x-supervisor-token': supervisor };
      expect((await hit(route, at, { method: 'POST', body: '{', headers })).status).toBe(400);
      expect((await hit(route, at, { method: 'POST', body: json({ amount: 1.5 }), headers })).status).toBe(400);
      expect((await hit(route, at, { method: 'POST', body: 'amount=1', type: 'text/plain', headers })).status).toBe(
        415,
      );
      expect((await hit(route, at, { method: 'POST', body: json({ pad: 'x'.repeat(70_000) }), headers })).status).toBe(
        413,
      );
      expect((await hit(route, at, { method: 'POST', body: json({}), token: 'wrong' })).status).toBe(401);
      expect((await hit(route, at, { method: 'POST', body: json({}), headers: { host: 'evil.example' } })).status).toBe(
        421,
      );
    }
    // A partial void of a pre-authorization (ecom:6285): 409 NOT_ALLOWED.
    const partial = await hit(VOID, url(VOID, id), {
      method: 'POST',
      body: json({ amount: 100 }),
      headers: { 'x-supervisor-token': supervisor },
    });
    expect(partial).toMatchObject({ status: 409, body: { error: { code: 'NOT_ALLOWED' } } });
  });

  it("left nothing the document declares for these routes unproduced (but the disk's 503)", () => {
    const declared = [CAPTURE, VOID].flatMap((p) =>
      Object.keys(paths()[p]!.post!.responses).map((s) => `POST ${p} ${s}`),
    );
    expect(declared.filter((d) => !seen.has(d) && !d.endsWith(' 503')).sort()).toEqual([]);
  });
});
