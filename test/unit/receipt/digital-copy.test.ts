import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { luhnCheckDigit } from '../../../src/crypto/check-digits.js';
import { qrModules, renderQrBitmap } from '../../../src/qr/render.js';
import { DIGITAL_COPY_MAX_BYTES, digitalCopyText } from '../../../src/receipt/index.js';
import { decodeQrBitmap } from '../../helpers/qr-decode.js';
import { rows, source } from '../../helpers/receipt-sources.js';

const seed = Date.now() % 2 ** 31;
console.log(`digital copy properties, fast-check seed ${seed}`);

/** `body` with its Luhn check digit: a PAN the PAN-shaped scrubber must also catch. */
const withLuhn = (body: string): string => body + String(luhnCheckDigit(body));

describe('digitalCopyText: the customer copy a phone reads off the kiosk screen', () => {
  it('the sandbox-shaped receipt goes whole: 32 columns, amount, masked card, authorization code, NSU; a QR of it decodes (jsQR) to the same text', () => {
    const { text, form } = digitalCopyText(source());
    expect(form).toBe('full');
    expect(text).toContain('VIA CLIENTE');
    expect(text).toContain('R$ 10,00');
    expect(text).toContain('541333******3511');
    expect(text).toContain('A1B2C3');
    expect(text).toContain('000123');
    expect(text).not.toContain('VIA ESTABELECIMENTO');
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(32);
    expect(decodeQrBitmap(renderQrBitmap(text, { ecc: 'L', scale: 4 }))).toBe(text);
  });

  it('a whole PAN given by mistake (host row or pinpad) shows first 6 / last 4 only', () => {
    const pan = '5413330089603511';
    for (const s of [
      source({ receiptInformation: rows({ CARD_NUMBER: pan }) }),
      source({ receiptInformation: rows().filter((r) => r.Field !== 'CARD_NUMBER'), maskedPan: pan }),
    ]) {
      const { text } = digitalCopyText(s);
      expect(text).not.toContain(pan);
      expect(text).toContain('541333******3511');
    }
  });

  it("the terminal's own order id is printed whole even when it passes Luhn (one in ten do); a PAN beside it is still masked", () => {
    // Found by the kiosk's receipt-QR test: 'PEDIDO           263300******4817', 33 columns.
    const order = withLuhn('26330000012481');
    const pan = '5413330089603511';
    const s = source({ merchantOrderId: order, receiptInformation: rows({ CARD_NUMBER: pan }) });
    for (const maxBytes of [DIGITAL_COPY_MAX_BYTES, 200]) {
      const { text } = digitalCopyText(s, { maxBytes });
      expect(text).toContain(order);
      expect(text).not.toContain(pan);
      for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(32);
    }
  });

  it('longer than a readable QR: the compact form (merchant, date, amount, product, masked card, authorization, NSU, status)', () => {
    const { text, form } = digitalCopyText(source({ brand: 'Mastercard' }), { maxBytes: 200, status: 'APROVADA' });
    expect(form).toBe('compact');
    expect(text.split('\n')).toEqual([
      'AMBIENTE DE TESTE — SEM VALOR',
      'PADARIA SÃO JOÃO',
      'DATA 22/11/26 10:05',
      'VALOR R$ 10,00',
      'Mastercard',
      'CARTAO 541333******3511',
      'AUT A1B2C3',
      'NSU 000123',
      'PEDIDO 263260010000123',
      'APROVADA',
    ]);
    expect(decodeQrBitmap(renderQrBitmap(text, { ecc: 'L', scale: 4 }))).toBe(text);
  });

  it('many host messages make the receipt too long: compact, by the default limit', () => {
    const printMessages = Array.from({ length: 12 }, (_, i) => ({
      Position: 'BOTTOM',
      Message: `MENSAGEM PROMOCIONAL NUMERO ${i} DO EMISSOR DO CARTAO`,
    }));
    const { text, form } = digitalCopyText(source({ printMessages }));
    expect(form).toBe('compact');
    expect(Buffer.byteLength(text)).toBeLessThan(DIGITAL_COPY_MAX_BYTES);
  });

  it('DIGITAL_COPY_MAX_BYTES is what QR version 20 holds at ECC L in byte mode (qrcode package: 858 bytes → v20, 859 → v21)', () => {
    expect(qrModules('a'.repeat(DIGITAL_COPY_MAX_BYTES), 'L').version).toBe(20);
    expect(qrModules('a'.repeat(DIGITAL_COPY_MAX_BYTES + 1), 'L').version).toBe(21);
  });

  it('property: a PAN anywhere (card row, pinpad, host messages) never reaches either form whole (1000 runs)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{11,17}$/),
        fc.constantFrom('row', 'pinpad', 'message'),
        fc.boolean(),
        (body, where, compact) => {
          const pan = withLuhn(body);
          const s =
            where === 'row'
              ? source({ receiptInformation: rows({ CARD_NUMBER: pan }) })
              : where === 'pinpad'
                ? source({ receiptInformation: rows().filter((r) => r.Field !== 'CARD_NUMBER'), maskedPan: pan })
                : source({ printMessages: [{ Position: 'BOTTOM', Message: `CARTAO ${pan}` }] });
          const { text } = digitalCopyText(s, compact ? { maxBytes: 10 } : {});
          expect(text).not.toContain(pan);
          // the masked form, when the card row or the pinpad gave it: first 6, six stars, last 4
          if (where !== 'message') expect(text).toContain(`${pan.slice(0, 6)}******${pan.slice(-4)}`);
        },
      ),
      { numRuns: 1000, seed },
    );
  });
});
