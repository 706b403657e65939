/**
 * TLV decode, ours beside the packages a user would pick instead (ber-tlv, node-tlv), on card
 * responses from node-tlv's own tests. Every contender gets the same hex string and decodes
 * constructed objects fully; node-tlv decodes one top-level object, so each input is one.
 */
import { createRequire } from 'node:module';
import berTlv from 'ber-tlv';
import { bench, describe } from 'vitest';
import { decodeTlv } from '../../src/emv/index.js';

const require = createRequire(import.meta.url);
const nodeTlv = require('node-tlv') as { parse(hex: string): { child: unknown[] } };

const INPUTS = {
  // coolbong/node-tlv tests/record.js 'visa PAN': 70 with 15 primitives, long length 81 8D.
  'READ RECORD (144 bytes, 15 objects)':
    '70818D5A0845797205098670045F24031704305F25031204305F280204105F300202015F3401018C159F02069F03069F1A0295055F2A029A039C019F37048D178A029F02069F03069F1A0295055F2A029A039C019F37048E10000000000000000001031E0302031F009F0702FF009F0802008C9F0D05986804A8009F0E050010A800009F0F05986804F8009F42020410',
  // coolbong/node-tlv tests/selectResp.js: FCI nested four deep.
  'SELECT FCI (60 bytes, nested)':
    '6F3A8407A0000000041010A52F500A4D6173746572436172649F38069F5C089F4005BF0C179F5E095413339000001513019F5D030101009F4D020B0A',
  // coolbong/node-tlv tests/tlv.js: contactless record with tracks.
  'contactless READ RECORD (119 bytes)':
    '70759F6C0200019F62060000003800009F630600000000E0E0563442353431333333393030303030313531335E202F5E323031323230313333303030333333303030323232323230303031313131309F6401039F6502000E9F66020E709F6B135413339000001513D20122019000990000000F9F670103',
} as const;

for (const [name, hex] of Object.entries(INPUTS)) {
  describe(`TLV decode: ${name}`, () => {
    bench('omnipos decodeTlv', () => {
      decodeTlv(hex);
    });
    bench('ber-tlv TlvFactory.parse', () => {
      berTlv.TlvFactory.parse(hex);
    });
    bench('node-tlv TLV.parse', () => {
      nodeTlv.parse(hex);
    });
  });
}
