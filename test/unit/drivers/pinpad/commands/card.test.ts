import { describe, expect, it } from 'vitest';
import {
  card,
  decodeCommand,
  decodeParams,
  decodeResponse,
  decodeLayout,
  paramValue,
  PinpadError,
  CARD_LAYOUTS,
} from '../../../../../drivers/pinpad/index.js';
import type { Response } from '../../../../../drivers/pinpad/index.js';
import ex from '../../../../vectors/pinpad-card/abecs-card-examples.json' with { type: 'json' };
import records from '../../../../vectors/initialization/abecs-4.1-records.json' with { type: 'json' };

const bytes = (hex: string): Uint8Array => Buffer.from(hex, 'hex');
const rsp = (hex: string): Response => decodeResponse(bytes(hex));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

/** A command's parameters as "PARID=hex" strings, sorted (ABECS parameters may come in any order, §3.1.3.1). */
function paramSet(packet: Uint8Array, skip: readonly number[] = []): string[] {
  const c = decodeCommand(packet);
  return decodeParams(c.blocks, c.id)
    .filter((p) => !skip.includes(p.id))
    .map((p) => `${p.id.toString(16).padStart(4, '0')}=${hexOf(p.value)}`)
    .sort();
}
const param = (packet: Uint8Array, id: number): string | undefined => {
  const c = decodeCommand(packet);
  const p = decodeParams(c.blocks, c.id).find((x) => x.id === id);
  return p ? Buffer.from(p.value).toString('latin1') : undefined;
};
const PANMASK = 0x23;

describe('GCX against the §3.7.1 examples', () => {
  it(`example 1 request: ${ex.GCX1.source}`, () => {
    const mine = card.GCX.encode({
      amount: 48300,
      date: '130901',
      time: '201847',
      acquirer: '08',
      contactless: false,
      emvData: bytes('9F3303E0F8C8'),
      tags: ['5F28', '5F24'],
    });
    expect(paramSet(mine, [PANMASK])).toEqual(paramSet(bytes(ex.GCX1.command)));
    expect(param(mine, PANMASK)).toBe('0804');
  });

  it('example 1 answer: a chip card; the PAN the pinpad left open is masked again to first 8 + last 4', () => {
    const r = card.GCX.decode(rsp(ex.GCX1.response), { amount: 0, date: '000101', time: '000000', contactless: false });
    expect(r).toMatchObject({
      cardType: 'chip',
      cardTypeCode: '03',
      maskedPan: '44443333****1111',
      track2: '44443333****1111=1608201',
      panSequenceNumber: '01',
      aidTables: [{ acquirer: '08', index: '03', applicationType: '01' }],
      cardholderName: 'JOHN DOE',
      expiry: '1608',
      issuerCountry: '0076',
    });
    expect(hexOf(r.emvData!)).toBe('5F280200765F2403160831');
    expect(JSON.stringify(r)).not.toContain('4444333322221111');
  });

  it(`example 2 request: ${ex.GCX2.source}`, () => {
    const mine = card.GCX.encode({
      amount: 112800,
      cashback: 12800,
      date: '140725',
      time: '082559',
      contactless: true,
      aidList: ['0101', '0205', '0308', '2504'],
      timeoutS: 42,
      message: 'POR FAVOR AMIGO, USE SEU CARTÃO COMO QUISER!',
    });
    expect(paramSet(mine, [PANMASK])).toEqual(paramSet(bytes(ex.GCX2.command)));
  });

  it('example 2 answer: a contactless chip card two networks can process', () => {
    const r = card.GCX.decode(rsp(ex.GCX2.response), { amount: 0, date: '000101', time: '000000', contactless: true });
    expect(r).toMatchObject({
      cardType: 'contactless-chip',
      maskedPan: '50098237*****8002',
      label: 'PAYPASS',
      aidTables: [
        { acquirer: '02', index: '05', applicationType: '03' },
        { acquirer: '25', index: '04', applicationType: '03' },
      ],
      issuerCountry: '840',
    });
  });

  it('refund: SPE_TRNTYPE 20h; sale: 00h', () => {
    const base = { amount: 100, date: '261122', time: '101010', contactless: true } as const;
    expect(param(card.GCX.encode({ ...base, transactionType: 'refund' }), 0x21)).toBe('\x20');
    expect(param(card.GCX.encode({ ...base, transactionType: 'purchase' }), 0x21)).toBe('\x00');
  });

  it('refuses bad arguments with PINPAD_INVALID_ARGUMENT naming the field', () => {
    const base = { amount: 100, date: '261122', time: '101010', contactless: true } as const;
    expect(() => card.GCX.encode({ ...base, date: '2611' })).toThrow(/SPE_TRNDATE/);
    expect(() => card.GCX.encode({ ...base, amount: -1 })).toThrow(/SPE_AMOUNT/);
    expect(() => card.GCX.encode({ ...base, acquirer: '3' })).toThrow(/SPE_ACQREF/);
    expect(() => card.GCX.encode({ ...base, applicationTypes: Array(11).fill('01') })).toThrow(/SPE_APPTYPE/);
  });
});

