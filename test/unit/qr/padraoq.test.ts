import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  buildPadraoq,
  encodeMpm,
  parseMpm,
  parsePadraoq,
  type MpmInput,
  type MpmObject,
  type PadraoqInput,
} from '../../../src/qr/index.js';

/**
 * A current-model code issued by the acquirer, published as a template in a public repository
 * (matheuspereira qrcodewebflux, QRCodeGeneratorServiceImpl): every object is the acquirer's
 * except 54, 59 and 60, which the template fills in, so its CRC (4584) cannot be checked; we
 * fill them and recompute it. It fixes the layout this code must reproduce byte for byte.
 */
const PUBLISHED_TEMPLATE =
  '00020101021226580014br.com.padraoq011600100002444700010208202020330304000127580010BR.COM.ELO0104838402150100002444700010308202020330401E52041302530398654{54}5802BR59{59}60{60}62200516ECOECBXmIkHMb2ZV81600014br.com.padraoq01120610211908130204000203020104020105020382560010BR.COM.ELO011010061908130203C0103020104060000010801363044584';

function fill(amount: string, name: string, city: string): string {
  const tlv = (v: string): string => String(v.length).padStart(2, '0') + v;
  const body = PUBLISHED_TEMPLATE.replace('{54}', tlv(amount))
    .replace('{59}', tlv(name))
    .replace('{60}', tlv(city))
    .slice(0, -4);
  return encodeMpm(parseMpm(`${body}0000`, { checkCrc: false }).filter((o) => o.id !== '63'));
}

const PUBLISHED = fill('10.00', 'LOJA TESTE', 'SAO PAULO');

const SALE: PadraoqInput = {
  merchantId: '1234567890123456',
  terminalId: '12345678',
  merchantDocument: '12345678000195',
  deviceType: 'P',
  mcc: '5812',
  amount: 123.99,
  merchantName: 'Padaria São João',
  merchantCity: 'São Paulo',
  postalCode: '01310-100',
  referenceLabel: '260326001000001',
  timestamp: '221126083000',
  modality: '0002',
  installments: '01',
  nsu: '000123',
};

const CANCEL: PadraoqInput = {
  ...SALE,
  transactionType: 'cancellation',
  nsu: '000124',
  original: { nsu: '000123', date: '1122', terminalId: '12345678' },
};

function errorOf(f: () => unknown): { message: string; context: Record<string, unknown> } {
  try {
    f();
  } catch (e) {
    expect(isOmniposError(e, 'QR_INVALID')).toBe(true);
    return e as { message: string; context: Record<string, unknown> };
  }
  throw new Error('expected QR_INVALID');
}

/** The code with one object changed (value) or removed (undefined), CRC recomputed. */
function mutate(code: string, path: string, value: string | undefined): string {
  const [top, sub] = path.split('.') as [string, string | undefined];
  const edit = (objects: readonly MpmObject[], id: string, fn: (o: MpmObject) => MpmObject | undefined): MpmInput[] => {
    const out: MpmInput[] = [];
    let found = false;
    for (const o of objects) {
      if (o.id === id) {
        found = true;
        const n = fn(o);
        if (n) out.push(n);
      } else out.push(o.children ? { id: o.id, children: o.children } : o);
    }
    if (!found && value !== undefined) {
      const n = fn({ id, value: '' });
      if (n) out.splice(out.length - (sub === undefined ? 1 : 0), 0, n);
    }
    return out;
  };
  const objects = parseMpm(code);
  const changed = edit(objects, top, (o) => {
    if (sub === undefined) return value === undefined ? undefined : { id: o.id, value };
    return {
      id: o.id,
      children: edit(o.children ?? [], sub, (c) => (value === undefined ? undefined : { id: c.id, value })),
    } as unknown as MpmObject;
  });
  return encodeMpm(changed);
}

