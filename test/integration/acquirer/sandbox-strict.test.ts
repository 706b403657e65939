import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EcommerceClient } from '../../../src/acquirer/index.js';
import { qrTextFromPng } from '../../../src/acquirer/omni/qr-image.js';
import { buildPadraoq } from '../../../src/qr/index.js';
import type { SandboxBase } from '../../../src/sandbox/index.js';
import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { card, cardNode, EMV_UNDO, nextOrderId, sale, startHarness, type Harness } from '../../helpers/sandbox.js';

/**
 * Each strictness of the sandbox host, proved by a request that lacks it: refused with the host's
 * published error and named in the ledger; the scenario's `lenient` list switches each rule off.
 * Sources: CONECTA_PT (2019-07-10-cielo-conecta.md) table lines cited beside each case.
 */
let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness();
  token = await h.acquirer.tokens.token('transactional');
});
afterAll(async () => {
  await h.close();
});

async function call(
  base: SandboxBase,
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const u = new URL(h.running.urls[base]);
  const r = await request(`${u.protocol}//${u.host}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
}

type Node = Record<string, unknown> & { EncryptedCardData: Record<string, unknown> };
const post = (req: unknown) => call('requests', 'POST', '/1/physicalSales', req);
function withCard(
  mode: 'Typed' | 'MagStripe' | 'Emv' | 'ContactlessEmv',
  edit: (n: Node, p: Record<string, unknown>) => void,
) {
  const node = cardNode(card(0), {
    inputMode: mode,
    ...(mode === 'Typed' || mode === 'MagStripe' ? { pin: null } : {}),
  }) as unknown as Node;
  const req = sale(1000, { card: node as never }) as unknown as { Payment: Record<string, unknown> };
  edit(node, req.Payment);
  return req;
}
const messages = (r: { json: unknown }): string =>
  (r.json as { Code: number; Message: string }[]).map((e) => `${e.Code} ${e.Message}`).join(' | ');

describe('a sale as the manual\'s tables mark it ("Sim" = required)', () => {
  it.each(['Typed', 'MagStripe', 'Emv', 'ContactlessEmv'] as const)(
    'ExpirationDate is required on %s (CONECTA_PT 1426, 2229, 2520)',
    async (mode) => {
      const r = await post(withCard(mode, (n) => delete n.ExpirationDate));
      expect(r.status).toBe(400);
      expect(messages(r)).toMatch(
        /^125 Credit Card Expiration Date is required \(Payment\.CreditCard\.ExpirationDate: is required\)/,
      );
    },
  );

  it('SecurityCodeStatus is required on a typed sale, one of its enum (CONECTA_PT 1427)', async () => {
    expect(messages(await post(withCard('Typed', (n) => delete n.SecurityCodeStatus)))).toMatch(
      /SecurityCodeStatus: is required/,
    );
    expect(messages(await post(withCard('Typed', (n) => (n.SecurityCodeStatus = 'Maybe'))))).toMatch(
      /SecurityCodeStatus: must be one of Collected, Unreadable, Nonexistent/,
    );
  });

  it('TrackOneData and its KSN are required on a stripe sale (CONECTA_PT 3099); the example-only reading is a scenario', async () => {
    const bare = () =>
      withCard('MagStripe', (n) => {
        delete n.TrackOneData;
        delete n.EncryptedCardData.TrackOneDataKSN;
      });
    expect(messages(await post(bare()))).toMatch(/TrackOneData: is required.*TrackOneDataKSN: is required/);
    await h.control('POST', '/sandbox/scenario', { lenient: ['track-one'] });
    expect((await post(bare())).status).toBe(201);
    await h.control('POST', '/sandbox/scenario', { lenient: [] });
  });

  it("InputMode is the manual's enum: ContactlessMagStripe is refused (CONECTA_PT 1431)", async () => {
    const r = await post(withCard('Emv', (n) => (n.InputMode = 'ContactlessMagStripe')));
    expect(messages(r)).toMatch(/InputMode: must be one of Typed, MagStripe, Emv, ContactlessEmv/);
  });

  it('SoftDescriptor: 13 characters at most, A-Z 0-9 and space (CONECTA_PT 1418)', async () => {
    expect((await post(withCard('Emv', (_n, p) => (p.SoftDescriptor = 'LOJA TESTE 13')))).status).toBe(201);
    expect(messages(await post(withCard('Emv', (_n, p) => (p.SoftDescriptor = 'LOJA TESTE 14C'))))).toMatch(
      /SoftDescriptor: at most 13 letters/,
    );
    expect(messages(await post(withCard('Emv', (_n, p) => (p.SoftDescriptor = 'PADARIA SÃO'))))).toMatch(
      /SoftDescriptor/,
    );
    expect(messages(await post(withCard('Emv', (_n, p) => (p.SoftDescriptor = 'LOJA-1'))))).toMatch(/SoftDescriptor/);
  });

  it('BrandId and IssuerId are required; each refusal is named in the ledger', async () => {
    const r = await post(
      withCard('Emv', (n) => {
        delete n.BrandId;
        delete n.IssuerId;
      }),
    );
    expect(messages(r)).toMatch(
      /^182 Brand is required \(Payment\.CreditCard\.BrandId: is required\).*IssuerId: is required/,
    );
    const l = await h.ledger();
    expect(
      l.problems.some((p) => p.kind === 'refused-request' && /saleCreate: .*BrandId: is required/.test(p.detail)),
    ).toBe(true);
  });
});

describe('undos, voids and the e-commerce API', () => {
  it('a chip undo without EmvData is refused (CONECTA_PT 7393-7420); with it the sale is undone', async () => {
    const a = await h.acquirer.omni.createSale(sale(1000));
    const r = await call('requests', 'DELETE', `/1/physicalSales/${a.Payment.PaymentId}`, {});
    expect(r).toMatchObject({ status: 400, json: [{ Code: 0 }] });
    expect(messages(r)).toMatch(/EmvData: is required to undo a chip sale/);
    expect((await h.acquirer.omni.getSale(a.Payment.PaymentId)).Payment.ConfirmationStatus).toBe(0);
    expect(await call('requests', 'DELETE', `/1/physicalSales/${a.Payment.PaymentId}`, EMV_UNDO)).toMatchObject({
      status: 200,
      json: { ConfirmationStatus: 2 },
    });
    expect(
      (await h.ledger()).problems.some(
        (p) => p.kind === 'chip-undo-without-emv-data' && p.paymentId === a.Payment.PaymentId,
      ),
    ).toBe(true);
  });

  it('PUT /1/sales/{id}/void needs its Content-Type (ECOMMERCE 6295); QrCode goes under Payment (ECOMMERCE 2385)', async () => {
    const ec = h.acquirer.ecommerce as EcommerceClient;
    const s = await ec.createQrSale({
      MerchantOrderId: nextOrderId(),
      Payment: { Type: 'qrcode', Amount: 5000, Installments: 1, Capture: true, QrCode: { MerchantName: 'Loja Teste' } },
    } as never);
    const heads = { MerchantId: SANDBOX_CREDENTIALS.merchantId, MerchantKey: SANDBOX_CREDENTIALS.merchantKey };
    const u = new URL(h.running.urls.ecommerceRequests);
    const bare = await request(`${u.origin}/1/sales/${s.Payment.PaymentId}/void`, { method: 'PUT', headers: heads });
    expect(bare.statusCode).toBe(415);
    await bare.body.dump();
    const typed = await request(`${u.origin}/1/sales/${s.Payment.PaymentId}/void`, {
      method: 'PUT',
      headers: { ...heads, 'content-type': 'application/json' },
    });
    expect(typed.statusCode).toBe(200);
    await typed.body.dump();
    const root = await request(`${u.origin}/1/sales`, {
      method: 'POST',
      headers: { ...heads, 'content-type': 'application/json' },
      body: JSON.stringify({
        MerchantOrderId: nextOrderId(),
        QrCode: { MerchantName: 'X' },
        Payment: { Type: 'qrcode', Amount: 100, Installments: 1 },
      }),
    });
    expect(root.statusCode).toBe(400);
    expect(JSON.stringify(await root.body.json())).toMatch(/QrCode: not a member of the sale; it goes under Payment/);
  });
});

describe('wallet QR per the QR manual v4', () => {
  const PAYER = { payerDocument: '52998224725', payerName: 'Pagador Teste' };
  const CARD = {
    card_number: TEST_CARDS[0]!.pan,
    card_cvv: '123',
    card_holder_name: 'TESTE',
    card_expiration_date: '1230',
  };

  it('the host pays a code it registered (an e-commerce QR sale, image only) and refuses a terminal-built one with 422.002 unless the scenario registers them', async () => {
    await h.control('POST', '/sandbox/scenario', { registersTerminalQr: false });
    try {
      const ec = h.acquirer.ecommerce as EcommerceClient;
      const s = await ec.createQrSale({
        MerchantOrderId: nextOrderId(),
        Payment: { Type: 'qrcode', Amount: 4321, Installments: 1, Capture: true },
      });
      // the answer carries the image, no text field (ECOMMERCE 2548, 2582)
      expect(s.Payment.QrCodeBase64Image).toBeTruthy();
      expect(Object.keys(s.Payment)).not.toContain('QrCodeString');
      await h.acquirer.wallet.pay({ qrCode: qrTextFromPng(s.Payment.QrCodeBase64Image ?? ''), card: CARD, ...PAYER });
      expect((await ec.getSale(s.Payment.PaymentId)).Payment.Status).toBe(2);
      const m = SANDBOX_MERCHANT.merchant;
      const now = new Date(((await h.control('GET', '/sandbox/clock')).body as { now: string }).now);
      const p2 = (n: number): string => String(n).padStart(2, '0');
      const local = new Date(now.getTime() - 3 * 3_600_000);
      const stamp = `${p2(local.getUTCDate())}${p2(local.getUTCMonth() + 1)}${p2(local.getUTCFullYear() % 100)}${p2(local.getUTCHours())}${p2(local.getUTCMinutes())}${p2(local.getUTCSeconds())}`;
      const terminalCode = buildPadraoq({
        merchantId: m.merchantNumber,
        terminalId: SANDBOX_MERCHANT.terminal.terminalId,
        merchantDocument: m.nationalId,
        deviceType: 'E',
        mcc: m.mcc,
        amount: 1,
        merchantName: m.name,
        merchantCity: m.city,
        postalCode: m.postalCode,
        referenceLabel: nextOrderId(),
        timestamp: stamp,
        modality: '0002',
        installments: 0,
        nsu: '000123',
      });
      const refused = await h.acquirer.wallet
        .pay({ qrCode: terminalCode, card: CARD, ...PAYER })
        .catch((e: unknown) => e);
      expect((refused as { context: { status: number; returnCode: string } }).context).toMatchObject({
        status: 422,
        returnCode: '422.002',
      });
      await h.control('POST', '/sandbox/scenario', { registersTerminalQr: true });
      await expect(h.acquirer.wallet.pay({ qrCode: terminalCode, card: CARD, ...PAYER })).resolves.toMatchObject({
        terminal_nsu: '000123',
      });
      const l = await h.ledger();
      expect(l.entries.some((e) => e.kind === 'wallet-unregistered-code')).toBe(true);
      expect(l.entries.some((e) => e.kind === 'wallet-terminal-code')).toBe(true);
    } finally {
      await h.control('POST', '/sandbox/scenario', { registersTerminalQr: true });
    }
  });
});

describe('registration on its own host', () => {
  it("POST /terminals takes the current manual's flat body (CONECTA_PT 9890-9898) and refuses the older TerminalBaseModel wrapper", async () => {
    const master = await h.acquirer.tokens.token('registration');
    const post = async (body: unknown) => {
      const r = await request(`${h.running.urls.registration}/terminals`, {
        method: 'POST',
        headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: r.statusCode, json: await r.body.json() };
    };
    const flat = {
      SubordinatedMerchantId: SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
      CommunicationType: 'PERFIL_PADRAO',
      SkipEquipment: true,
      TerminalId: '42009901',
    };
    const wrapped = await post({ TerminalBaseModel: { ...flat, TerminalId: '42009902' } });
    expect(wrapped.status).toBe(400);
    expect(JSON.stringify(wrapped.json)).toMatch(/TerminalBaseModel: not a member/);
    expect((await post(flat)).status).toBe(201);
    // and only there: the parameters host does not serve it
    const elsewhere = await request(`${new URL(h.running.urls.parameters).origin}/terminals`, {
      method: 'POST',
      headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
      body: JSON.stringify(flat),
    });
    expect(elsewhere.statusCode).toBe(404);
    await elsewhere.body.dump();
  });
});