describe('GOX and FCX against the §3.7.3 and §3.7.4 examples', () => {
  const gox = {
    acquirer: '08',
    amount: 23450,
    cashback: 10000,
    pinKeyIndex: 7,
    message: 'CRÉDITO\nR$ 234,50\nDIGITE SUA SENHA',
    // The example's text says R$ 25,00 for the threshold; its bytes carry 00000019h (25).
    risk: { floorLimit: 10000, targetPercent: 20, threshold: 25, maxTargetPercent: 80 },
    tags: ['95', '9F26', '9F27', '9F10', '9F34', '9F36'],
  };
  it(`request: ${ex.GOX.source}`, () => {
    const mine = card.GOX.encode(gox);
    expect(paramSet(mine, [0x18])).toEqual(paramSet(bytes(ex.GOX.command)));
    expect(param(mine, 0x18)).toBe('01000'); // no offline approval
    expect(param(mine, 0x02)).toBe('3'); // DUKPT:TDES:PIN
  });

  it('answer: go online, PIN for online verification with its DUKPT KSN', () => {
    const r = card.GOX.decode(rsp(ex.GOX.response), gox);
    expect(r).toMatchObject({
      decision: 'online',
      pin: 'online',
      signature: false,
      result: '202000',
      pinBlock: { block: 'B9DF0A996EA6CCB7', ksn: 'FFFFF798410034400008' },
    });
    expect(r.emvData).toHaveLength(0x30);
  });

  it('an online PIN without its block is a protocol error', () => {
    const broken = Buffer.from(`GOX000010`, 'latin1');
    const data = Buffer.concat([broken, Buffer.from('805600063230323030', 'hex').subarray(0, 10)]);
    expect(() => card.GOX.decode(decodeResponse(data), gox)).toThrow(PinpadError);
  });

  it(`FCX request, byte for byte: ${ex.FCX.source}`, () => {
    const emv = decodeParams(decodeCommand(bytes(ex.FCX.command)).blocks, 'FCX').find((p) => p.id === 5)!.value;
    const mine = card.FCX.encode({
      outcome: 'approved',
      arc: 'Y3',
      emvData: emv,
      tags: ['95', '9F26', '9F27', '9F10'],
    });
    expect(hexOf(mine)).toBe(ex.FCX.command);
  });

  it('FCX answer: the card approves, issuer script results come back (the example answers with id 8056h, read as PP_FCXRES)', () => {
    const r = card.FCX.decode(rsp(ex.FCX.response), { outcome: 'approved', arc: 'Y3' });
    expect(r.decision).toBe('approved');
    expect(hexOf(r.issuerScriptResults!)).toBe('2000000000');
    expect(r.emvData).toHaveLength(0x23);
  });

  it('FCX "no communication" sends FCXOPT 2000 and no ARC; an answer needs an ARC', () => {
    const mine = card.FCX.encode({ outcome: 'no-communication' });
    expect(param(mine, 0x19)).toBe('2000');
    expect(param(mine, 0x1c)).toBeUndefined();
    expect(param(card.FCX.encode({ outcome: 'declined', arc: '05' }), 0x19)).toBe('1000');
    expect(() => card.FCX.encode({ outcome: 'approved' })).toThrow(/SPE_ARC/);
  });
});

