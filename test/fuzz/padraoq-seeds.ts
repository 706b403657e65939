// Wallet QR strings (br.com.padraoq) built field by field from the layout the acquirer's document
// publishes (../shared/seeds/000_3035b62fb1c1fc33.txt, "QR code string layouts", lines 121-166:
// the IDs, sizes, types and fixed values below), with a CRC16 of the harness's own (CCITT, 0xFFFF,
// as the document says: EMV QR / ISO 13239), then edited: the seeds the padraoq fuzz target starts
// from, so the parser is tried past its first refusal.
import fc from 'fast-check';

const tlv = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;
const digits = (min: number, max = min): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^\\d{${min},${max}}$`));
const ans = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .-/*'),
    minLength: min,
    maxLength: max,
  });

/** CRC16/CCITT-FALSE over the text up to and including "6304". */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const two = (n: number): string => String(n).padStart(2, '0');
/** A valid instant as DDMMYYHHmmss (81.01) and MMDDHHmmss (82.01), mostly; sometimes any digits. */
const instant = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => ({
    ddmmyy: `${two(d.getUTCDate())}${two(d.getUTCMonth() + 1)}${two(d.getUTCFullYear() % 100)}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`,
    mmdd: `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`,
  }));

/** 81.02, the document's modality codes. */
const MODALITIES = ['0001', '0002', '0004', '0008', '0010', '0020', '0040', '0200', '0400', '0000'];

/** A string in the current model (with the second scheme's 27 and 82) or the earlier one (without). */
export const padraoqQr: fc.Arbitrary<string> = fc
  .record({
    merchant: digits(16),
    terminal: digits(8),
    document: fc.option(fc.oneof(digits(11), digits(14))),
    second: fc.boolean(),
    device: fc.constantFrom('A', 'C', 'E', 'M', 'P', 'T'),
    mcc: digits(4),
    amount: fc.integer({ min: 1, max: 99_999_999 }).map((c) => (c / 100).toFixed(2)),
    name: ans(1, 25),
    city: ans(1, 15),
    postal: fc.option(digits(8)),
    reference: ans(1, 25),
    when: fc.oneof({ arbitrary: instant.map((i) => i.ddmmyy), weight: 9 }, { arbitrary: digits(12), weight: 1 }),
    modality: fc.constantFrom(...MODALITIES),
    installments: digits(2),
    type: fc.constantFrom('01', '02'),
    nsu: fc.option(digits(1, 12)),
    when82: fc.oneof({ arbitrary: instant.map((i) => i.mmdd), weight: 9 }, { arbitrary: digits(10), weight: 1 }),
    product: fc.tuple(fc.constantFrom('C', 'D', 'V', 'O'), digits(2)).map(([k, n]) => k + n),
    nsu82: digits(6),
  })
  .map((f) => {
    let s = tlv('00', '01') + tlv('01', '12');
    s += tlv(
      '26',
      tlv('00', 'br.com.padraoq') +
        tlv('01', f.merchant) +
        tlv('02', f.terminal) +
        tlv('03', '0001') +
        (f.document ? tlv('04', f.document) : ''),
    );
    if (f.second)
      s += tlv(
        '27',
        tlv('00', 'BR.COM.SCHEMEB') +
          tlv('01', '8384') +
          tlv('02', f.merchant.slice(1)) +
          tlv('03', f.terminal) +
          tlv('04', f.device),
      );
    s +=
      tlv('52', f.mcc) +
      tlv('53', '986') +
      tlv('54', f.amount) +
      tlv('58', 'BR') +
      tlv('59', f.name) +
      tlv('60', f.city);
    if (f.second && f.postal) s += tlv('61', f.postal);
    s += tlv('62', tlv('05', f.reference));
    s += tlv(
      '81',
      tlv('00', 'br.com.padraoq') +
        tlv('01', f.when) +
        tlv('02', f.modality) +
        tlv('03', f.installments) +
        tlv('04', f.type) +
        tlv('05', '03') +
        (f.nsu ? tlv('06', f.nsu) : ''),
    );
    if (f.second)
      s += tlv(
        '82',
        tlv('00', 'BR.COM.SCHEMEB') +
          tlv('01', f.when82) +
          tlv('02', f.product) +
          tlv('03', '01') +
          tlv('04', f.nsu82) +
          tlv('08', '3'),
      );
    s += '6304';
    return s + crc16(s);
  });

/** Those strings, and the same with characters changed, inserted or cut. */
export const padraoqInputs: fc.Arbitrary<string> = fc.oneof(
  padraoqQr,
  fc
    .tuple(
      padraoqQr,
      fc.array(
        fc.tuple(fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.integer({ min: 0, max: 2 })),
        { minLength: 1, maxLength: 4 },
      ),
    )
    .map(([seed, edits]) => {
      const c = [...seed];
      for (const [at, ch, kind] of edits) {
        const i = c.length ? at % c.length : 0;
        if (kind === 0) c[i] = ch;
        else if (kind === 1) c.splice(i, 0, ch);
        else c.splice(i, 1);
      }
      return c.join('');
    }),
);
