import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createAcquirer, isOutcomeUnknown, type Acquirer } from '../../../../src/acquirer/index.js';
import { isOmniposError } from '../../../../src/core/errors/index.js';
import { createLogger } from '../../../../src/core/log/index.js';
import { json, loopback, type Recorded } from '../../../helpers/loopback.js';

const log = createLogger({ level: 'silent' });
const secret = { reveal: () => 's3cret' };

function acquirerAt(
  url: string,
  over: { environment?: 'sandbox' | 'homologation'; timeoutMs?: number; now?: () => Date } = {},
): Acquirer {
  return createAcquirer({
    settings: {
      authUrl: url,
      requestUrl: url,
      queryUrl: url,
      parametersUrl: url,
      walletUrl: url,
      ecommerceUrl: url,
      clientId: 'cid',
      timeoutMs: over.timeoutMs ?? 2000,
    },
    clientSecret: secret,
    environment: over.environment ?? 'sandbox',
    clock: { now: over.now ?? (() => new Date()) },
    log,
    dispatcher: new Agent(),
  });
}

const SALE = {
  MerchantOrderId: '263290010000001',
  Payment: {
    SubordinatedMerchantId: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718',
    Type: 'PhysicalCreditCard' as const,
    Amount: 1000,
    Installments: 1,
    Capture: true as const,
    ProductId: 1,
    PaymentDateTime: '2026-11-22T10:00:00-03:00',
    PinPadInformation: {
      TerminalId: '42004201',
      SerialNumber: 'VIRT0001',
      PhysicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless' as const,
      ReturnDataInfo: '00',
    },
  },
};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

async function server(handler: Parameters<typeof loopback>[0]): Promise<{ url: string; seen: Recorded[] }> {
  const s = await loopback(handler);
  cleanup.push(s.close);
  return s;
}

function tokenAnswer(
  req: Recorded,
  res: Parameters<Parameters<typeof loopback>[0]>[1],
  n: { count: number },
  expiresIn = 86399,
): boolean {
  if (req.url !== '/oauth2/token') return false;
  n.count++;
  json(res, 200, { access_token: `tok${n.count}`, token_type: 'bearer', expires_in: expiresIn });
  return true;
}

describe('OAuth client credentials', () => {
  it('asks with Basic client_id:client_secret and the manual scope, and caches the token', async () => {
    const n = { count: 0 };
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      json(res, 200, { Payment: { PaymentId: 'p', Status: 2 } });
    });
    const a = acquirerAt(s.url);
    await a.omni.getSale('p');
    await a.omni.getSale('p');
    const tokenReqs = s.seen.filter((r) => r.url === '/oauth2/token');
    expect(tokenReqs).toHaveLength(1);
    expect(tokenReqs[0]?.headers.authorization).toBe(`Basic ${Buffer.from('cid:s3cret').toString('base64')}`);
    expect(new URLSearchParams(tokenReqs[0]?.body).get('grant_type')).toBe('client_credentials');
    expect(new URLSearchParams(tokenReqs[0]?.body).get('scope')).toBe('PhysicalCieloTransactional');
    expect(s.seen.filter((r) => r.url === '/1/physicalSales/p').map((r) => r.headers.authorization)).toEqual([
      'Bearer tok1',
      'Bearer tok1',
    ]);
  });

  it('renews shortly before expires_in runs out', async () => {
    const n = { count: 0 };
    let now = Date.parse('2026-11-22T12:00:00Z');
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n, 600)) return;
      json(res, 200, { Payment: { PaymentId: 'p', Status: 2 } });
    });
    const a = acquirerAt(s.url, { now: () => new Date(now) });
    await a.omni.getSale('p');
    now += 530_000; // 600 s lifetime, 60 s margin: still valid at +530 s
    await a.omni.getSale('p');
    expect(n.count).toBe(1);
    now += 15_000; // +545 s: inside the margin
    await a.omni.getSale('p');
    expect(n.count).toBe(2);
  });

  it('renews once on a 401 and sends again; a second 401 throws ACQUIRER_AUTH_FAILED', async () => {
    const n = { count: 0 };
    let refuse = 1;
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      if (refuse-- > 0) return json(res, 401, { ReturnCode: '401', ReturnMessage: 'expired' });
      json(res, 200, { Payment: { PaymentId: 'p', Status: 2 } });
    });
    const a = acquirerAt(s.url);
    await expect(a.omni.getSale('p')).resolves.toMatchObject({ Payment: { Status: 2 } });
    expect(n.count).toBe(2);
    refuse = 5;
    const err = await a.omni.getSale('p').catch((e: unknown) => e);
    expect(isOmniposError(err, 'ACQUIRER_AUTH_FAILED')).toBe(true);
    expect(n.count).toBe(3); // renewed exactly once more
  });

  it('refused credentials give ACQUIRER_AUTH_FAILED and never print the secret', async () => {
    const s = await server((_req, res) => json(res, 401, { error: 'invalid_client' }));
    const a = acquirerAt(s.url);
    const err = await a.omni.getSale('p').catch((e: unknown) => e);
    expect(isOmniposError(err, 'ACQUIRER_AUTH_FAILED')).toBe(true);
    expect(JSON.stringify(err)).not.toContain('s3cret');
    expect(String(err)).not.toContain('s3cret');
  });

  it('homologation adds Environment: Homologacao to every request', async () => {
    const n = { count: 0 };
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      json(res, 200, { Payment: { PaymentId: 'p', Status: 2 } });
    });
    await acquirerAt(s.url, { environment: 'homologation' }).omni.getSale('p');
    expect(s.seen.map((r) => r.headers.environment)).toEqual(['Homologacao', 'Homologacao']);
    const s2 = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      json(res, 200, { Payment: { PaymentId: 'p', Status: 2 } });
    });
    await acquirerAt(s2.url).omni.getSale('p');
    expect(s2.seen.map((r) => r.headers.environment)).toEqual([undefined, undefined]);
  });
});