describe('GPN, GTK, EBX, CEX, MNU, RMC against the §3.3 examples', () => {
  it(`GPN layout reads the example request: ${ex.GPN.source}`, () => {
    const c = decodeCommand(bytes(ex.GPN.command));
    const f = decodeLayout(CARD_LAYOUTS.GPN_REQUEST, c.blocks[0]!, 'GPN');
    expect(f).toMatchObject({
      GPN_METHOD: '1',
      GPN_KEYIDX: '08',
      GPN_PANLEN: '16',
      GPN_PAN: '4444333322221111',
      GPN_ENTRIES: '1',
      GPN_MIN1: '04',
      GPN_MAX1: '12',
    });
  });

  it('GPN as we send it: method 3, an empty PAN (the pinpad uses the one it holds), 93 bytes', () => {
    const mine = card.GPN.encode({ keyIndex: 1, message: ['VALOR R$ 10,00', 'SENHA:'] });
    const f = decodeLayout(CARD_LAYOUTS.GPN_REQUEST, decodeCommand(mine).blocks[0]!, 'GPN');
    expect(Buffer.from(mine.subarray(0, 6)).toString('latin1')).toBe('GPN093');
    expect(f).toMatchObject({
      GPN_METHOD: '3',
      GPN_KEYIDX: '01',
      GPN_PANLEN: '00',
      GPN_PAN: '',
      GPN_MIN1: '04',
      GPN_MAX1: '12',
    });
    expect(() => card.GPN.encode({ keyIndex: 1, minDigits: 3, message: 'x' })).toThrow(/4\.\.12/);
  });

  it('GPN answer: PIN block and KSN', () => {
    expect(card.GPN.decode(rsp(ex.GPN.response), { keyIndex: 8, message: '' })).toEqual({
      block: 'BB6BE28FDF3522E9',
      ksn: '00000000000000000000',
    });
  });

  it(`GTK method 51 request carries the example's TRACKS, IV and KEYIDX encodings: ${ex.GTK2.source}`, () => {
    const specIv = decodeParams(decodeCommand(bytes(ex.GTK2.command)).blocks, 'GTK').find((p) => p.id === 0x1d)!.value;
    const mine = card.GTK.encode({ keyIndex: 7, iv: specIv });
    const spec = paramSet(bytes(ex.GTK2.command));
    for (const id of ['0007', '001d', '0009'])
      expect(paramSet(mine).find((p) => p.startsWith(id))).toBe(spec.find((p) => p.startsWith(id)));
    expect(param(mine, 0x03)).toBe('51');
    expect(param(mine, 0x08)).toBeUndefined(); // no open digits
  });

  it('GTK answer without KSNs (MK/WK, example 2) or with open digits (example 1) is refused: we ask DUKPT, whole blocks', () => {
    expect(() => card.GTK.decode(rsp(ex.GTK2.response), { keyIndex: 7, iv: new Uint8Array(8) })).toThrow(
      /PP_ENCPAN of 10 bytes is not whole 8-byte blocks/,
    );
    expect(() => card.GTK.decode(rsp(ex.GTK1.response), { keyIndex: 12, iv: new Uint8Array(8) })).toThrow(
      /whole 8-byte blocks/,
    );
  });

  it('GTK answer: track 2 ciphertext (48 hex digits for a 37-digit track), its KSN and the IV, in hex', () => {
    const iv = bytes('0102030405060708');
    const ct = bytes('00112233445566778899AABBCCDDEEFF0011223344556677'); // 24 bytes = 48 hex digits for a 37-digit track
    const ksn = bytes('FFFFF030331234600001');
    const data = Buffer.concat([Buffer.from('GTK000042', 'latin1'), bytes('80450018'), ct, bytes('8048000A'), ksn]);
    const r = card.GTK.decode(decodeResponse(data), { keyIndex: 2, iv });
    // The host's TrackTwoData + EncryptedCardData are the backend's (test/unit/acquirer/omni/sale.test.ts).
    expect(r).toEqual({
      iv: '0102030405060708',
      track2: { data: '00112233445566778899AABBCCDDEEFF0011223344556677', ksn: 'FFFFF030331234600001' },
    });
    expect(r.track2!.data).toHaveLength(48);
  });

  it(`EBX: ${ex.EBX.source}`, () => {
    const specDataIn = decodeParams(decodeCommand(bytes(ex.EBX.command)).blocks, 'EBX').find(
      (p) => p.id === 0x0f,
    )!.value;
    const mine = card.EBX.encode({ data: specDataIn, keyIndex: 7, iv: new Uint8Array(8) });
    expect(paramSet(mine, [0x1d])).toEqual(paramSet(bytes(ex.EBX.command)));
    const r = card.EBX.decode(rsp(ex.EBX.response), { data: specDataIn, keyIndex: 7, iv: new Uint8Array(8) });
    expect(r.ksn).toBe('FFFFF12345008880' + '06C3');
    expect(r.iv).toBe('0000000000000000');
    expect(r.data).toBe('0F770C3A6CAFCA695D00501441827BA52C218148C35C94D1');
    expect(() => card.EBX.encode({ data: new Uint8Array(7), keyIndex: 7, iv: new Uint8Array(8) })).toThrow(
      /multiple of 8/,
    );
  });

  it('a typed number is packed like a PAN (§5.4.2.2): digits as nibbles, F filler', () => {
    expect(hexOf(card.typedPanBlock('4761730000000060'))).toBe('4761730000000060');
    expect(hexOf(card.typedPanBlock('5413330000000050123'))).toBe('5413330000000050123FFFFFFFFFFFFF');
    expect(() => card.typedPanBlock('12345')).toThrow(PinpadError);
  });

  it(`CEX: ${ex.CEX.source}`, () => {
    expect(paramSet(card.CEX.encode({ stripe: true }), [PANMASK])).toEqual(paramSet(bytes(ex.CEX.command)));
    expect(card.CEX.decode(rsp(ex.CEX.response), { stripe: true })).toEqual({
      code: '90',
      event: 'stripe',
      track2: '43130329****0011=1508601',
    });
  });

  it(`MNU, byte for byte: ${ex.MNU.source}`, () => {
    const mine = card.MNU.encode({
      timeoutS: 30,
      options: ['5.Chamado Técnico', '1.Consultas', '3.Ajuda', 'Voltar!!'],
      title: 'Selecione, por favor:',
    });
    expect(hexOf(mine)).toBe(ex.MNU.command);
    expect(card.MNU.decode(rsp(ex.MNU.response), { options: ['a', 'b', 'c', 'd'] })).toBe(2);
    expect(() => card.MNU.decode(rsp(ex.MNU.response), { options: ['a'] })).toThrow(/not offered/);
  });

  it(`RMC, byte for byte: ${ex.RMC.source}`, () => {
    expect(hexOf(card.RMC.encode(['    OPERAÇÃO', '   FINALIZADA']))).toBe(ex.RMC.command);
  });
});

