import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createAcquirer } from '../../../../src/acquirer/index.js';
import { EcommercePixAdapter } from '../../../../src/acquirer/omni/pix.js';
import { createLogger } from '../../../../src/core/log/index.js';
import { attemptPix, PIX_QUERY_FAILURES_MAX, type PixTask } from '../../../../src/engine/outbox/pix.js';
import { loopbackAcquirer, json, loopback, type Recorded } from '../../../helpers/loopback.js';

/**
 * A Pix refund does not depend on a working status query forever (issue 17). Over real HTTP: the
 * e-commerce request host answers, the query host (`apiquery…`, e-commerce page lines 45-46) answers
 * 503 to every `GET /1/sales/{id}`. The refund is still asked (`PUT …/void` on the request host),
 * and after PIX_QUERY_FAILURES_MAX failed queries in a row the task is dead-lettered (the Pix engine
 * turns that into its PIX_DEAD_LETTER alarm). The old code retried forever without asking.
 */
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe('Pix refund with the query host down', () => {
  it('asks the refund once on the request host, keeps querying, and dead-letters after the bound', async () => {
    const seen: string[] = [];
    const request = await loopback((req: Recorded, res) => {
      seen.push(`request ${req.method} ${req.url}`);
      json(res, 200, { Status: 12, ReasonCode: 0, ReasonMessage: 'Successful', ReturnCode: '0' });
    });
    const query = await loopback((req: Recorded, res) => {
      seen.push(`query ${req.method} ${req.url}`);
      json(res, 503, [{ Code: 0, Message: 'Internal error' }]);
    });
    cleanup.push(request.close, query.close);
    const a = loopbackAcquirer(request.url, { ecommerceQueryUrl: query.url }, { ecommerce: true });
    cleanup.push(() => a.close());
    const pix = new EcommercePixAdapter(a.ecommerce!);
    let task: PixTask = { merchantOrderId: '263290001360003', paymentId: 'p-pix-1' };
    const actions: string[] = [];
    for (let i = 0; i < PIX_QUERY_FAILURES_MAX + 5; i++) {
      const attempt = await attemptPix(pix, task, 'refund', new Date());
      actions.push(attempt.delivery.action);
      if (attempt.payload) task = attempt.payload;
      if (attempt.delivery.action !== 'retry') {
        expect(attempt.delivery.reason).toMatch(/status query failed \d+ times in a row.*refund was asked/);
        break;
      }
    }
    expect(actions.at(-1)).toBe('dead-letter');
    expect(actions.length).toBeLessThanOrEqual(PIX_QUERY_FAILURES_MAX);
    expect(seen.filter((s) => s === 'request PUT /1/sales/p-pix-1/void')).toHaveLength(1);
    expect(seen.filter((s) => s.startsWith('request GET'))).toEqual([]);
    expect(seen.filter((s) => s === 'query GET /1/sales/p-pix-1').length).toBeGreaterThanOrEqual(
      PIX_QUERY_FAILURES_MAX,
    );
  }, 60_000);

  it('a working query after failures resets the count and settles on the status (11 refunded)', async () => {
    const answers = [503];
    const host = await loopback((req: Recorded, res) => {
      const status = answers.shift() ?? 200;
      if (req.method === 'GET')
        return status === 200
          ? json(res, 200, { MerchantOrderId: '1', Payment: { PaymentId: 'p', Status: 11, Amount: 100 } })
          : json(res, 503, [{ Code: 0, Message: 'x' }]);
      json(res, 200, { Status: 12 });
    });
    cleanup.push(host.close);
    const a = createAcquirer({
      settings: {
        authUrl: host.url,
        requestUrl: host.url,
        queryUrl: host.url,
        parametersUrl: host.url,
        walletUrl: host.url,
        ecommerceUrl: host.url,
        ecommerceQueryUrl: host.url,
        clientId: 'c',
        timeoutMs: 5000,
      },
      clientSecret: { reveal: () => 'x' },
      ecommerce: { merchantId: '00000000-0000-4000-8000-000000000009', merchantKey: { reveal: () => 'k' } },
      environment: 'sandbox',
      clock: { now: () => new Date() },
      log: createLogger({ level: 'silent' }),
      dispatcher: new Agent(),
    });
    cleanup.push(() => a.close());
    const pix = new EcommercePixAdapter(a.ecommerce!);
    // The http layer repeats a failed query once (safe to repeat): the repeat finds the query host back.
    const first = await attemptPix(
      pix,
      { merchantOrderId: '1', paymentId: 'p', refundAsked: true, queryFailures: 3 },
      'refund',
      new Date(),
    );
    expect(first.delivery.action).toBe('done');
    expect(first.payload?.queryFailures).toBe(0);
  });
});

/**
 * The manual's Pix creation answer (e-commerce page lines 1862-1883, the JSON tab) names the payment
 * `Paymentid`; its shell tab (1897) `PaymentId`. Either is read: the old code took `PaymentId` only
 * and would track a Pix without its id.
 */
describe('Pix creation answered in either spelling the manual shows', () => {
  it.each(['Paymentid', 'PaymentId'])('Payment.%s', async (key) => {
    const host = await loopback((req: Recorded, res) => {
      json(res, 201, {
        MerchantOrderId: '2020102601',
        Customer: { Name: 'Nome do Pagador' },
        Payment: {
          [key]: '1997be4d-694a-472e-98f0-e7f4b4c8f1e7',
          Type: 'Pix',
          AcquirerTransactionId: '86c200c7-7cdf-4375-92dd-1f62dfa846ad',
          ProofOfSale: '123456',
          QrcodeBase64Image: 'rfhviy64ak+zse18cwcmtg==',
          QrCodeString:
            '00020101021226880014br.gov.bcb.pix2566qrcodes-h.cielo.com.br/pix-qr/d05b1a34-ec52-4201-ba1e-d3cc2a43162552040000530398654041.005802BR5918Merchant Teste HML6009Sao Paulo62120508000101296304031C',
          Amount: 100,
          ReceivedDate: '2020-10-15 18:53:20',
          Status: 12,
          ReturnCode: '0',
          ReturnMessage: 'Pix gerado com sucesso',
        },
      });
    });
    cleanup.push(host.close);
    const a = createAcquirer({
      settings: {
        authUrl: host.url,
        requestUrl: host.url,
        queryUrl: host.url,
        parametersUrl: host.url,
        walletUrl: host.url,
        ecommerceUrl: host.url,
        ecommerceQueryUrl: host.url,
        clientId: 'c',
        timeoutMs: 5000,
      },
      clientSecret: { reveal: () => 'x' },
      ecommerce: { merchantId: '00000000-0000-4000-8000-000000000009', merchantKey: { reveal: () => 'k' } },
      environment: 'sandbox',
      clock: { now: () => new Date() },
      log: createLogger({ level: 'silent' }),
      dispatcher: new Agent(),
    });
    cleanup.push(() => a.close());
    const created = await new EcommercePixAdapter(a.ecommerce!).create({
      merchantOrderId: '2020102601',
      amount: 100,
      payer: { name: 'Nome do Pagador', document: '529.982.247-25' },
    });
    expect(created).toMatchObject({
      kind: 'created',
      paymentId: '1997be4d-694a-472e-98f0-e7f4b4c8f1e7',
      qrCode: expect.stringMatching(/^000201/),
    });
  });
});