describe('omni client over HTTP', () => {
  it('never repeats a sale POST after a 5xx; the error says the outcome is unknown', async () => {
    const n = { count: 0 };
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      json(res, 503, { ReturnCode: '500', ReturnMessage: 'down' });
    });
    const a = acquirerAt(s.url);
    const err = await a.omni.createSale(SALE).catch((e: unknown) => e);
    expect(isOmniposError(err, 'ACQUIRER_HTTP')).toBe(true);
    expect(isOutcomeUnknown(err)).toBe(true);
    expect((err as { context: Record<string, unknown> }).context).toMatchObject({
      status: 503,
      returnCode: '500',
      returnMessage: 'down',
    });
    expect(s.seen.filter((r) => r.method === 'POST' && r.url === '/1/physicalSales')).toHaveLength(1);
  });

  it('repeats a query once after a 5xx', async () => {
    const n = { count: 0 };
    let fail = 1;
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      if (fail-- > 0) return json(res, 502, {});
      json(res, 200, { MerchantOrderId: '1', Payment: { PaymentId: 'p', Status: 2 } });
    });
    await expect(acquirerAt(s.url).omni.getSaleByOrderId('1')).resolves.toMatchObject({ MerchantOrderId: '1' });
    expect(s.seen.filter((r) => r.url === '/1/physicalSales/MerchantOrderId/1')).toHaveLength(2);
  });

  it('a timeout gives ACQUIRER_UNKNOWN_OUTCOME, and authorize reports unknown', async () => {
    const n = { count: 0 };
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      setTimeout(() => json(res, 201, {}), 1500);
    });
    const a = acquirerAt(s.url, { timeoutMs: 200 });
    const err = await a.omni.createSale(SALE).catch((e: unknown) => e);
    expect(isOmniposError(err, 'ACQUIRER_UNKNOWN_OUTCOME')).toBe(true);
    expect((err as { context: Record<string, unknown> }).context).toMatchObject({
      transport: 'timeout',
      outcomeUnknown: true,
    });
    await expect(a.omni.authorize(SALE)).resolves.toEqual({ outcome: { kind: 'unknown', reason: 'timeout' } });
  });

  it('a connection reset after the request left gives unknown; a refused connection gives not-sent', async () => {
    const n = { count: 0 };
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      res.socket?.destroy();
    });
    const a = acquirerAt(s.url);
    await expect(a.omni.authorize(SALE)).resolves.toMatchObject({ outcome: { kind: 'unknown', reason: 'lost' } });
    // a port nothing listens on
    const dead = await loopback(() => undefined);
    await dead.close();
    const b = acquirerAt(dead.url);
    const err = await b.omni.getSale('p').catch((e: unknown) => e);
    expect(isOmniposError(err, 'ACQUIRER_UNREACHABLE')).toBe(true);
    expect(isOutcomeUnknown(err)).toBe(false);
  });

  it('refuses a sale without Capture true before sending', async () => {
    const a = acquirerAt('http://127.0.0.1:9');
    await expect(
      a.omni.createSale({ ...SALE, Payment: { ...SALE.Payment, Capture: false as unknown as true } }),
    ).rejects.toThrow(/Capture/);
  });

  it('sends chip data on confirm (IssuerScriptResults) and undo (IssuerScriptsResults) to the documented paths', async () => {
    const n = { count: 0 };
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      json(res, 200, { ConfirmationStatus: req.method === 'PUT' ? 1 : 2, Status: 2, ReturnCode: 0 });
    });
    const a = acquirerAt(s.url);
    await a.omni.confirmSale('pid', { EmvData: '9F2701', IssuerScriptResults: '0000' });
    await a.omni.undoSale('pid', { EmvData: '9F2701', IssuerScriptsResults: '0000' });
    await a.omni.undoSaleByOrderId('123', { EmvData: '9F2701', IssuerScriptsResults: '0000' });
    const calls = s.seen.filter((r) => r.url !== '/oauth2/token').map((r) => [r.method, r.url, r.body]);
    expect(calls).toEqual([
      ['PUT', '/1/physicalSales/pid/confirmation', '{"EmvData":"9F2701","IssuerScriptResults":"0000"}'],
      ['DELETE', '/1/physicalSales/pid', '{"EmvData":"9F2701","IssuerScriptsResults":"0000"}'],
      ['DELETE', '/1/physicalSales/orderId/123', '{"EmvData":"9F2701","IssuerScriptsResults":"0000"}'],
    ]);
  });

  it('reports the host Date header', async () => {
    const n = { count: 0 };
    const s = await server((req, res) => {
      if (tokenAnswer(req, res, n)) return;
      res.setHeader('date', 'Mon, 23 Nov 2026 02:59:00 GMT');
      json(res, 200, { Payment: { PaymentId: 'p', Status: 2 } });
    });
    const dates: Date[] = [];
    const a = createAcquirer({
      settings: {
        authUrl: s.url,
        requestUrl: s.url,
        queryUrl: s.url,
        parametersUrl: s.url,
        walletUrl: s.url,
        ecommerceUrl: s.url,
        clientId: 'c',
        timeoutMs: 2000,
      },
      clientSecret: secret,
      environment: 'sandbox',
      clock: { now: () => new Date() },
      log,
      onHostDate: (d) => dates.push(d),
    });
    await a.omni.getSale('p');
    expect(dates.at(-1)?.toISOString()).toBe('2026-11-23T02:59:00.000Z');
    await a.close();
  });
});
