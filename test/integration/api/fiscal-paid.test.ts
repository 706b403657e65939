import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../../helpers/capture-log.js';
import { supervisedDaemon, walletPays } from '../../helpers/wallet-pay.js';
import type { TestDaemon } from '../../helpers/daemon.js';

/**
 * Defect 5 of the contract: a paid wallet QR or Pix sale carries what the fiscal document's card group
 * takes (`fiscal`), from what the host's answer carried. The wallet's payment answer names
 * `authorization_code` and `host_nsu` (QR manual v4, the card payment's example); the terminal reads
 * them back from the terminal API's query by order id (`Payment.AuthorizationCode`, `ProofOfSale`).
 * The query names no brand for a wallet payment, and a Pix answer has no card and no authorization
 * code (only `ProofOfSale`, "NSU Pix"): those are listed in `fiscal.absent`, never made up.
 */

let t: Awaited<ReturnType<typeof supervisedDaemon>>;
let daemon: TestDaemon;
const { log } = captureLogger('info');

beforeAll(async () => {
  t = await supervisedDaemon(log);
  daemon = t;
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function call(method: 'GET' | 'POST', p: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await request(`${daemon.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.body.json()) as Record<string, unknown>;
}

async function poll(id: number, done: (b: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 800; i++) {
    const b = await call('GET', `/v1/payments/${id}`);
    if (done(b)) return b;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`payment ${id} never settled`);
}

describe('the fiscal card group of a paid wallet QR or Pix payment (defect 5)', () => {
  it("a wallet QR sale: the wallet's authorization code and host NSU, the brand named absent", async () => {
    const created = await call('POST', '/v1/payments', { amount: 2750, method: 'wallet-qr', confirmation: 'auto' });
    const id = created.id as number;
    const showing = await poll(id, (b) => typeof b.qrCode === 'string');
    expect(showing.fiscal).toBeUndefined();
    const paid = await walletPays(daemon.sandbox.urls.wallet, showing.qrCode as string);
    expect(paid.code, paid.err).toBe(0);
    const done = await poll(id, (b) => b.status === 'confirmed');
    const wallet = (await request(`${daemon.sandbox.url}/sandbox/ledger`).then((r) => r.body.json())) as {
      sales: { paymentId: string }[];
    };
    expect(wallet.sales.some((s) => s.paymentId === done.paymentId)).toBe(true);
    expect(done.authorizationCode).toMatch(/^\d{6}$/);
    expect(done.fiscal).toEqual({
      integration: 1,
      acquirerCnpj: '01027058000191',
      authorizationCode: done.authorizationCode,
      nsu: expect.stringMatching(/^\d+$/),
      absent: ['cardBrand'],
    });
  }, 60_000);

  it('a Pix sale: the Pix NSU, no card brand and no authorization code (absent)', async () => {
    const created = await call('POST', '/v1/payments', {
      amount: 1900,
      method: 'pix',
      payer: { name: 'Maria da Silva', document: '529.982.247-25' },
    });
    expect(created.fiscal).toBeUndefined();
    const pay = await request(`${daemon.sandbox.url}/sandbox/pix/${created.paymentId as string}/pay`, {
      method: 'POST',
    });
    await pay.body.text();
    const done = await poll(created.id as number, (b) => b.status === 'confirmed');
    expect(done.authorizationCode).toBeUndefined();
    expect(done.fiscal).toEqual({
      integration: 1,
      acquirerCnpj: '01027058000191',
      nsu: expect.stringMatching(/^\d+$/),
      absent: ['cardBrand', 'authorizationCode'],
    });
  }, 60_000);
});