describe('tables and multimedia against the §3.5 and §3.4 examples', () => {
  it(`TLI and TLE, byte for byte: ${ex.TLI.source}`, () => {
    expect(hexOf(card.TLI.encode({ acquirer: '00', version: 'TABVER0008' }))).toBe(ex.TLI.command);
    expect(hexOf(card.TLE.encode())).toBe(ex.TLE.command);
  });

  it(`TLR reproduces the §3.5.3 examples from their blocks`, () => {
    for (const c of records.tlr.commands)
      expect(Buffer.from(card.TLR.encode({ data: c.slice(6) })).toString('latin1')).toBe(c);
  });

  it('TLR carries the three §4.1.1 example AID records (340, 314, 284 characters) in one block', () => {
    const recs = [records.aid340.record, records.aid314.record, ex.aid284.record];
    const packet = Buffer.from(card.TLR.encode({ records: recs })).toString('latin1');
    expect(packet).toBe(`TLR${String(2 + 340 + 314 + 284).padStart(3, '0')}03${recs.join('')}`);
    expect(() => card.TLR.encode({ records: [records.aid340.record.slice(1)] })).toThrow(/TAB_LEN/);
    expect(() =>
      card.TLR.encode({ records: [records.aid340.record, records.aid340.record, records.aid340.record] }),
    ).toThrow(/exceed 999/);
  });

  it(`MLI and DSI, byte for byte: ${ex.MLI.source}`, () => {
    expect(hexOf(card.MLI.encode({ name: 'QRCODE01', type: 'png', size: 3334, crc: 0xf211 }))).toBe(ex.MLI.command);
    expect(hexOf(card.DSI.encode('QRCODE01'))).toBe(ex.DSI.command);
    expect(Buffer.from(card.MLE.encode()).toString('latin1')).toBe('MLE');
    const mlr = decodeCommand(card.MLR.encode(new Uint8Array(1500).fill(0x41)));
    const pieces = decodeParams(mlr.blocks, 'MLR');
    expect(pieces.map((p) => [p.id, p.value.length])).toEqual([
      [0x0f, 995],
      [0x0f, 505],
    ]); // SPE_DATAIN of at most 995 bytes
    expect(mlr.blocks.every((b) => b.length <= 999)).toBe(true);
    expect(() => card.DSI.encode('QR CODE')).toThrow(/SPE_MFNAME/);
  });
});

