import QRCode from 'qrcode';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { EcommerceQrAdapter } from '../../../../src/acquirer/omni/ecommerce-qr.js';
import { qrTextFromPng } from '../../../../src/acquirer/omni/qr-image.js';
import type { QrCodeOrder } from '../../../../src/engine/qr/code-port.js';
import { loopbackAcquirer, json, loopback, type Recorded } from '../../../helpers/loopback.js';

/**
 * The wallet QR code the acquirer's host registers is the e-commerce QR code sale, and its answer
 * carries only the image (`QrCodeBase64Image`, base64 PNG; e-commerce page
 * _i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md lines 2530-2582, no text field).
 * The code's text is the QR manual v4's published example ("DADOS",
 * _i18n/pt/_posts/qrcode/2021-10-19-qrcode-v4.md lines 531-536), drawn here into a PNG by a
 * generator (qrcode) and read back by the terminal's decoder (pngjs + jsQR), a different library.
 */
const MANUAL_QR_TEXT = [
  '00020101021226760014br.com.padraoq0116123456789012000102082009130003040001041',
  '40306501400093927580010BR.COM.ELO010483840215234567890120001030820091300040',
  '1P520400005303986540525.005802BR5905CIELO6014SANTOANDRE',
  'SP61080600000062200516040310245460330981740014br.com.padraoq01120203211002180',
  '20400020302010402010502030606069646500082560010BR.COM.ELO011003021002180203',
  'C0003020104060696460801363044847',
].join('');

async function pngBase64(text: string, options: QRCode.QRCodeToBufferOptions = {}): Promise<string> {
  return (await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', width: 300, ...options })).toString(
    'base64',
  );
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

const ORDER = {
  merchantOrderId: '263290001360003',
  request: { amount: 2500, installments: 1, method: 'credit' },
} as unknown as QrCodeOrder;

async function hostAnswering(payment: (req: Recorded) => Record<string, unknown>) {
  const s = await loopback((req, res) => {
    if (req.method === 'POST' && req.url === '/1/sales') {
      return json(res, 201, {
        MerchantOrderId: ORDER.merchantOrderId,
        Payment: {
          Type: 'qrcode',
          Amount: 2500,
          Status: 12,
          PaymentId: '5d7e8fd3-70b6-4a88-9660-e064d72fdcdd',
          ReturnMessage: 'QRCode gerado com sucesso',
          ...payment(req),
        },
      });
    }
    if (req.method === 'PUT')
      return json(res, 200, { Status: 10, ReturnCode: '9', ReturnMessage: 'Operation Successful' });
    json(res, 404, [{ Code: 0, Message: 'no' }]);
  });
  cleanup.push(s.close);
  const a = loopbackAcquirer(s.url, { ecommerceQueryUrl: s.url }, { ecommerce: true });
  cleanup.push(() => a.close());
  return { s, adapter: new EcommerceQrAdapter(a.ecommerce!, () => undefined, { merchantName: 'Loja Teste' }) };
}

describe('the e-commerce QR code sale answered as the manual shows it (image only)', () => {
  it('the code’s text is read from QrCodeBase64Image: the same text goes to the pinpad and the receipt (the old code refused an answer without QrCodeString)', async () => {
    const image = await pngBase64(MANUAL_QR_TEXT);
    const { s, adapter } = await hostAnswering(() => ({ QrCodeBase64Image: image }));
    const issued = await adapter.issue(ORDER);
    expect(issued).toEqual({ qrCode: MANUAL_QR_TEXT, paymentId: '5d7e8fd3-70b6-4a88-9660-e064d72fdcdd' });
    const body = JSON.parse(s.seen[0]!.body) as Record<string, any>;
    // QrCode under Payment, as the manual's request (lines 2374-2389); nothing at the top level.
    expect(body.Payment).toMatchObject({
      Type: 'qrcode',
      Amount: 2500,
      Installments: 1,
      Capture: true,
      QrCode: { MerchantName: 'Loja Teste' },
    });
    expect(body).not.toHaveProperty('QrCode');
  });

  // Issue 29 defect 5: the QR code sale's own answer at ecom:2495 spells the image `"QrCode": "iVBOR…"`; 285360d refused it.
  it('the image spelled `QrCode` (a base64 string, ecom:2495) is read too', async () => {
    const image = await pngBase64(MANUAL_QR_TEXT);
    const { adapter } = await hostAnswering(() => ({ QrCode: image }));
    expect((await adapter.issue(ORDER)).qrCode).toBe(MANUAL_QR_TEXT);
  });

  it('an image that holds no code, or no image: the sale is refused and the code nobody can see is cancelled at the host', async () => {
    const blank = PNG.sync.write({ width: 40, height: 40, data: Buffer.alloc(40 * 40 * 4, 255) });
    for (const payment of [
      { QrCodeBase64Image: blank.toString('base64') },
      {},
      { QrCodeBase64Image: 'bm90IGEgcG5n' },
    ]) {
      const { s, adapter } = await hostAnswering(() => payment);
      await expect(adapter.issue(ORDER)).rejects.toThrow(/QrCodeBase64Image|image/);
      expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /1/sales',
        'PUT /1/sales/5d7e8fd3-70b6-4a88-9660-e064d72fdcdd/void',
      ]);
    }
  });

  it('decodes other PNG layouts a host may send: grey without alpha, a data: URL, a small margin', async () => {
    const text = MANUAL_QR_TEXT;
    const rgba = await pngBase64(text, { margin: 1, width: 250 });
    expect(qrTextFromPng(rgba)).toBe(text);
    expect(qrTextFromPng(`data:image/png;base64,${rgba}`)).toBe(text);
    const decoded = PNG.sync.read(Buffer.from(rgba, 'base64'));
    // Re-encode as 8-bit grey without alpha (colorType 0).
    const grey = (PNG.sync as unknown as { write(p: unknown, o: unknown): Buffer }).write(decoded, { colorType: 0 });
    expect(qrTextFromPng(grey.toString('base64'))).toBe(text);
  });
});