describe('padraoq current model: the published layout', () => {
  it('parses the acquirer-issued code as the current model', () => {
    const p = parsePadraoq(PUBLISHED);
    expect(p.model).toBe('current');
    expect(p.qrcode_data).toEqual({
      payload_format_indicator: '01',
      point_of_initiation_method: '12',
      merchant_account_information: {
        gui: 'br.com.padraoq',
        id_merchant: '0010000244470001',
        id_terminal: '20202033',
        id_credenciador: '0001',
      },
      merchant_category_code: '1302',
      transaction_currency: '986',
      transaction_amount: '10.00',
      country_code: 'BR',
      merchant_name: 'LOJA TESTE',
      merchant_city: 'SAO PAULO',
      additional_data_field: { reference_label: 'ECOECBXmIkHMb2ZV' },
      crc16: PUBLISHED.slice(-4),
      payment_information: {
        gui: 'br.com.padraoq',
        timestamp: '061021190813',
        modalidade: '0002',
        parcelas: '01',
        tipo_de_transacao: '01',
        fonte_de_dados_do_pagamento: '03',
      },
    });
    expect(p.fields).toMatchObject({
      secondSchemeGui: 'BR.COM.ELO',
      secondSchemeAcquirerId: '8384',
      deviceType: 'E',
      nsu: '000001',
      productType: 'C01',
      schemeDate: '1006190813',
      version: '3',
    });
  });

  it('is rebuilt byte for byte from its essential fields (derived 27, 82.01, 82.02, 82.03, 82.08)', () => {
    const built = buildPadraoq({
      merchantId: '0010000244470001',
      terminalId: '20202033',
      deviceType: 'E',
      mcc: '1302',
      amount: '10.00',
      merchantName: 'Loja Teste',
      merchantCity: 'São Paulo',
      referenceLabel: 'ECOECBXmIkHMb2ZV',
      timestamp: '061021190813',
      modality: '0002',
      installments: 1,
      nsu: '000001',
    });
    expect(built).toBe(PUBLISHED);
  });
});

describe('padraoq current model: sale and cancellation', () => {
  it('builds a sale: 81.04 01, 82.03 01, no 82.05-07, ANS name and city', () => {
    const p = parsePadraoq(buildPadraoq(SALE));
    expect(p.fields).toMatchObject({
      transactionType: '01',
      schemeTransactionType: '01',
      merchantName: 'PADARIA SAO JOAO',
      merchantCity: 'SAO PAULO',
      postalCode: '01310100',
      merchantDocument: '12345678000195',
    });
    expect(p.fields).not.toHaveProperty('original');
  });

  it('builds a cancellation: 81.04 02, 82.03 02 and 82.05-82.07 naming the original', () => {
    const code = buildPadraoq(CANCEL);
    expect(code).toContain('0302020406000124050600012306041122070812345678');
    const p = parsePadraoq(code);
    expect(p.qrcode_data.payment_information.tipo_de_transacao).toBe('02');
    expect(p.fields).toMatchObject({
      transactionType: '02',
      schemeTransactionType: '02',
      original: { nsu: '000123', date: '1122', terminalId: '12345678' },
    });
  });

  it('writes BR.COM.ELO by default and the configured GUI when given; parses BR.COM.SCHEMEB', () => {
    expect(buildPadraoq(SALE)).toContain('0010BR.COM.ELO');
    const schemeB = buildPadraoq(CANCEL, { secondSchemeGui: 'BR.COM.SCHEMEB' });
    expect(schemeB).toContain('0014BR.COM.SCHEMEB');
    // 82 of a cancellation is 90 long with the 14-character GUI: allowed (88 + 4).
    expect(parsePadraoq(schemeB).fields).toMatchObject({ secondSchemeGui: 'BR.COM.SCHEMEB' });
  });
});

