import { describe, expect, it } from 'vitest';
import { decodeTlv, dumpTlv, MASKED_TAGS, tlvToJson } from '../../../src/emv/index.js';

// Card data from public libraries' tests (coolbong/node-tlv tests/tlv.js and record.js,
// coolbong/JavaTlv DgiTest.java), so the masks are checked against real layouts.
const RECORD_PAN =
  '70385F24032012315F25030601019F0702FF005A0854133390000015139F0D05F8406420009F0E0500108800009F0F05F86064F8005F28020056';
const CONTACTLESS =
  '70759F6C0200019F62060000003800009F630600000000E0E0563442353431333333393030303030313531335E202F5E323031323230313333303030333333303030323232323230303031313131309F6401039F6502000E9F66020E709F6B135413339000001513D20122019000990000000F9F670103';
const TRACK2_NAME = '702057125981786067381230D29125010000000000005F20094B4C53432043415244';
const FCI_DSID =
  '6F3A8407A0000000041010A52F500A4D6173746572436172649F38069F5C089F4005BF0C179F5E095413339000001513019F5D030101009F4D020B0A';

const CLEAR = [
  '5413339000001513',
  '5981786067381230',
  '4B4C53432043415244',
  'KLSC CARD',
  '20122019',
  'D29125',
  '3534313333333930',
];

describe('dumpTlv masks card data by tag', () => {
  it('covers the tags docs/operations.md names (Logs)', () => {
    for (const t of ['5A', '57', '56', '5F20', '9F0B', '9F6B', '99']) expect(MASKED_TAGS).toContain(t);
  });

  it.each([
    ['PAN (5A) keeps first 6 and last 4', RECORD_PAN, '541333******1513'],
    ['track 2 (57) keeps the masked PAN and hides the rest', TRACK2_NAME, '598178******1230D*******************'],
    ['cardholder name (5F20) is hidden', TRACK2_NAME, '5F20 Cardholder Name (9): ******************'],
    ['contactless track 2 (9F6B)', CONTACTLESS, '541333******1513D*********************'],
    ['track 1 (56) is hidden whole', CONTACTLESS, `56 Track 1 Data (52): ${'*'.repeat(104)}`],
  ])('%s', (_what, hex, shown) => {
    expect(dumpTlv(hex)).toContain(shown);
  });

  it.each([RECORD_PAN, CONTACTLESS, TRACK2_NAME, FCI_DSID])('never shows the clear PAN, track or name (%#)', (hex) => {
    const text = dumpTlv(hex) + JSON.stringify(tlvToJson(decodeTlv(hex)));
    for (const c of CLEAR) expect(text).not.toContain(c);
  });

  it('masks inside a template value too (the JSON value of 70 is rebuilt from masked children)', () => {
    const [record] = tlvToJson(decodeTlv(RECORD_PAN));
    expect(record!.value).toContain('5A08541333******1513');
    expect(record!.children!.find((c) => c.tag === '5A')).toMatchObject({ masked: true, length: 8 });
  });

  it('masks PIN data (99) and the extended name (9F0B)', () => {
    const out = dumpTlv('9904123456789F0B04414E4E41');
    expect(out).toContain('99 Transaction Personal Identification Number (PIN) Data (4): ********');
    expect(out).not.toContain('414E4E41');
  });

  it('shows text tags readably and unknown tags as hex', () => {
    expect(dumpTlv(FCI_DSID)).toContain('50 Application Label (10): 4D617374657243617264 "MasterCard"');
    expect(dumpTlv('DF7F020102')).toBe('DF7F (2): 0102');
  });

  it('reports bad data in one line without its bytes', () => {
    expect(dumpTlv('5A08541333900000')).toBe('invalid TLV: offset 0 (tag 5A): length 8 exceeds the 6 bytes left');
  });
});
