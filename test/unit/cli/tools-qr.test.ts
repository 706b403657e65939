import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolsCrc16, toolsQrDecode, toolsQrEncode } from '../../../src/cli/tools-qr.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { runCliCaptured } from '../../helpers/cli.js';

const COMMANDS = [toolsQrDecode, toolsQrEncode, toolsCrc16];

const run = (...argv: string[]): Promise<{ code: number; out: string; err: string }> =>
  runCliCaptured(argv, {}, COMMANDS);

const BCB_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

const FIELDS = {
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
};

const tempDir = useTempDirs();

function fieldsFile(content: unknown): string {
  const dir = tempDir('omnipos-qr-');
  const file = path.join(dir, 'fields.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('omnipos tools crc16', () => {
  it('prints four upper-case hex digits (CRC catalogue check value 29B1)', async () => {
    expect(await run('tools', 'crc16', '123456789')).toEqual({ code: 0, out: '29B1\n', err: '' });
    expect(JSON.parse((await run('tools', 'crc16', BCB_STATIC.slice(0, -4), '--json')).out)).toEqual({ crc16: '1D3D' });
  });
});

describe('omnipos tools qr encode / decode', () => {
  it('encodes a current-model code from a fields file and decodes it back', async () => {
    const enc = await run('tools', 'qr', 'encode', '--file', fieldsFile(FIELDS));
    expect(enc.code).toBe(0);
    const qr = enc.out.trim();
    expect(qr).toMatch(/^000201010212.*0010BR\.COM\.ELO.*6304[0-9A-F]{4}$/);
    const dec = await run('tools', 'qr', 'decode', qr, '--json');
    expect(dec.code).toBe(0);
    const json = JSON.parse(dec.out) as { model: string; qrcode_data: Record<string, unknown> };
    expect(json.model).toBe('current');
    expect(json.qrcode_data).toMatchObject({
      merchant_city: 'SAO PAULO',
      transaction_amount: '10.00',
      merchant_category_code: '1302',
    });
    const readable = await run('tools', 'qr', 'decode', qr);
    expect(readable.out).toContain('model      current');
    expect(readable.out).toContain('amount     10.00');
  });

  it('writes the second scheme GUI given on the command line', async () => {
    const enc = await run(
      'tools',
      'qr',
      'encode',
      '--file',
      fieldsFile(FIELDS),
      '--second-scheme-gui',
      'BR.COM.SCHEMEB',
      '--json',
    );
    expect((JSON.parse(enc.out) as { qrcode: string }).qrcode).toContain('0014BR.COM.SCHEMEB');
  });

  it('encodes a Pix code with --pix (BCB manual example)', async () => {
    const file = fieldsFile({
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    });
    expect((await run('tools', 'qr', 'encode', '--pix', '--file', file)).out).toBe(`${BCB_STATIC}\n`);
  });

  it('decodes a Pix code', async () => {
    const dec = await run('tools', 'qr', 'decode', BCB_STATIC, '--json');
    expect(JSON.parse(dec.out)).toMatchObject({
      model: 'pix',
      pix: { key: '123e4567-e12b-12d1-a456-426655440000', crc16: '1D3D' },
    });
  });

  it('exits 2 with the object id and the problem on stderr when invalid', async () => {
    const bad = await run('tools', 'qr', 'decode', `${BCB_STATIC.slice(0, -1)}E`);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe('');
    expect(bad.err).toContain('63: CRC mismatch: expected 1D3D, found 1D3E');
    const file = fieldsFile({ ...FIELDS, merchantId: '123' });
    const enc = await run('tools', 'qr', 'encode', '--file', file);
    expect(enc.code).toBe(2);
    expect(enc.err).toContain('26.01: expected 16 digits, found 3');
  });

  it('exits 2 on a missing or unreadable file', async () => {
    expect((await run('tools', 'qr', 'encode')).code).toBe(2);
    expect((await run('tools', 'qr', 'encode', '--file', '/nonexistent/fields.json')).code).toBe(2);
  });
});