describe('padraoq: every violation names the object', () => {
  const sale = buildPadraoq(SALE);
  const cancel = buildPadraoq(CANCEL);
  it.each([
    ['26.01', '123456789012345', sale, '26.01: expected 16 digits, found 15'],
    ['26.01', '12345678901234A6', sale, '26.01: expected 16 digits, found "12345678901234A6"'],
    ['26.02', '1234567', sale, '26.02: expected 8 digits, found 7'],
    ['26.00', 'br.com.padraoX', sale, '26.00: expected "br.com.padraoq"'],
    ['26.03', '0002', sale, '26.03: expected "0001", found "0002"'],
    ['27.00', 'BR.COM.VISA', sale, '27.00: expected one of "BR.COM.ELO", "BR.COM.SCHEMEB", found "BR.COM.VISA"'],
    ['27.01', '838', sale, '27.01: expected 4 to 7 characters, found 3'],
    ['27.02', '123456789012345', sale, '27.02: expected the last 15 digits of 26.01'],
    ['27.03', '87654321', sale, '27.03: expected the terminal logical number of 26.02'],
    ['27.04', 'X', sale, '27.04: expected one of "A", "C", "E", "M", "P", "T", found "X"'],
    ['27', undefined, sale, '27: missing (second-scheme merchant information)'],
    ['52', '581', sale, '52: expected 4 digits, found 3'],
    ['53', '98A', sale, '53: expected 3 digits, found "98A"'],
    ['54', '12,50', sale, '54: expected a decimal amount such as 123.99'],
    ['54', '12345678901.50', sale, '54: expected up to 13 characters, found 14'],
    ['58', 'US', sale, '58: expected "BR", found "US"'],
    ['59', 'PADARIA SÃO JOÃO', sale, '59: expected up to 25 characters of the ANS set (20h to 7Eh)'],
    ['59', 'A'.repeat(26), sale, '59: expected up to 25 characters, found 26'],
    ['60', 'SAO PAULO CAPITAL', sale, '60: expected up to 15 characters, found 17'],
    ['61', '01310-10', sale, '61: expected 8 digits, found "01310-10"'],
    ['62.05', undefined, sale, '62.05: missing (reference label)'],
    ['81.00', 'br.gov.bcb.pix', sale, '81.00: expected "br.com.padraoq", found "br.gov.bcb.pix"'],
    ['81.01', '321126083000', sale, '81.01: expected a date DDMMYYHHmmss'],
    ['81.02', '00G2', sale, '81.02: expected 4 hex digits, found "00G2"'],
    ['81.04', '03', sale, '81.04: expected one of "01", "02", found "03"'],
    ['81.05', '01', sale, '81.05: expected "03", found "01"'],
    ['81.04', '02', sale, '82.03: expected "02": 81.04 says cancellation'],
    ['82.03', '02', sale, '81.04: expected "02": 82.03 says cancellation'],
    ['82.05', '000100', sale, '82.05: only allowed for a cancellation (82.03 = 02)'],
    ['82.05', undefined, cancel, '82.05: missing (required for a cancellation)'],
    ['82.06', '1322', cancel, '82.06: expected a date MMDD'],
    ['82.07', '1234567', cancel, '82.07: expected 8 characters, found 7'],
    ['82.00', 'BR.COM.SCHEMEB', sale, '82.00: expected "BR.COM.ELO" as in 27.00'],
    ['82.01', '1322083000', sale, '82.01: expected a date MMDDHHmmss'],
    ['82.02', 'X01', sale, '82.02: expected C, D, V or O and two digits'],
    ['82.04', '12345', sale, '82.04: expected 6 digits, found 5'],
    ['82.08', '4', sale, '82.08: expected "3", found "4"'],
    ['82.08', undefined, sale, '82.08: missing (QR code version)'],
    ['82.02', 'C01'.repeat(11), sale, '82.02: expected 3 characters, found 33'],
    ['70', 'X', sale, '70: is not part of this layout'],
    ['99', 'X', sale, '99: truncated data object'],
    ['26.09', 'X', sale, '26.09: is not part of this layout'],
  ])('%s = %j', (path, value, code, message) => {
    const e = errorOf(() => parsePadraoq(mutate(code, path, value)));
    expect(e.message.startsWith(message)).toBe(true);
    expect(e.context.id).toBe(message.split(':')[0]);
  });

  it('a wrong CRC says expected and found', () => {
    const bad = `${sale.slice(0, -4)}0000`;
    const e = errorOf(() => parsePadraoq(bad));
    expect(e.message).toBe(`63: CRC mismatch: expected ${sale.slice(-4)}, found 0000`);
  });

  it('a Pix code is named as such', () => {
    const pix =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    expect(errorOf(() => parsePadraoq(pix)).message).toBe(
      '26.00: expected "br.com.padraoq", found a Pix code ("br.gov.bcb.pix")',
    );
  });

  it.each([
    [{ ...SALE, merchantId: 123 }, '26.01: missing or not text'],
    [{ ...SALE, amount: 'R$ 10' }, '54: expected a decimal amount'],
    [{ ...SALE, nsu: undefined }, '82.04: missing (transaction id)'],
    [{ ...SALE, deviceType: 'Z' }, '27.04: expected one of'],
    [{ ...SALE, model: 'newest' }, 'fields: model must be'],
  ])('the builder refuses bad input with the object id (%#)', (input, message) => {
    expect(errorOf(() => buildPadraoq(input as unknown as PadraoqInput)).message.startsWith(message)).toBe(true);
  });
});

