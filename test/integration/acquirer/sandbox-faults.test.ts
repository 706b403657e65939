import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMV_CONFIRM, EMV_UNDO, sale, startHarness, voidRequest, type Harness } from '../../helpers/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ withholdMs: 900, clientTimeoutMs: 400 });
});
afterAll(async () => {
  await h.close();
});

const omni = (): Harness['acquirer']['omni'] => h.acquirer.omni;

describe('fault injection and the undo race', () => {
  it('a reset after the sale is recorded gives an unknown outcome; the undo that follows leaves nothing charged', async () => {
    await h.fault('saleCreate', { reset: 'after' });
    const req = sale(4200);
    const { outcome } = await omni().authorize(req);
    expect(outcome).toEqual({ kind: 'unknown', reason: 'lost' });
    let l = await h.ledger();
    expect(l.sales.find((s) => s.merchantOrderId === req.MerchantOrderId)?.charged).toBe(4200);
    await expect(
      omni().settle('undo', () => omni().undoSaleByOrderId(req.MerchantOrderId, EMV_UNDO)),
    ).resolves.toMatchObject({ action: 'done' });
    l = await h.ledger();
    expect(l.sales.find((s) => s.merchantOrderId === req.MerchantOrderId)?.charged).toBe(0);
  });

  it('a reset before recording: unknown to the client, nothing at the host; the undo by order id gets 404 → retry, never final', async () => {
    await h.fault('saleCreate', { reset: 'before' });
    const req = sale(4300);
    expect((await omni().authorize(req)).outcome).toEqual({ kind: 'unknown', reason: 'lost' });
    // the manual's not-found: 404 with the published 307 (ECOMMERCE 7548); the client must not read it as final
    const undo = await omni()
      .undoSaleByOrderId(req.MerchantOrderId)
      .catch((e: unknown) => e);
    expect((undo as { context: { status: number; returnCode: number } }).context).toMatchObject({
      status: 404,
      returnCode: 307,
    });
    expect((await h.ledger()).sales.some((s) => s.merchantOrderId === req.MerchantOrderId)).toBe(false);
  });

  it('a dropped answer: recorded, never answered; found by the query by order id', async () => {
    await h.fault('saleCreate', { drop: true });
    const req = sale(4400);
    expect((await omni().authorize(req)).outcome).toEqual({ kind: 'unknown', reason: 'timeout' });
    const q = await omni().getSaleByOrderId(req.MerchantOrderId);
    expect(q.Payment).toMatchObject({ Status: 2, ConfirmationStatus: 0 });
  });

  it('a sale still landing: the first query by order id says 404, a later one finds it (404 is never final by itself)', async () => {
    await h.fault('saleCreate', { latencyMs: 500 });
    const req = sale(4350);
    const fast = h.newAcquirer(150);
    expect((await fast.omni.authorize(req)).outcome).toEqual({ kind: 'unknown', reason: 'timeout' });
    const first = await fast.omni.getSaleByOrderId(req.MerchantOrderId).catch((e: unknown) => e);
    expect((first as { context: { status: number } }).context.status).toBe(404);
    await new Promise((r) => setTimeout(r, 600));
    expect((await fast.omni.getSaleByOrderId(req.MerchantOrderId)).Payment.Status).toBe(2);
  });

  it('a 5xx fault is not recorded, latency delays, and faults count down', async () => {
    await h.fault('saleCreate', { status: 503, times: 2 });
    expect((await omni().authorize(sale(4500))).outcome).toMatchObject({ kind: 'unknown', reason: 'HTTP 503' });
    expect((await omni().authorize(sale(4500))).outcome).toMatchObject({ kind: 'unknown', reason: 'HTTP 503' });
    expect((await omni().authorize(sale(4500))).outcome.kind).toBe('approved');
    await h.fault('saleGet', { latencyMs: 150 });
    const a = await omni().createSale(sale(4600));
    const t0 = Date.now();
    await omni().getSale(a.Payment.PaymentId);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('refuses an unknown fault route or member', async () => {
    expect((await h.control('POST', '/sandbox/faults', { route: 'nope', drop: true })).status).toBe(400);
    expect((await h.control('POST', '/sandbox/faults', { route: 'saleCreate', status: 200 })).status).toBe(400);
  });
});

describe('strictness', () => {
  it('a repeated MerchantOrderId is refused and flagged in the ledger', async () => {
    const req = sale(4700);
    await omni().createSale(req);
    const again = await omni().authorize({ ...req, Payment: { ...req.Payment, Amount: 4800 } });
    // 302 "Sent MerchantOrderId is duplicated" (ECOMMERCE 7537), not a number of ours
    expect(again.outcome).toMatchObject({ kind: 'refused', status: 400, returnCode: 302 });
    const l = await h.ledger();
    expect(
      l.problems.filter((p) => p.kind === 'duplicate-order-id' && p.merchantOrderId === req.MerchantOrderId),
    ).toHaveLength(1);
    expect(l.sales.filter((s) => s.merchantOrderId === req.MerchantOrderId)).toHaveLength(1);
  });

  it('missing fields are refused with each field named', async () => {
    const req = sale(4900) as unknown as { Payment: Record<string, unknown>; MerchantOrderId?: string };
    delete req.MerchantOrderId;
    delete req.Payment.PaymentDateTime;
    delete (req.Payment.CreditCard as Record<string, unknown>).BrandId;
    const { outcome } = await omni().authorize(req as never);
    // the first entry of the published array: 122 "MerchantOrderId is required" (ECOMMERCE 7429)
    expect(outcome).toMatchObject({ kind: 'refused', status: 400, returnCode: 122 });
    const token = await h.acquirer.tokens.token('transactional');
    const raw = await request(`${h.running.urls.requests}/1/physicalSales`, {
      method: 'POST',
      body: JSON.stringify(req),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    const entries = (await raw.body.json()) as { Code: number; Message: string }[];
    expect(entries.map((e) => e.Code)).toEqual([122, 0, 182]);
    const msg = entries.map((e) => e.Message).join(' | ');
    expect(msg).toContain('MerchantOrderId: is required');
    expect(msg).toContain('Payment.PaymentDateTime: is required');
    expect(msg).toContain('Payment.CreditCard.BrandId: is required');
  });

  it('a chip sale without encrypted track data is refused naming TrackTwoData and the KSN', async () => {
    const req = sale(4901);
    const c = req.Payment.CreditCard as unknown as Record<string, unknown>;
    delete c.TrackTwoData;
    delete (c.EncryptedCardData as Record<string, unknown>).TrackTwoDataKSN;
    const { outcome } = await omni().authorize(req);
    expect((outcome as { returnMessage: string }).returnMessage).toMatch(
      /Payment\.CreditCard\.TrackTwoData: is required.*TrackTwoDataKSN: is required/,
    );
  });

  it('DELETE on the query path /MerchantOrderId/ is refused with 405 (only GET there)', async () => {
    const req = sale(5100);
    await omni().createSale(req);
    const token = await h.acquirer.tokens.token('transactional');
    const res = await request(`${h.running.urls.queries}/1/physicalSales/MerchantOrderId/${req.MerchantOrderId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    await res.body.dump();
    expect((await omni().getSaleByOrderId(req.MerchantOrderId)).Payment.ConfirmationStatus).toBe(0);
  });

  it('bad JSON, wrong content type, empty body, huge body, missing or wrong token, unknown path: documented statuses, and the host keeps serving', async () => {
    const token = await h.acquirer.tokens.token('transactional');
    const auth = { authorization: `Bearer ${token}` };
    const post = async (
      body: string,
      headers: Record<string, string>,
    ): Promise<{ status: number; body: Record<string, unknown> }> => {
      const r = await request(`${h.running.urls.requests}/1/physicalSales`, { method: 'POST', body, headers });
      const text = await r.body.text();
      return { status: r.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    };
    const first = (r: { body: unknown }): { Code: number; Message: string } =>
      (r.body as { Code: number; Message: string }[])[0] as { Code: number; Message: string };
    expect(first(await post('{"MerchantOrderId":', { ...auth, 'content-type': 'application/json' }))).toMatchObject({
      Code: 184,
    });
    expect((await post('{}', { ...auth, 'content-type': 'text/xml' })).status).toBe(415);
    expect(first(await post('', { ...auth, 'content-type': 'application/json' }))).toMatchObject({
      Code: 184,
      Message: expect.stringMatching(/body: is required/),
    });
    expect(first(await post('[]', { ...auth, 'content-type': 'application/json' })).Message).toMatch(
      /must be a JSON object/,
    );
    expect((await post('null', { ...auth, 'content-type': 'application/json' })).status).toBe(400);
    expect(
      (
        await post('x'.repeat(300_000), { ...auth, 'content-type': 'application/json' }).catch(() => ({
          status: 413,
          body: {},
        }))
      ).status,
    ).toBe(413);
    expect((await post('{}', { 'content-type': 'application/json' })).status).toBe(401);
    expect((await post('{}', { authorization: 'Bearer nope', 'content-type': 'application/json' })).status).toBe(401);
    expect((await post('{}', { authorization: 'Basic eDp5', 'content-type': 'application/json' })).status).toBe(401);
    const r404 = await request(`${h.running.urls.requests}/2/nothing`, { method: 'GET' });
    expect(r404.statusCode).toBe(404);
    expect(await r404.body.text()).toBe('');
    expect((await omni().createSale(sale(5200))).Payment.Status).toBe(2);
  });

  it('the token endpoint: wrong secret 401 invalid_client, bad grant 400, unknown scope 400, seed scopes accepted, manual scopes by default', async () => {
    const basic = (id: string, s: string): string => `Basic ${Buffer.from(`${id}:${s}`).toString('base64')}`;
    const tok = async (
      auth: string,
      body: string,
      type = 'application/x-www-form-urlencoded',
    ): Promise<{ status: number; body: Record<string, unknown> }> => {
      const r = await request(`${h.running.urls.authorization}/oauth2/token`, {
        method: 'POST',
        body,
        headers: { authorization: auth, 'content-type': type },
      });
      return { status: r.statusCode, body: JSON.parse(await r.body.text()) as Record<string, unknown> };
    };
    const good = basic('omnipos-sandbox-client', 'omnipos-sandbox-secret-not-for-production');
    expect(await tok(basic('omnipos-sandbox-client', 'wrong'), 'grant_type=client_credentials')).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await tok(good, 'grant_type=password')).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect(await tok(good, 'grant_type=client_credentials&scope=Everything')).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
    const seed = await tok(good, 'grant_type=client_credentials&scope=Administrator', 'text/plain');
    expect(seed).toMatchObject({ status: 200, body: { token_type: 'bearer', expires_in: 86399 } });
    // a registration-only token may not sell
    const master = await tok(good, 'grant_type=client_credentials&scope=PhysicalCieloMaster');
    const r = await request(`${h.running.urls.queries}/1/physicalSales/x`, {
      headers: { authorization: `Bearer ${String(master.body.access_token)}` },
    });
    expect(r.statusCode).toBe(403);
    await r.body.dump();
    const admin = await request(`${h.running.urls.queries}/1/physicalSales/x`, {
      headers: { authorization: `Bearer ${String(seed.body.access_token)}` },
    });
    expect(admin.statusCode).toBe(404);
    await admin.body.dump();
  });
});

describe('clock, daily close, restart', () => {
  it('the Date header follows the host clock; a token expires on it and the client renews once', async () => {
    const a = await omni().createSale(sale(5300));
    const future = new Date(Date.now() + 2 * 86_400_000);
    expect((await h.control('POST', '/sandbox/clock', { now: future.toISOString() })).status).toBe(200);
    const dates: Date[] = [];
    const r = await request(`${h.running.url}/sandbox/health`);
    dates.push(new Date(String(r.headers.date)));
    await r.body.dump();
    expect(Math.abs((dates[0]?.getTime() ?? 0) - future.getTime())).toBeLessThan(5000);
    // the client's cached token has expired at the host: 401, renew, repeat
    await expect(omni().getSale(a.Payment.PaymentId)).resolves.toMatchObject({
      Payment: { PaymentId: a.Payment.PaymentId },
    });
  });

  it('a sale left pending at 00:00 America/Sao_Paulo is confirmed by the close and flagged; its undo is refused (needs-refund) and flagged', async () => {
    await h.control('POST', '/sandbox/clock', { now: '2027-03-10T23:50:00-03:00' });
    const req = sale(5400);
    const a = await omni().createSale(req);
    const before = await omni().createSale(sale(5500));
    await omni().confirmSale(before.Payment.PaymentId, EMV_CONFIRM);
    await h.control('POST', '/sandbox/clock', { now: '2027-03-11T00:00:05-03:00' });
    const q = await omni().getSaleByOrderId(req.MerchantOrderId);
    expect(q.Payment.ConfirmationStatus).toBe(1);
    const l = await h.ledger();
    expect(l.problems.filter((p) => p.kind === 'pending-at-close' && p.paymentId === a.Payment.PaymentId)).toHaveLength(
      1,
    );
    expect(l.problems.some((p) => p.paymentId === before.Payment.PaymentId)).toBe(false);
    // the host's answer: 309 "Transaction not available to void" (ECOMMERCE 7544); the client must query and find ConfirmationStatus 1
    const undo = await omni()
      .undoSaleByOrderId(req.MerchantOrderId, EMV_UNDO)
      .catch((e: unknown) => e);
    expect((undo as { context: { status: number; returnCode: number } }).context).toMatchObject({
      status: 400,
      returnCode: 309,
    });
    expect(
      (await h.ledger()).problems.filter((p) => p.kind === 'undo-after-close' && p.paymentId === a.Payment.PaymentId),
    ).toHaveLength(1);
  });

  it('POST /sandbox/close-day confirms what is pending now, voids included, each flagged', async () => {
    const a = await omni().createSale(sale(5600));
    const b = await omni().createSale(sale(5700));
    await omni().confirmSale(b.Payment.PaymentId, EMV_CONFIRM);
    const v = (await omni().settleVoid(b.Payment.PaymentId, voidRequest(700))) as { voidId: string };
    const r = await h.control('POST', '/sandbox/close-day');
    expect(r.body).toMatchObject({ salesConfirmed: expect.any(Number), voidsConfirmed: expect.any(Number) });
    expect((r.body as { salesConfirmed: number }).salesConfirmed).toBeGreaterThanOrEqual(1);
    expect((await omni().getSale(a.Payment.PaymentId)).Payment.ConfirmationStatus).toBe(1);
    expect((await omni().getVoid(b.Payment.PaymentId, v.voidId)).CancellationStatus).toBe(3);
    const l = await h.ledger();
    expect(l.problems.some((p) => p.kind === 'void-pending-at-close' && p.paymentId === b.Payment.PaymentId)).toBe(
      true,
    );
    expect(l.sales.find((s) => s.paymentId === b.Payment.PaymentId)?.charged).toBe(5000);
    const undo = await omni()
      .undoVoid(b.Payment.PaymentId, v.voidId)
      .catch((e: unknown) => e);
    expect((undo as { context: { status: number; returnCode: number } }).context).toMatchObject({
      status: 400,
      returnCode: 309,
    });
  });

  it('a restart loses nothing: sales, ledger, clock and faults survive', async () => {
    const a = await omni().createSale(sale(5700));
    await h.fault('saleGet', { status: 502, times: 3 });
    const clockBefore = (await h.control('GET', '/sandbox/clock')).body as { now: string };
    const entriesBefore = (await h.ledger()).entries.length;
    await h.restart();
    const fresh = h.newAcquirer();
    expect((await h.control('GET', '/sandbox/faults')).body).toMatchObject({ saleGet: { status: 502, times: 3 } });
    await h.control('DELETE', '/sandbox/faults');
    await expect(fresh.omni.getSale(a.Payment.PaymentId)).resolves.toMatchObject({ Payment: { Status: 2 } });
    const clockAfter = (await h.control('GET', '/sandbox/clock')).body as { now: string };
    expect(Math.abs(Date.parse(clockAfter.now) - Date.parse(clockBefore.now))).toBeLessThan(10_000);
    expect((await h.ledger()).entries.length).toBeGreaterThanOrEqual(entriesBefore);
  });
});
