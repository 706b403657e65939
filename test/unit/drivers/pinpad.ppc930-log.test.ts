import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FrameDecoder,
  GIX,
  packetCrc,
  OPN_SECURE,
  card,
  checkResponse,
  decodeParams,
  decodeResponse,
  encodeFrame,
  infoFromGix,
  paramValue,
  type Response,
} from '../../../drivers/pinpad/index.js';

/**
 * The answers of a real Gertec PPC930 (PP_SPECVER "2.12") to a production client, from the public
 * capture `transcao_completa_com_scope.txt` of guilhermecabral05/abecs-rust, decoded by the driver.
 * Each case names its lines in the capture. test/vectors/pinpad/ppc930-log.json holds the packets.
 */
interface LogPacket {
  lines: string;
  at: string;
  from: 'terminal' | 'pinpad';
  id: string;
  hex: string;
}
const LOG = JSON.parse(readFileSync(new URL('../../vectors/pinpad/ppc930-log.json', import.meta.url), 'utf8')) as {
  packets: LogPacket[];
};
const at = (lines: string): LogPacket => {
  const p = LOG.packets.find((x) => x.lines === lines);
  if (!p) throw new Error(`no packet at lines ${lines}`);
  return p;
};

/**
 * PKTDATA of a captured packet: between SYN and ETB. The capture shows packets before escaping
 * (lines 96-97 carry id 8013h with a bare 13h, lines 227-231 ids 0016h and 0017h with bare 16h and
 * 17h), and leaves out the CRC of the pinpad's answers but one (OPN).
 */
function pktdata(p: LogPacket): Uint8Array {
  const raw = Buffer.from(p.hex, 'hex');
  const etb = raw[raw.length - 1] === 0x17 ? raw.length - 1 : raw.length - 3;
  return Uint8Array.from(raw.subarray(1, etb));
}
const answer = (lines: string): Response => {
  const rsp = decodeResponse(pktdata(at(lines)));
  checkResponse(rsp.id, rsp);
  return rsp;
};
const hex = (b: Uint8Array | undefined): string =>
  Buffer.from(b ?? [])
    .toString('hex')
    .toUpperCase();