describe('padraoq earlier and oldest models', () => {
  it('earlier: no 27, 61, 82 content; 81.02 is the main product; 82.01 reserved', () => {
    const code = buildPadraoq({
      ...SALE,
      model: 'earlier',
      mainProduct: '0001',
      reserved: 'RESERVED',
    } as unknown as PadraoqInput);
    expect(code).not.toContain('BR.COM.ELO');
    const p = parsePadraoq(code);
    expect(p.model).toBe('earlier');
    expect(p.fields).toMatchObject({ mainProduct: '0001', reserved: 'RESERVED' });
    expect(p.qrcode_data.payment_information.modalidade).toBe('0001');
    expect(errorOf(() => parsePadraoq(mutate(code, '81.02', '000A'))).message).toBe(
      '81.02: expected 4 digits, found "000A"',
    );
    expect(errorOf(() => parsePadraoq(mutate(code, '61', '01310100'))).message).toBe('61: is not part of this layout');
  });

  it('oldest: acquirer GUI, 12-digit amount, transaction data in 80', () => {
    const input = {
      model: 'oldest',
      gui: 'br.com.acquirer',
      merchantId: '1234567890123456',
      terminalId: '12345678',
      mcc: '5812',
      amount: '1234.5',
      merchantName: 'Café',
      merchantCity: 'Brasília',
      url: 'qr.acquirer.example/v1',
      transactionId: 'ABCDEF0123456789',
      timestamp: '221126083000',
      mainProduct: '1000',
      subProduct: '0001',
      installments: '01',
      transactionType: '01',
    } as const;
    const code = buildPadraoq(input);
    expect(code).toContain('5412000000123450');
    const p = parsePadraoq(code);
    expect(p.model).toBe('oldest');
    expect(p.qrcode_data).toMatchObject({
      transaction_amount: '1234.50',
      merchant_name: 'CAFE',
      merchant_city: 'BRASILIA',
      additional_data_field: { reference_label: 'ABCDEF0123456789' },
      payment_information: {
        gui: 'qr.acquirer.example/v1',
        timestamp: '221126083000',
        modalidade: '1000',
        parcelas: '01',
        tipo_de_transacao: '01',
      },
    });
    expect(errorOf(() => parsePadraoq(mutate(code, '80.01', 'SHORT'))).message).toBe(
      '80.01: expected 16 characters, found 5',
    );
    expect(errorOf(() => parsePadraoq(mutate(code, '54', '123.45'))).message).toBe(
      '54: expected 12 digits, found "123.45"',
    );
  });
});
