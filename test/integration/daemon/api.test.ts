import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';

let daemon: TestDaemon;
let token: string;
let stateDir: string;
let t: TestDaemon;

beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-api-' });
  daemon = t;
  ({ token, stateDir } = t);
});
afterAll(() => t.stop());

async function call(
  method: 'GET' | 'POST',
  p: string,
  o: { body?: unknown; raw?: string; type?: string; auth?: string | null; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.auth !== null) headers.authorization = o.auth ?? `Bearer ${token}`;
  if (o.body !== undefined || o.raw !== undefined) headers['content-type'] = o.type ?? 'application/json';
  const res = await request(`${daemon.apiUrl}${p}`, {
    method,
    headers,
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : o.raw !== undefined ? { body: o.raw } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

/** Until the pinpad is free again (the card removed after a sale ends). */
async function idle() {
  for (let i = 0; i < 400; i++) {
    if (!(await call('GET', '/v1/health')).body.busy) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('the terminal stayed busy');
}

async function until(id: number, statuses: string[]) {
  for (let i = 0; i < 200; i++) {
    const r = await call('GET', `/v1/payments/${id}`);
    if (statuses.includes(r.body.status)) return r.body;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`payment ${id} never reached ${statuses.join('|')}`);
}

describe('the cash register API over loopback HTTP', () => {
  it('a sale with confirmation by the cash register: pending → approved (awaiting) → confirmed', async () => {
    const created = await call('POST', '/v1/payments', {
      body: { amount: 2510, method: 'credit', confirmation: 'ecr' },
      headers: { 'idempotency-key': 'ecr-sale-1' },
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ status: 'pending', amount: 2510, method: 'credit', confirmation: 'ecr' });
    const approved = await until(created.body.id, ['approved', 'declined', 'failed']);
    expect(approved).toMatchObject({
      status: 'approved',
      state: 'awaiting-decision',
      card: { maskedPan: '476173******0060' },
    });
    expect(approved.authorizationCode).toMatch(/^\d{6}$/);
    expect(
      (await call('GET', '/v1/payments?status=approved')).body.payments.map((p: { id: number }) => p.id),
    ).toContain(created.body.id);
    const confirmed = await call('POST', `/v1/payments/${created.body.id}/confirm`);
    expect(confirmed.body.status).toBe('confirmed');
    const again = await call('POST', '/v1/payments', {
      body: { amount: 2510, method: 'credit', confirmation: 'ecr' },
      headers: { 'idempotency-key': 'ecr-sale-1' },
    });
    expect(again).toMatchObject({ status: 200, body: { id: created.body.id } });
    const other = await call('POST', '/v1/payments', {
      body: { amount: 999, method: 'credit' },
      headers: { 'idempotency-key': 'ecr-sale-1' },
    });
    expect(other).toMatchObject({
      status: 422,
      body: { error: { code: 'IDEMPOTENCY_KEY_REUSED', field: 'Idempotency-Key' } },
    });
    expect((await call('POST', `/v1/payments/${created.body.id}/confirm`)).status).toBe(409);
  });

  it('a declined sale reads declined; undo of an approved sale reads undone', async () => {
    const noDebit = await call('POST', '/v1/payments', { body: { amount: 2510, method: 'debit' } });
    expect(noDebit.status, JSON.stringify(noDebit.body)).toBe(202);
    expect(await until(noDebit.body.id, ['refused', 'cancelled', 'failed', 'confirmed'])).toMatchObject({
      status: 'refused',
      refusal: 'no-product-of-type',
      reason: 'the card has no PhysicalDebitCard product',
    });
    await idle();
    const declined = await call('POST', '/v1/payments', { body: { amount: 2511, method: 'credit' } });
    expect((await until(declined.body.id, ['declined', 'confirmed', 'failed'])).status).toBe('declined');
    await idle();
    const sale = await call('POST', '/v1/payments', { body: { amount: 2510, method: 'credit', confirmation: 'ecr' } });
    await until(sale.body.id, ['approved']);
    expect((await call('POST', `/v1/payments/${sale.body.id}/undo`)).body.status).toBe('undone');
  });

  it('a wallet QR sale: the code to show comes back at once; paid by the wallet, it is confirmed', async () => {
    const created = await call('POST', '/v1/payments', {
      body: { amount: 2610, method: 'wallet-qr', qrModality: 'credit' },
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      status: 'pending',
      state: 'showing',
      method: 'wallet-qr',
      qrModality: 'credit',
    });
    expect(created.body.qrCode).toMatch(/^000201010212.*6304[0-9A-F]{4}$/);
    const { runCli } = await import('../../../src/cli/run.js');
    const { TEST_CARDS } = await import('../../../tables/test-cards.js');
    const card = TEST_CARDS[0]!;
    let err = '';
    const code = await runCli(
      [
        'wallet',
        'pay',
        created.body.qrCode,
        '--card',
        card.pan,
        '--cvv',
        '123',
        '--exp',
        `${card.expiry.slice(2)}${card.expiry.slice(0, 2)}`,
        '--name',
        'TESTE',
        '--document',
        '52998224725',
      ],
      {
        out: () => undefined,
        err: (t) => (err += t),
        env: { OMNIPOS_STATE_DIR: stateDir, OMNIPOS_ACQUIRER__WALLET_URL: daemon.sandbox.urls.wallet },
      },
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    expect((await until(created.body.id, ['confirmed', 'failed', 'cancelled'])).status).toBe('confirmed');
    expect(
      (await call('POST', '/v1/payments', { body: { amount: 10, method: 'credit', qrModality: 'debit' } })).body.error
        .field,
    ).toBe('qrModality');
  });

  it('one payment at a time per terminal: while a wallet QR code shows, a card sale, a Pix sale and another QR sale answer 409 BUSY; once it is cancelled, a card sale goes (issue 17)', async () => {
    await idle();
    const qr = await call('POST', '/v1/payments', {
      body: { amount: 2710, method: 'wallet-qr', qrModality: 'credit' },
    });
    expect(qr.status).toBe(202);
    const card = await call('POST', '/v1/payments', { body: { amount: 2810, method: 'credit' } });
    expect(card).toMatchObject({ status: 409, body: { error: { code: 'BUSY' } } });
    const pix = await call('POST', '/v1/payments', {
      body: { amount: 2910, method: 'pix', payer: { name: 'Maria Silva', document: '52998224725' } },
    });
    expect(pix.status).toBe(409);
    expect(
      (await call('POST', '/v1/payments', { body: { amount: 3010, method: 'wallet-qr', qrModality: 'debit' } })).status,
    ).toBe(409);
    expect((await call('POST', `/v1/payments/${qr.body.id}/cancel`)).status).toBe(200);
    await until(qr.body.id, ['cancelled', 'failed']);
    let next = { status: 409, body: {} as Record<string, unknown> };
    for (let i = 0; i < 100 && next.status === 409; i++) {
      next = await call('POST', '/v1/payments', { body: { amount: 3110, method: 'credit' } });
      if (next.status === 409) await new Promise((r) => setTimeout(r, 50));
    }
    expect(next.status).toBe(202);
    await until(next.body.id as number, ['confirmed', 'declined', 'failed', 'cancelled']);
  });

  it('a Pix sale: the payer is required and checked, the code comes back, paid it is confirmed', async () => {
    expect((await call('POST', '/v1/payments', { body: { amount: 1800, method: 'pix' } })).body.error.field).toBe(
      'payer',
    );
    expect(
      (
        await call('POST', '/v1/payments', {
          body: { amount: 1800, method: 'pix', payer: { name: 'Maria', document: '111.111.111-11' } },
        })
      ).body.error.field,
    ).toBe('payer.document');
    const created = await call('POST', '/v1/payments', {
      body: { amount: 1800, method: 'pix', payer: { name: 'Maria da Silva', document: '529.982.247-25' } },
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ method: 'pix', status: 'pending', state: 'showing' });
    expect(created.body.qrCode).toContain('br.gov.bcb.pix');
    const r = await request(`${daemon.sandbox.url}/sandbox/pix/${created.body.paymentId}/pay`, { method: 'POST' });
    await r.body.text();
    expect((await until(created.body.id, ['confirmed', 'failed', 'cancelled'])).status).toBe('confirmed');
  });

  it('refuses what it cannot take: token, content type, JSON, fields, routes', async () => {
    expect((await call('GET', '/v1/payments', { auth: null })).status).toBe(401);
    expect((await call('GET', '/v1/payments', { auth: 'Bearer wrong' })).status).toBe(401);
    expect(
      (await call('POST', '/v1/payments', { raw: 'amount=1', type: 'application/x-www-form-urlencoded' })).status,
    ).toBe(415);
    expect((await call('POST', '/v1/payments', { raw: '{"amount":' })).body.error.code).toBe('INVALID_JSON');
    expect((await call('POST', '/v1/payments', { body: { amount: '10', method: 'credit' } })).body.error).toMatchObject(
      { code: 'INVALID_FIELD', field: 'amount' },
    );
    expect((await call('POST', '/v1/payments', { body: { amount: 10 } })).body.error).toMatchObject({
      field: 'method',
      message: 'method: is required',
    });
    expect(
      (await call('POST', '/v1/payments', { body: { amount: 10, method: 'credit', tip: 1 } })).body.error,
    ).toMatchObject({ field: 'tip' });
    expect((await call('POST', '/v1/payments', { body: [1] })).status).toBe(400);
    expect((await call('GET', '/v1/payments/999999')).status).toBe(404);
    expect((await call('GET', '/v1/payments/abc')).status).toBe(404);
    expect((await call('GET', '/v1/payments?status=weird')).status).toBe(400);
    expect((await call('GET', '/nope')).status).toBe(404);
    const h = (await call('GET', '/v1/health')).body;
    expect(h, JSON.stringify(h)).toMatchObject({ status: 'ok' });
  });
});