describe('a real PPC930 capture, decoded by the driver', () => {
  it("every terminal packet's CRC, which the PPC930 ACKed, is the driver's CRC of its data (§7.2); without bytes to escape, the driver's packet is the same", () => {
    const sent = LOG.packets.filter((p) => p.from === 'terminal');
    expect(sent.length).toBeGreaterThan(20);
    let same = 0;
    for (const p of sent) {
      const raw = Buffer.from(p.hex, 'hex');
      const data = pktdata(p);
      expect(raw[raw.length - 3], `lines ${p.lines}`).toBe(0x17);
      expect(raw.readUInt16BE(raw.length - 2), `lines ${p.lines}`).toBe(packetCrc(data));
      if (!data.some((b) => b === 0x13 || b === 0x16 || b === 0x17)) {
        expect(hex(encodeFrame(data)), `lines ${p.lines}`).toBe(p.hex);
        expect(
          new FrameDecoder().push(raw).map((e) => e.type),
          `lines ${p.lines}`,
        ).toEqual(['frame']);
        same++;
      }
    }
    expect(same).toBeGreaterThan(20);
  });

  it('GIX with a list, lines 148-149: the driver encodes the same bytes, CRC F7 9C included', () => {
    const ids = [0x9001, 0x9101, 0x9105, 0x9300, 0x9304, 0x9306];
    expect(hex(encodeFrame(GIX.encode(ids)))).toBe(at('148-149').hex);
  });

  it('secure OPN answer, lines 41-73 (3 s after the command, line 18): CRC C1 D0 good, CRKSEC of 256 bytes', () => {
    const events = new FrameDecoder().push(Buffer.from(at('41-73').hex, 'hex'));
    expect(events).toHaveLength(1);
    const frame = events[0]!;
    if (frame.type !== 'frame') throw new Error('not a frame');
    const rsp = decodeResponse(frame.data);
    checkResponse('OPN', rsp);
    const r = OPN_SECURE.decode(rsp, { modulus: new Uint8Array(256), publicExponent: Uint8Array.of(1, 0, 1) });
    expect(r.kind).toBe('abecs');
    expect(r.kind === 'abecs' && r.cryptogram.length).toBe(256);
    expect(r.kind === 'abecs' && hex(r.cryptogram.subarray(0, 4))).toBe('240C9D98');
  });

  it('GIX without a list, lines 82-145 (8 s after the command, line 76; the capture cut it at 1024 bytes): the first block gives the pinpad', () => {
    const data = pktdata(at('82-145'));
    expect(Buffer.from(data.subarray(0, 9)).toString('latin1')).toBe('GIX000930');
    const rsp = decodeResponse(data.subarray(0, 9 + 930)); // the first block, whole
    const entries = decodeParams(rsp.blocks, 'GIX').map(paramValue);
    const info = infoFromGix({ data: Object.fromEntries(entries.map((e) => [e.name, e.value])), entries });
    expect(info).toMatchObject({
      serialNumber: '7200032211005539',
      manufacturer: 'GERTEC',
      specVersion: '2.12',
      contactless: true,
    });
    expect(info.model).toBe('PPC-930;192MB');
    expect(info.keys.dukptPin['01']).toBe('present');
    expect(info.keys.dukptPin['02']).toBe('present');
  });

  it('GIX with a list, lines 155-159: KSN of DUKPT slot 01 and the table versions, ids in the order the pinpad chose', () => {
    const r = GIX.decode(answer('155-159'), [0x9001, 0x9101, 0x9105, 0x9300, 0x9304, 0x9306]);
    // asked 9001, 9101, 9105, 9300, 9304, 9306; a 2.12 pinpad answers only what it has (no 9001, no 9105)
    expect(r.entries.map((e) => e.name)).toEqual(['PP_KSNTDESP01', 'PP_TABVER00', 'PP_TABVER04', 'PP_TABVER06']);
    expect(hex(r.data.PP_KSNTDESP01 as Uint8Array)).toBe('FFFFF08034F43DE00011');
    expect(r.data.PP_TABVER00).toBe('1807202408');
    expect(infoFromGix(r).dukptPinKsn).toEqual({ '01': 'FFFFF08034F43DE00011' });
  });

  it('GIX lines 168-169 and 280-281: PP_TABVER00, and the KSN of slot 02', () => {
    expect(GIX.decode(answer('168-169'), [0x9300]).data).toEqual({ PP_TABVER00: '1807202408' });
    expect(hex(GIX.decode(answer('280-281'), [0x9102]).data.PP_KSNTDESP02 as Uint8Array)).toBe('FFFFF00423F51FE0013A');
  });

  it('CEX, lines 192-193 (15 s: the customer): PP_EVENT 94, a contactless card', () => {
    expect(card.CEX.decode(answer('192-193'), {})).toEqual({ code: '94', event: 'ctls-detected' });
  });

  it('NTM, lines 237-239: a notification during GCX, "SELECIONADO: CREDITO"', () => {
    const rsp = answer('237-239');
    expect(rsp.id).toBe('NTM');
    expect(Buffer.from(rsp.blocks[0]!).toString('latin1')).toBe('SELECIONADO:    CREDITO         ');
  });

  it('GCX, lines 242-249: a contactless EMV card (PP_CARDTYPE 06), its AID record, label, country, expiry (PAN and track masked "M" by the capture)', () => {
    const r = card.GCX.decode(answer('242-249'), { contactless: true } as card.GcxRequest);
    expect(r).toMatchObject({
      cardType: 'contactless-chip',
      cardTypeCode: '06',
      aidTables: [{ acquirer: '02', index: '01', applicationType: '01' }],
      panSequenceNumber: '00',
      expiry: '3107',
      label: 'CREDITO',
      issuerCountry: '076',
      deviceType: '00',
    });
  });

  it('GOX, lines 339-349: online requested (PP_GOXRES 200000), no PIN; the TLV the host gets', () => {
    const r = card.GOX.decode(answer('339-349'), {} as card.GoxRequest);
    expect(r).toMatchObject({ decision: 'online', pin: 'none', result: '200000' });
    expect(hex(r.emvData).startsWith('9F2608A94958501BC710A29F270180')).toBe(true);
  });

  it('FCX, lines 413-423 (1 s): approved by the card (PP_FCXRES 000, id 8058h), the same cryptogram back', () => {
    const r = card.FCX.decode(answer('413-423'), { outcome: 'approved', arc: '00' });
    expect(r).toMatchObject({ decision: 'approved', result: '000' });
    expect(hex(r.emvData).startsWith('9F2608A94958501BC710A29F270180')).toBe(true);
  });
});
