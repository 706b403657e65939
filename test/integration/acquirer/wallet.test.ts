import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EcommerceClient } from '../../../src/acquirer/index.js';
import { HOST_TIME_ZONE, localTime } from '../../../src/core/clock.js';
import { walletPublicKey, type WalletCardData } from '../../../src/crypto/index.js';
import { buildPadraoq, buildPix, crc16Hex } from '../../../src/qr/index.js';
import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { EMV_CONFIRM, nextOrderId, startHarness, type Harness } from '../../helpers/sandbox.js';
import { qrTextFromPng } from '../../../src/acquirer/omni/qr-image.js';

let h: Harness;
const callbacks: { status: number; body: Record<string, unknown> }[] = [];
let partnerFailures = 1;
const partner = createServer((req, res) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => {
    const status = partnerFailures-- > 0 ? 500 : 204;
    callbacks.push({ status, body: JSON.parse(text) as Record<string, unknown> });
    res.writeHead(status).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/undo`;
  h = await startHarness({ extra: { walletCallbackUrl: url, callbackRetryMs: 100, walletKeyTtlMs: 600_000 } });
});
afterAll(async () => {
  await h.close();
  partner.close();
});

function stamp(at: Date): string {
  const t = localTime(at, HOST_TIME_ZONE);
  const d2 = (n: number): string => String(n).padStart(2, '0');
  const s = Math.floor(t.decisecondsOfDay / 10);
  return `${d2(t.day)}${d2(t.month)}${d2(t.year % 100)}${d2(Math.floor(s / 3600))}${d2(Math.floor(s / 60) % 60)}${d2(s % 60)}`;
}

async function hostNow(): Promise<Date> {
  return new Date(((await h.control('GET', '/sandbox/clock')).body as { now: string }).now);
}

/** The dynamic code a terminal shows: current model, 62.05 = its MerchantOrderId. */
async function terminalQr(
  amount: string,
  o: { orderId?: string; at?: Date; merchantId?: string; modality?: string } = {},
): Promise<{ qr: string; orderId: string }> {
  const m = SANDBOX_MERCHANT.merchant;
  const orderId = o.orderId ?? nextOrderId();
  const qr = buildPadraoq({
    merchantId: o.merchantId ?? m.merchantNumber,
    terminalId: SANDBOX_MERCHANT.terminal.terminalId,
    merchantDocument: m.nationalId,
    deviceType: 'P',
    mcc: m.mcc,
    amount,
    merchantName: m.name,
    merchantCity: m.city,
    postalCode: m.postalCode,
    referenceLabel: orderId,
    timestamp: stamp(o.at ?? (await hostNow())),
    modality: o.modality ?? '0002',
    nsu: '000123',
  });
  return { qr, orderId };
}

const CARD: WalletCardData = {
  card_number: '4761730000000060',
  card_cvv: '123',
  card_holder_name: 'TESTE CARTAO',
  card_expiration_date: '1230',
};
const PAYER = { payerDocument: '52998224725', payerName: 'Pagador Teste' };

async function raw(
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await request(`${h.running.urls.wallet}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await r.body.text();
  return { status: r.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const basic = `Basic ${Buffer.from(`${SANDBOX_CREDENTIALS.clientId}:${SANDBOX_CREDENTIALS.clientSecret}`).toString('base64')}`;

async function bearer(scopes = 'qrcode_write,qrcode_read'): Promise<string> {
  const t = await raw(
    'POST',
    '/v2/oauth/access-token',
    { grant_type: 'client_credentials', scopes },
    { authorization: basic, 'content-type': 'application/json' },
  );
  return `Bearer ${String(t.body.access_token)}`;
}

describe('wallet API: token and public key', () => {
  it('issues tokens in JSON and form; refuses wrong credentials (401) and wrong content type (415)', async () => {
    expect(
      (
        await raw(
          'POST',
          '/v2/oauth/access-token',
          { grant_type: 'client_credentials', scopes: 'qrcode_write,qrcode_read' },
          { authorization: basic, 'content-type': 'application/json' },
        )
      ).body,
    ).toMatchObject({ token_type: 'bearer', expires_in: expect.any(Number) });
    expect(
      (
        await raw('POST', '/v2/oauth/token', 'grant_type=client_credentials&scopes=qrcode_read', {
          authorization: basic,
          'content-type': 'application/x-www-form-urlencoded',
        })
      ).status,
    ).toBe(200);
    expect(
      await raw(
        'POST',
        '/v2/oauth/access-token',
        { grant_type: 'client_credentials' },
        { authorization: 'Basic eDp5', 'content-type': 'application/json' },
      ),
    ).toMatchObject({ status: 401, body: { description: expect.any(String) } });
    expect(
      (
        await raw('POST', '/v2/oauth/access-token', 'grant_type=client_credentials', {
          authorization: basic,
          'content-type': 'text/plain',
        })
      ).status,
    ).toBe(415);
  });

  it('publishes an RSA-2048 key as Base64 DER SubjectPublicKeyInfo with key_id and expires_in', async () => {
    const k = await raw('GET', '/padraoq/v1/publicKey', undefined, { authorization: await bearer() });
    expect(k.status).toBe(200);
    expect(walletPublicKey(String(k.body.public_key)).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(k.body).toMatchObject({ key_id: expect.any(String), expires_in: expect.any(Number) });
    expect((await raw('GET', '/padraoq/v1/publicKey', undefined, {})).status).toBe(401);
  });
});

describe('wallet API: card payment', () => {
  it('pays a terminal QR; the terminal finds the sale by MerchantOrderId and confirms it', async () => {
    const { qr, orderId } = await terminalQr('25.90');
    const a = await h.acquirer.wallet.pay({ qrCode: qr, card: CARD, ...PAYER });
    expect(a).toMatchObject({
      reference_label: orderId,
      merchant_id: SANDBOX_MERCHANT.merchant.merchantNumber,
      terminal_id: SANDBOX_MERCHANT.terminal.terminalId,
      terminal_nsu: '000123',
    });
    expect(a.authorization_code).toMatch(/^\d{6}$/);
    const sale = await h.acquirer.omni.getSaleByOrderId(orderId);
    expect(sale.Payment).toMatchObject({ Status: 2, ConfirmationStatus: 0, Amount: 2590 });
    await expect(h.acquirer.omni.confirmSale(sale.Payment.PaymentId, EMV_CONFIRM)).resolves.toMatchObject({
      ConfirmationStatus: 1,
    });
  });

  it('accepts qr_code as the member name; a resubmission with the same payer is idempotent, with another payer 409', async () => {
    const { qr } = await terminalQr('3.00');
    const first = await h.acquirer.wallet.pay({ qrCode: qr, card: CARD, ...PAYER, qrField: 'qr_code' });
    await expect(h.acquirer.wallet.pay({ qrCode: qr, card: CARD, ...PAYER })).resolves.toEqual(first);
    const err = await h.acquirer.wallet
      .pay({ qrCode: qr, card: CARD, payerDocument: '11144477735', payerName: 'Outro' })
      .catch((e: unknown) => e);
    expect((err as { context: { status: number } }).context.status).toBe(409);
  });

  it('an undone wallet sale sends the undo callback (statusCode 3), retried until the partner answers 2xx', async () => {
    const { qr, orderId } = await terminalQr('12.34');
    const a = await h.acquirer.wallet.pay({ qrCode: qr, card: CARD, ...PAYER });
    await h.acquirer.omni.undoSaleByOrderId(orderId);
    const deadline = Date.now() + 5000;
    while (!callbacks.some((c) => c.status === 204) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(callbacks.map((c) => c.status)).toEqual([500, 204]);
    expect(callbacks[1]?.body).toMatchObject({
      terminalLogicalNumber: SANDBOX_MERCHANT.terminal.terminalId,
      authorizationCode: a.authorization_code,
      merchantId: Number(SANDBOX_MERCHANT.merchant.merchantNumber),
      amount: 12.34,
      originalTransactionType: 1,
      statusCode: 3,
    });
    expect(String(callbacks[1]?.body.transactionDate)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
    const listed = (await h.ledger()).callbacks.find(
      (c) => (c.payload as { authorizationCode: string }).authorizationCode === a.authorization_code,
    );
    expect(listed).toMatchObject({ attempts: 2, lastError: null, deliveredAt: expect.any(String) });
  });

  it('pays an e-commerce QR code sale: 12 → 2', async () => {
    const ec = h.acquirer.ecommerce as EcommerceClient;
    const s = await ec.createQrSale({
      MerchantOrderId: nextOrderId(),
      Payment: { Type: 'qrcode', Amount: 4321, Installments: 1, Capture: true },
    });
    await h.acquirer.wallet.pay({ qrCode: qrTextFromPng(s.Payment.QrCodeBase64Image ?? ''), card: CARD, ...PAYER });
    expect((await ec.getSale(s.Payment.PaymentId)).Payment.Status).toBe(2);
  });

  it('every error status of the document', async () => {
    const auth = await bearer();
    const key = (await raw('GET', '/padraoq/v1/publicKey', undefined, { authorization: auth })).body;
    const { encryptCardData } = await import('../../../src/crypto/index.js');
    const pay = async (
      over: Record<string, unknown>,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; body: Record<string, unknown> }> => {
      const { qr } = await terminalQr('1.00');
      return raw(
        'POST',
        '/padraoq/v1/payment/card',
        {
          key_id: key.key_id,
          card_data: encryptCardData(String(key.public_key), CARD),
          payee_document: PAYER.payerDocument,
          payee_name: PAYER.payerName,
          authorization_token: null,
          qrcode: qr,
          ...over,
        },
        { authorization: auth, 'content-type': 'application/json', ...headers },
      );
    };
    // the published codes of the QR manual v4 payment table (QR_V4 335-383), one per refusal
    expect(await pay({ key_id: undefined })).toMatchObject({ status: 400, body: { code: '412.101' } });
    expect(await pay({ card_data: '' })).toMatchObject({ status: 400, body: { code: '412.102' } });
    expect(await pay({ qrcode: undefined })).toMatchObject({ status: 400, body: { code: '412.104' } });
    expect(await pay({ payee_document: '123' })).toMatchObject({ status: 422, body: { code: '412.155' } });
    expect(await pay({ payee_document: '52998224726' })).toMatchObject({ status: 400, body: { code: '412.156' } });
    // payee_name and authorization_token are "Não" (QR_V4 251-252): leaving them out is no refusal
    expect((await pay({ payee_name: undefined, authorization_token: undefined })).status).toBe(200);
    // 401, 403, 415
    expect((await pay({}, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await pay({}, { authorization: await bearer('qrcode_read') })).status).toBe(403);
    expect((await pay({}, { 'content-type': 'text/plain' })).status).toBe(415);
    // 412 001 expired or unknown key; 412 002 a Pix (not a padraoq code)
    expect((await pay({ key_id: 'old' })).body).toMatchObject({ code: '412.001' });
    const pix = buildPix({ key: 'chave@example.com', merchantName: 'X', merchantCity: 'Y', amount: 1 });
    expect(await pay({ qrcode: pix })).toMatchObject({ status: 412, body: { code: '412.002' } });
    // 422 business codes
    expect((await pay({ qrcode: 'not a qr' })).body).toMatchObject({ code: '422.002' });
    const other = await terminalQr('1.00', { merchantId: '9999999999999999' });
    expect(await pay({ qrcode: other.qr })).toMatchObject({ status: 422, body: { code: '422.002' } });
    const old = await terminalQr('1.00', { at: new Date((await hostNow()).getTime() - 16 * 60_000) });
    expect(await pay({ qrcode: old.qr })).toMatchObject({ status: 422, body: { code: '422.003' } });
    expect(await pay({ card_data: Buffer.from('garbage').toString('base64') })).toMatchObject({
      status: 422,
      body: { code: '422.007' },
    });
    expect(
      await pay({ card_data: encryptCardData(String(key.public_key), { ...CARD, card_number: '4761730000000061' }) }),
    ).toMatchObject({ status: 422, body: { code: '422.004' } });
    const debit = await terminalQr('1.00', { modality: '0001' });
    expect(await pay({ qrcode: debit.qr })).toMatchObject({ status: 422, body: { code: '422.001' } });
    expect(
      await pay({ card_data: encryptCardData(String(key.public_key), { ...CARD, card_expiration_date: '0120' }) }),
    ).toMatchObject({ status: 422, body: { code: '422.004' } });
    const other0040 = await terminalQr('1.00', { modality: '0040' });
    expect(await pay({ qrcode: other0040.qr })).toMatchObject({ status: 422, body: { code: '422.001' } });
    const zero = await terminalQr('0.00');
    expect(await pay({ qrcode: zero.qr })).toMatchObject({ status: 422, body: { code: '422.002' } });
    const big = await raw('POST', '/padraoq/v1/payment/card', 'x'.repeat(300_000), {
      authorization: auth,
      'content-type': 'application/json',
    }).catch(() => ({ status: 413, body: {} }));
    expect(big.status).toBe(413);
    expect(
      await pay({ card_data: encryptCardData(String(key.public_key), { ...CARD, card_number: '4761730000000052' }) }),
    ).toMatchObject({ status: 422, body: { code: '422.006' } });
  });

  it('a key that expired on the host clock gets 412 001; the client fetches the new key and pays', async () => {
    const auth = await bearer();
    const k1 = (await raw('GET', '/padraoq/v1/publicKey', undefined, { authorization: auth })).body;
    await h.acquirer.wallet.publicKey(true);
    await h.control('POST', '/sandbox/clock', { advanceMs: 700_000 });
    const { encryptCardData } = await import('../../../src/crypto/index.js');
    const { qr } = await terminalQr('2.00');
    const r = await raw(
      'POST',
      '/padraoq/v1/payment/card',
      {
        key_id: k1.key_id,
        card_data: encryptCardData(String(k1.public_key), CARD),
        payee_document: PAYER.payerDocument,
        payee_name: 'x',
        authorization_token: null,
        qrcode: qr,
      },
      { authorization: await bearer(), 'content-type': 'application/json' },
    );
    expect(r).toMatchObject({ status: 412, body: { code: '412.001' } });
    await expect(h.acquirer.wallet.pay({ qrCode: qr, card: CARD, ...PAYER })).resolves.toMatchObject({
      terminal_nsu: '000123',
    });
  });

  it('a static code (01 = 11) is refused 412 002 "QRCode dinâmico esperado", by the payment and by the parse (QR_V4 150)', async () => {
    const { qr } = await terminalQr('7.00');
    expect(qr.startsWith('000201010212')).toBe(true);
    const body = `000201010211${qr.slice(12, -4)}`;
    const fixed = `${body}${crc16Hex(body)}`;
    const refused = await h.acquirer.wallet.parse(fixed).catch((e: unknown) => e);
    expect((refused as { context: { status: number } }).context.status).toBe(412);
    const tok = await bearer();
    const parsed = await raw('GET', `/padraoq/v1/parsedQRCode?qrcode=${encodeURIComponent(fixed)}`, undefined, {
      authorization: tok,
    });
    expect(parsed).toMatchObject({ status: 412, body: { code: '412.002' } });
    const paid = await h.acquirer.wallet.pay({ qrCode: fixed, card: CARD, ...PAYER }).catch((e: unknown) => e);
    expect((paid as { context: { status: number } }).context.status).toBe(412);
  });

  it('a reference label (62.05) of up to 25 letters and digits is paid, as the wallet layout allows (seed 000, line 147)', async () => {
    const label = 'PEDIDO2026A11Z9X8Y7W6V5U4';
    expect(label).toHaveLength(25);
    const { qr } = await terminalQr('5.25', { orderId: label });
    await expect(h.acquirer.wallet.pay({ qrCode: qr, card: CARD, ...PAYER })).resolves.toMatchObject({
      reference_label: label,
    });
  });

  it("a host-made code stays payable after the terminal's validity under hostQrValidityMs (its validity is unpublished, QR_V4 355)", async () => {
    const ec = h.acquirer.ecommerce as EcommerceClient;
    const made = async (): Promise<{ id: string; qr: string }> => {
      const s = await ec.createQrSale({
        MerchantOrderId: nextOrderId(),
        Payment: { Type: 'qrcode', Amount: 1500, Installments: 1, Capture: true },
      });
      return { id: s.Payment.PaymentId, qr: qrTextFromPng(s.Payment.QrCodeBase64Image ?? '') };
    };
    const a = await made();
    const b = await made();
    // 16 minutes later: past the terminal's validity (the sandbox's default qrValidityMs, 15 minutes)
    await h.control('POST', '/sandbox/clock', { advanceMs: 16 * 60_000 });
    try {
      const late = await h.acquirer.wallet.pay({ qrCode: a.qr, card: CARD, ...PAYER }).catch((e: unknown) => e);
      expect(late).toMatchObject({ context: { status: 422 } });
      expect(JSON.stringify(late)).toMatch(/422\.003/);
      await h.control('POST', '/sandbox/scenario', { hostQrValidityMs: 86_400_000 });
      await h.acquirer.wallet.pay({ qrCode: b.qr, card: CARD, ...PAYER });
      expect((await ec.getSale(b.id)).Payment.Status).toBe(2);
    } finally {
      await h.control('POST', '/sandbox/scenario', { hostQrValidityMs: 0 });
    }
  });

  it('parses a QR code into qrcode_data', async () => {
    const { qr, orderId } = await terminalQr('9.99');
    const p = await h.acquirer.wallet.parse(qr);
    expect(p).toMatchObject({
      qrcode_data: { transaction_amount: '9.99', additional_data_field: { reference_label: orderId } },
    });
  });
});