describe('§5.4.1 incomplete tracks and PAN masking (the specification examples)', () => {
  it.each([
    ['66733246732413=1512601234879534275432', 'track2', 99, 99, '66733246732413=1512601'],
    ['B9994444333322221111^NOME^1512601234879', 'track1', 99, 99, 'B9994444333322221111^NOME^1512601'],
    ['667332467324131512601234879534275432', 'track2', 99, 99, '6673324673241315126'],
    ['B3764 329710 01006^JOE^2108100265123756', 'track1', 6, 4, 'B3764 32**** *1006^JOE^2108100'],
    ['4444333322221111=2212601019923625524', 'track2', 7, 0, '4444333*********=2212601'],
    ['A756325325535^PROPRIETARYFORMAT=6562532', 'track1', 0, 5, 'A*******25535^PROPR'],
  ])('%s (%s, mask %i/%i)', (track, kind, left, right, want) => {
    const inc = kind === 'track1' ? card.incompleteTrack1(track) : card.incompleteTrack2(track);
    expect(card.maskPanField(inc, left, right)).toBe(want);
  });
});

it('paramValue names every PP_ datum the card commands read', () => {
  for (const name of [
    'PP_CARDTYPE',
    'PP_ICCSTAT',
    'PP_AIDTABINFO',
    'PP_PAN',
    'PP_GOXRES',
    'PP_FCXRES',
    'PP_ISRESULTS',
    'PP_ENCPAN',
    'PP_TRACK2',
    'PP_TRK2KSN',
    'PP_DATAOUT',
    'PP_EVENT',
    'PP_DEVTYPE',
  ]) {
    const found = [
      0x804f, 0x8050, 0x8051, 0x8052, 0x8056, 0x8058, 0x8059, 0x804a, 0x8045, 0x8048, 0x804e, 0x8040, 0x8060,
    ].map((id) => paramValue({ id, value: new Uint8Array() }).name);
    expect(found).toContain(name);
  }
});
