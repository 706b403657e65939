import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_ERRORS } from '../../../tables/sandbox/published-errors.js';
import { BUILT_IN_MERCHANTS } from '../../../tables/sandbox/merchants.js';
import type { SandboxBase } from '../../../src/sandbox/index.js';
import {
  EMV_CONFIRM,
  EMV_UNDO,
  nextOrderId,
  sale,
  startHarness,
  voidRequest,
  type Harness,
} from '../../helpers/sandbox.js';

/**
 * The sandbox's own contract, on the wire: each base on its own listener, the host's published
 * error numbers, the manual's answer dialects, its not-found shapes, delayed visibility and two
 * merchants under one OAuth client. Sources: src/sandbox/routes.ts, tables/sandbox/*.
 */
let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness({ withholdMs: 900, clientTimeoutMs: 400 });
  token = await h.acquirer.tokens.token('transactional');
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.control('POST', '/sandbox/scenario', { dialect: 'pt', notFound: 'manual', visibilityDelayMs: 0 });
});

async function call(
  base: SandboxBase,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string; json: unknown }> {
  const u = new URL(h.running.urls[base]);
  const r = await request(`${u.protocol}//${u.host}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.body.text();
  return { status: r.statusCode, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const PUBLISHED = new Set(API_ERRORS.map((r) => r.code));

describe('each base address on its own listener', () => {
  it('a path on the wrong base gets the unknown path (404, no body); on its own base it is served', async () => {
    const req = sale(1000);
    // a sale sent to the query host, the e-commerce query host, the parameters host: unknown there
    for (const base of [
      'queries',
      'ecommerceQueries',
      'parameters',
      'registration',
      'authorization',
      'wallet',
    ] as const) {
      const r = await call(base, 'POST', '/1/physicalSales', req);
      expect([base, r.status, r.text]).toEqual([base, 404, '']);
    }
    expect((await call('requests', 'POST', '/1/physicalSales', req)).status).toBe(201);
    // the query by order id lives on the query host only
    expect((await call('requests', 'GET', `/1/physicalSales/MerchantOrderId/${req.MerchantOrderId}`)).status).toBe(404);
    expect((await call('queries', 'GET', `/1/physicalSales/MerchantOrderId/${req.MerchantOrderId}`)).status).toBe(200);
    // e-commerce: GET /1/sales/{id} and /1/cardBin only on the query host (ECOMMERCE 494, 852)
    expect((await call('ecommerceRequests', 'GET', '/1/cardBin/411011')).text).toBe('');
    expect((await call('requests', 'GET', '/1/cardBin/411011')).status).toBe(404);
  });

  it("the parameters host answers under the manual's /api/v0.1 only (CONECTA_PT 108)", async () => {
    const bare = await call(
      'parameters',
      'GET',
      `/initialization/${BUILT_IN_MERCHANTS[0]!.merchant.subordinatedMerchantId}/${BUILT_IN_MERCHANTS[0]!.terminal.terminalId}`,
    );
    expect([bare.status, bare.text]).toEqual([404, '']);
    const prefixed = await call(
      'parameters',
      'GET',
      `/api/v0.1/initialization/${BUILT_IN_MERCHANTS[0]!.merchant.subordinatedMerchantId}/${BUILT_IN_MERCHANTS[0]!.terminal.terminalId}`,
    );
    expect(prefixed.status).toBe(200);
  });

  it('Links point at the base that serves each operation', async () => {
    const a = await h.acquirer.omni.createSale(sale(1000));
    const links = (a.Payment as unknown as { Links: { Rel: string; Href: string }[] }).Links;
    expect(links.find((l) => l.Rel === 'self')?.Href.startsWith(new URL(h.running.urls.queries).origin)).toBe(true);
    expect(links.find((l) => l.Rel === 'confirm')?.Href.startsWith(new URL(h.running.urls.requests).origin)).toBe(true);
  });
});

describe('errors as the host sends them', () => {
  it('refusals are [{Code, Message}] arrays with published numbers only', async () => {
    const req = sale(1000);
    await h.acquirer.omni.createSale(req);
    const bodies = [
      await call('requests', 'POST', '/1/physicalSales', req), // duplicate
      await call('requests', 'POST', '/1/physicalSales', { ...req, MerchantOrderId: undefined }),
      await call('queries', 'GET', '/1/physicalSales/00000000-0000-4000-8000-000000000000'),
      await call('requests', 'DELETE', `/1/physicalSales/orderId/${nextOrderId()}`),
    ];
    expect(bodies.map((b) => b.status)).toEqual([400, 400, 404, 404]);
    for (const b of bodies) {
      expect(Array.isArray(b.json)).toBe(true);
      for (const e of b.json as { Code: number; Message: string }[]) {
        expect(PUBLISHED.has(e.Code)).toBe(true);
        expect(Object.keys(e).sort()).toEqual(['Code', 'Message']);
      }
    }
    expect((bodies[0]!.json as { Code: number }[])[0]!.Code).toBe(302);
    expect((bodies[2]!.json as { Code: number }[])[0]!.Code).toBe(307);
  });

  it('a fault can make any route answer any published error, before or after the host did the work', async () => {
    expect((await h.control('POST', '/sandbox/faults', { route: 'saleUndo', error: 999 })).status).toBe(400);
    expect((await h.control('POST', '/sandbox/faults', { route: 'walletCardPayment', error: 309 })).status).toBe(400);
    const a = await h.acquirer.omni.createSale(sale(1000));
    await h.fault('saleUndo', { error: 310, handled: true });
    const undo = await call('requests', 'DELETE', `/1/physicalSales/${a.Payment.PaymentId}`, EMV_UNDO);
    expect(undo).toMatchObject({
      status: 400,
      json: [{ Code: 310, Message: 'Payment method doest not support this operation' }],
    });
    // the host did undo it: an answer the client must not read as "not undone"
    expect((await h.acquirer.omni.getSale(a.Payment.PaymentId)).Payment.ConfirmationStatus).toBe(2);
    const b = await h.acquirer.omni.createSale(sale(1000));
    await h.fault('saleConfirm', { error: 308, errorStatus: 409 });
    expect(
      await call('requests', 'PUT', `/1/physicalSales/${b.Payment.PaymentId}/confirmation`, EMV_CONFIRM),
    ).toMatchObject({ status: 409, json: [{ Code: 308 }] });
    expect((await h.acquirer.omni.getSale(b.Payment.PaymentId)).Payment.ConfirmationStatus).toBe(0);
  });
});

describe('not found, visibility and dialects (scenarios)', () => {
  it('not found by order id in every scenario shape', async () => {
    const id = nextOrderId();
    const get = () => call('queries', 'GET', `/1/physicalSales/MerchantOrderId/${id}`);
    expect(await get()).toMatchObject({ status: 404, json: [{ Code: 307 }] });
    await h.control('POST', '/sandbox/scenario', { notFound: '318' });
    expect(await get()).toMatchObject({ status: 404, json: [{ Code: 318, Message: 'No transaction found' }] });
    await h.control('POST', '/sandbox/scenario', { notFound: 'empty-list' });
    expect(await get()).toMatchObject({ status: 200, json: [] });
    await h.control('POST', '/sandbox/scenario', { notFound: 'payments-empty' });
    expect(await get()).toMatchObject({ status: 200, json: { Payments: [] } });
    expect((await h.control('POST', '/sandbox/scenario', { notFound: 'nothing' })).status).toBe(400);
  });

  it("a sale becomes visible to the query host only after the scenario's delay (on the host clock)", async () => {
    await h.control('POST', '/sandbox/scenario', { visibilityDelayMs: 120_000 });
    const req = sale(1000);
    const a = await h.acquirer.omni.createSale(req);
    expect((await call('queries', 'GET', `/1/physicalSales/MerchantOrderId/${req.MerchantOrderId}`)).status).toBe(404);
    expect((await call('queries', 'GET', `/1/physicalSales/${a.Payment.PaymentId}`)).status).toBe(404);
    await h.control('POST', '/sandbox/clock', { advanceMs: 121_000 });
    expect((await call('queries', 'GET', `/1/physicalSales/MerchantOrderId/${req.MerchantOrderId}`)).status).toBe(200);
  });

  it("void answers in the pt and en pages' shapes", async () => {
    const a = await h.acquirer.omni.createSale(sale(10000));
    await h.acquirer.omni.confirmSale(a.Payment.PaymentId, EMV_CONFIRM);
    const pt = await call('requests', 'POST', `/1/physicalSales/${a.Payment.PaymentId}/voids`, voidRequest(1000));
    expect(pt).toMatchObject({ status: 201, json: { CancellationStatus: 1 } });
    const ptId = (pt.json as { VoidId: string }).VoidId;
    // CONECTA_PT 8593-8600, literally: CancellationStatus 4 and the misspelt ConfirmatinoStatus
    const ptConfirm = await call(
      'requests',
      'PUT',
      `/1/physicalSales/${a.Payment.PaymentId}/voids/${ptId}/confirmation`,
    );
    expect(ptConfirm.json).toMatchObject({ CancellationStatus: 4, ConfirmatinoStatus: 1, Status: 2, ReturnCode: 0 });
    expect(await call('queries', 'GET', `/1/physicalSales/${a.Payment.PaymentId}/voids/${ptId}`)).toMatchObject({
      json: { CancellationStatus: 3 },
    });
    await h.control('POST', '/sandbox/scenario', { dialect: 'en' });
    const en = await call('requests', 'POST', `/1/physicalSales/${a.Payment.PaymentId}/voids`, voidRequest(1000));
    // CONECTA_EN 1458-1466: {VoidId, Status: 10, ReturnCode: 0, ReturnMessage: "Success", Links}
    expect(en).toMatchObject({ status: 201, json: { Status: 10, ReturnCode: 0, ReturnMessage: 'Success' } });
    expect(Object.keys(en.json as object)).not.toContain('CancellationStatus');
  });
});

describe('merchants under one OAuth client', () => {
  it("two merchants' first terminals issuing the same MerchantOrderId collide (302), flagged", async () => {
    const [one, two] = BUILT_IN_MERCHANTS as [(typeof BUILT_IN_MERCHANTS)[0], (typeof BUILT_IN_MERCHANTS)[0]];
    expect(one.merchant.subordinatedMerchantId).not.toBe(two.merchant.subordinatedMerchantId);
    expect(two.terminal.ordinal).toBe(one.terminal.ordinal);
    const req = sale(1000);
    expect((await call('requests', 'POST', '/1/physicalSales', req)).status).toBe(201);
    const other = {
      ...req,
      Payment: {
        ...req.Payment,
        SubordinatedMerchantId: two.merchant.subordinatedMerchantId,
        PinPadInformation: { ...req.Payment.PinPadInformation, TerminalId: two.terminal.terminalId },
      },
    };
    // the second merchant's terminal sells on its own
    const own = { ...other, MerchantOrderId: nextOrderId() };
    expect(await call('requests', 'POST', '/1/physicalSales', own)).toMatchObject({
      status: 201,
      json: { Payment: { TerminalAcquirerId: two.terminal.terminalId } },
    });
    expect(await call('requests', 'POST', '/1/physicalSales', other)).toMatchObject({
      status: 400,
      json: [{ Code: 302 }],
    });
    const l = await h.ledger();
    expect(
      l.problems.filter((p) => p.kind === 'duplicate-order-id' && p.merchantOrderId === req.MerchantOrderId),
    ).toHaveLength(1);
    // the query by order id finds the first merchant's sale: the second terminal must see it is not its own
    const q = await call('queries', 'GET', `/1/physicalSales/MerchantOrderId/${req.MerchantOrderId}`);
    expect(q.json).toMatchObject({
      Payment: {
        SubordinatedMerchantId: one.merchant.subordinatedMerchantId,
        PinPadInformation: { TerminalId: one.terminal.terminalId },
      },
    });
  });
});
