import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { OmniposError } from '../core/index.js';
import {
  buildPadraoq,
  buildPix,
  crc16Hex,
  parseQr,
  type PadraoqInput,
  type ParsedQr,
  type PixInput,
} from '../qr/index.js';
import { printJson, type Command } from './context.js';

function readable(r: ParsedQr): string {
  if (r.model === 'pix') {
    const p = r.pix;
    const rows: [string, string | undefined][] = [
      ['model', `pix (${p.composition.replace('+', ' + ')})`],
      ['key', p.key],
      ['url', p.url],
      [
        'recurrence',
        p.recurrence ? `${p.recurrence.url} (Pix Automático, template ${p.recurrence.templateId})` : undefined,
      ],
      ['info', p.info],
      ['amount', p.transactionAmount],
      ['merchant', `${p.merchantName}, ${p.merchantCity}`],
      ['txid', p.txid],
      ['crc16', p.crc16],
    ];
    return rows
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k.padEnd(10)} ${v}`)
      .join('\n');
  }
  const d = r.qrcode_data;
  const pi = d.payment_information;
  return [
    `model      ${r.model}`,
    `merchant   ${d.merchant_account_information.id_merchant} terminal ${d.merchant_account_information.id_terminal}`,
    `name       ${d.merchant_name}, ${d.merchant_city}`,
    `amount     ${d.transaction_amount} (currency ${d.transaction_currency}, MCC ${d.merchant_category_code})`,
    `reference  ${d.additional_data_field.reference_label}`,
    `date       ${pi.timestamp}`,
    `type       ${pi.tipo_de_transacao === '02' ? 'cancellation' : 'sale'} (${pi.tipo_de_transacao}), modality ${pi.modalidade}, installments ${pi.parcelas}`,
    `crc16      ${d.crc16}`,
  ].join('\n');
}

/** `omnipos tools qr decode STRING`: padraoq (any model) or Pix; exit 2 with the reason when invalid. */
export const toolsQrDecode: Command = {
  path: ['tools', 'qr', 'decode'],
  summary: 'check and decode a dynamic QR code (br.com.padraoq, any model) or a Pix BR Code',
  usage: `omnipos tools qr decode STRING [--json]

Checks the CRC and every data object, and prints the model recognised (current, earlier,
oldest, or pix) and the fields. A Pix code is static (a key), dynamic (a location URL), a Pix
Automático recurrence (template 80 with the recurrence location), or a composite of a payment and
a recurrence; a key and a payment location together are refused. --json prints {model,
qrcode_data, fields} (for Pix, {model, pix} with pix.composition and pix.recurrence).
An invalid code exits 2 with the object id and the problem on stderr, e.g.
"26.01: expected 16 digits, found 15".

Example:
  omnipos tools qr decode "$(cat code.txt)" --json`,
  run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1)
      throw new OmniposError('INVALID_ARGUMENT', 'expected one QR code string (quote it)', {});
    const parsed = parseQr(positionals[0]!);
    if (values.json) {
      printJson(ctx, parsed.model === 'pix' ? { model: 'pix', pix: { ...parsed.pix, objects: undefined } } : parsed);
    } else {
      ctx.out(`${readable(parsed)}\n`);
    }
    return Promise.resolve(0);
  },
};

/** `omnipos tools qr encode --file FIELDS.json`: the QR string. */
export const toolsQrEncode: Command = {
  path: ['tools', 'qr', 'encode'],
  summary: 'build a dynamic QR code string from a JSON file of fields',
  usage: `omnipos tools qr encode --file FIELDS.json [--pix] [--second-scheme-gui GUI] [--json]

Builds a br.com.padraoq code (field "model": current (default), earlier or oldest) from the
fields in the file, e.g. {"merchantId": "1234567890123456", "terminalId": "12345678",
"deviceType": "P", "mcc": "5812", "amount": "12.34", "merchantName": "Padaria São João",
"merchantCity": "São Paulo", "referenceLabel": "26326001000001", "timestamp": "221126083000",
"modality": "0002", "nsu": "000123"}; a cancellation adds "transactionType": "cancellation" and
"original": {"nsu", "date" (MMDD), "terminalId"}. With --pix the file holds a Pix code's fields
({key | url, merchantName, merchantCity, amount?, txid?, info?, recurrenceUrl?}; recurrenceUrl
alone makes a Pix Automático code, beside key or url a composite). Prints the string, or
{"qrcode": STRING} with --json. The second scheme's GUI defaults to BR.COM.ELO.

Example:
  omnipos tools qr encode --file fields.json`,
  run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        file: { type: 'string' },
        pix: { type: 'boolean' },
        'second-scheme-gui': { type: 'string' },
        json: { type: 'boolean' },
      },
      strict: true,
    });
    if (!values.file) throw new OmniposError('INVALID_ARGUMENT', 'expected --file FIELDS.json', {});
    let fields: unknown;
    try {
      fields = JSON.parse(readFileSync(values.file, 'utf8'));
    } catch (e) {
      throw new OmniposError('INVALID_ARGUMENT', `${values.file}: ${(e as Error).message}`, { file: values.file });
    }
    const gui = values['second-scheme-gui'];
    const qrcode = values.pix
      ? buildPix(fields as PixInput)
      : buildPadraoq(fields as PadraoqInput, gui ? { secondSchemeGui: gui } : {});
    if (values.json) printJson(ctx, { qrcode });
    else ctx.out(`${qrcode}\n`);
    return Promise.resolve(0);
  },
};

/** `omnipos tools crc16 TEXT`: CRC-16/CCITT-FALSE as four upper-case hex digits. */
export const toolsCrc16: Command = {
  path: ['tools', 'crc16'],
  summary: 'CRC-16/CCITT-FALSE of a text (the QR object 63 checksum)',
  usage: `omnipos tools crc16 TEXT [--json]

Prints the CRC-16/CCITT-FALSE (poly 1021h, init FFFFh) of TEXT's UTF-8 bytes as four upper-case
hex digits. To check a QR code, pass everything up to and including "6304".

Example:
  omnipos tools crc16 '00020101021226...6304'`,
  run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new OmniposError('INVALID_ARGUMENT', 'expected one TEXT (quote it)', {});
    const crc = crc16Hex(positionals[0]!);
    if (values.json) printJson(ctx, { crc16: crc });
    else ctx.out(`${crc}\n`);
    return Promise.resolve(0);
  },
};
