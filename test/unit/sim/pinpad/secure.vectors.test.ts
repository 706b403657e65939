import { describe, expect, it } from 'vitest';
import { openCommand, sealAnswer } from '../../../../src/sim/pinpad/secure/envelope.js';
import { readOpnBlock } from '../../../../src/sim/pinpad/secure/opn-block.js';
import { parseCommand } from '../../../../src/sim/pinpad/wire/command.js';
import { PPC930_OPN_BLOCK } from '../../../helpers/ppc930-commands.js';

/** guilhermecabral05/abecs-rust protocolo_abecs_2_20.md §5.2.2, the two published examples. */
const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const KSEC = hex('DB3B4D015432AB3223555A1F81759A94');

describe("the virtual pinpad's secure packets against the specification's examples (§5.2.2)", () => {
  it("§5.2.2.1 (line 10826): the terminal's sealed GIX opens to its CLRDATA", () => {
    const pkt = hex(
      '12 EA 22 9E DD 36 F8 4C 2A A7 E0 02 75 10 5C 3A 8A 78 7F C9 B2 88 35 40 AE E8 27 BA 1C 5A 03 94 96',
    );
    expect(Buffer.from(openCommand(KSEC, pkt)!).toString('hex').toUpperCase()).toBe(
      '47495830313400010 00A80018004803491019 10E'.replace(/\s/g, ''),
    );
  });

  it("§5.2.2.2 (line 10928): the pinpad's GIX answer seals to the published PKTDATA, byte for byte", () => {
    const clr = hex(`47 49 58 30 30 30 31 35 31 80 01 00 0C 39 39 31 32 37 34 33 36 36 31 35 35 80 04 00 0D 48 45 4D
      49 53 50 48 45 52 45 53 20 20 80 34 00 64 30 31 31 31 30 30 31 31 30 30 30 30 30 30 30 30 30 30
      30 30 30 30 30 30 30 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32
      32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32
      32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 91 01 00 0A FF FF F9 13 25 00 43 20 04 43`);
    const pkt = hex(`12 BA 90 C3 82 65 12 69 B2 2D 0E FC 90 B9 2B C3 08 83 71 38 6A 69 B9 A7 A8 5B C6 AC 76 E4 84 37
      BC 73 A2 02 86 EC B6 73 A4 93 4C 85 35 4E 47 16 0F 27 2E 1A 2B 53 BA C1 B7 95 85 9E 4C 62 2F C8
      66 1A 4B AE 1F EE 45 09 75 B7 CA 04 20 C6 18 A1 FC 74 47 65 C3 E7 08 AF 56 02 25 6B 75 A9 07 C3
      F9 A2 56 89 CB 11 23 9C 01 E3 6F C6 18 B4 17 A0 2A 21 77 E3 C3 C8 73 B1 F0 6E 3B D6 20 8F F2 B4
      96 A2 B0 BD F8 12 32 FD A0 97 30 0C 7D 19 B0 07 DD C1 7E 6D EF 8B E7 BB 0E 82 58 8C 07 11 C0 1B
      39 B1 21 BB 8C 66 E3 E0 31 3C 82 69 27 FB 7F 13 36`);
    expect(Buffer.from(sealAnswer(KSEC, clr)).equals(Buffer.from(pkt))).toBe(true);
  });

  it('a tampered or short packet does not open (§5.2.2.2 checks)', () => {
    const pkt = hex(
      '12 EA 22 9E DD 36 F8 4C 2A A7 E0 02 75 10 5C 3A 8A 78 7F C9 B2 88 35 40 AE E8 27 BA 1C 5A 03 94 96',
    );
    const t = Uint8Array.from(pkt);
    t[5]! ^= 1;
    expect(openCommand(KSEC, t)).toBeUndefined();
    expect(openCommand(KSEC, pkt.subarray(0, 20))).toBeUndefined();
    expect(openCommand(new Uint8Array(16), pkt)).toBeUndefined();
  });

  it('reads the secure OPN a production client sent to the PPC930 (transcao_completa_com_scope.txt line 2): a 2048-bit key, exponent 010001', () => {
    const block = Buffer.from(PPC930_OPN_BLOCK, 'latin1');
    expect(block.length).toBe(523);
    const key = readOpnBlock(block);
    expect(key?.modulus.length).toBe(256);
    expect(Buffer.from(key!.modulus.subarray(0, 4)).toString('hex').toUpperCase()).toBe('7D112556');
    expect(Buffer.from(key!.exponent).toString('hex')).toBe('010001');
    expect(readOpnBlock(Buffer.from(PPC930_OPN_BLOCK.replace(/^0256/, '0128'), 'latin1'))).toBeUndefined(); // OPN_MODLEN is fixed "256" (§3.2.2)
    expect(readOpnBlock(Buffer.from(`${PPC930_OPN_BLOCK} `, 'latin1'))).toBeUndefined();
    expect(readOpnBlock(Buffer.from(PPC930_OPN_BLOCK.replace(/^0/, '1'), 'latin1'))).toBeUndefined(); // OPN_OPMODE "0"
    expect(parseCommand(Buffer.from(`OPN523${PPC930_OPN_BLOCK}`, 'latin1'))).toMatchObject({ id: 'OPN' });
  });
});
