import { describe, expect, it } from 'vitest';
import { crc16 } from '../../../../drivers/pinpad/crc.js';
import { encodeFrame, packetCrc, wireLength } from '../../../../drivers/pinpad/frame.js';
import { FrameDecoder } from '../../../../drivers/pinpad/decoder.js';
import { isPinpadError } from '../../../../drivers/pinpad/errors.js';

const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const toHex = (u: Uint8Array): string => Buffer.from(u).toString('hex').toUpperCase();

/** Packets published in ABECS 2.20 (guilhermecabral05/abecs-rust protocolo_abecs_2_20.md), section named per row. */
const PUBLISHED: { where: string; data: Uint8Array; wire: string }[] = [
  { where: '§2.2.2.1 example: OPN with the right CRC', data: Buffer.from('OPN'), wire: '16 4F 50 4E 17 A8 A9' },
  { where: '§2.2.2.2 example: DSP000 response', data: Buffer.from('DSP000'), wire: '16 44 53 50 30 30 30 17 39 63' },
  {
    where: '§2.2.2.2 example: DSP032 "    OPERAÇÃO       FINALIZADA   " (Latin-1), CRC 52 13 sent raw',
    data: Buffer.from('DSP032    OPERAÇÃO       FINALIZADA   ', 'latin1'),
    wire: '16 44 53 50 30 33 32 20 20 20 20 4F 50 45 52 41 C7 C3 4F 20 20 20 20 20 20 20 46 49 4E 41 4C 49 5A 41 44 41 20 20 20 17 52 13',
  },
  {
    where: '§2.2.2.3 example: GCD016 with binary PARID/PARLEN (timeout 60 s, max 10 digits, message 9)',
    data: hex('474344 303136 000C00013C 000E00010A 000B00020009'),
    wire: '16 47 43 44 30 31 36 00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09 17 C1 42',
  },
];

describe('CRC-16 (ABECS 2.20 §7.2: poly 1021h, init 0)', () => {
  it('gives the published CRCs (OPN+ETB = A8A9, DSP000+ETB = 3963)', () => {
    expect(crc16(Buffer.from('OPN\x17', 'latin1'))).toBe(0xa8a9);
    expect(crc16(Buffer.from('DSP000\x17', 'latin1'))).toBe(0x3963);
  });
  it('matches the CRC-16/XMODEM check value (same parameters; published in the CRC catalogue: check("123456789") = 31C3)', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x31c3);
  });
});

describe('encodeFrame', () => {
  for (const row of PUBLISHED) {
    it(`encodes ${row.where}`, () => {
      expect(toHex(encodeFrame(row.data))).toBe(row.wire.replace(/\s+/g, ''));
      expect(wireLength(row.data)).toBe(hex(row.wire).length);
    });
  }
  it('escapes DC3, SYN and ETB in the data as DC3 33h/36h/37h (§2.2.1) and computes the CRC over the unescaped data', () => {
    const data = Uint8Array.of(0x41, 0x13, 0x16, 0x17, 0x42);
    const crc = packetCrc(data);
    expect(toHex(encodeFrame(data))).toBe(
      `1641133313361337421${'7'}${crc.toString(16).toUpperCase().padStart(4, '0')}`,
    );
  });
  it('refuses empty and oversized packets with a typed error', () => {
    for (const n of [0, 2050]) {
      try {
        encodeFrame(new Uint8Array(n));
        expect.unreachable();
      } catch (e) {
        expect(isPinpadError(e, 'PINPAD_INVALID_ARGUMENT')).toBe(true);
      }
    }
    expect(encodeFrame(new Uint8Array(2049).fill(0x41)).length).toBe(2053);
  });
});

describe('FrameDecoder', () => {
  it('decodes each published packet back to its data', () => {
    for (const row of PUBLISHED) {
      expect(new FrameDecoder().push(hex(row.wire))).toEqual([{ type: 'frame', data: Uint8Array.from(row.data) }]);
    }
  });
  it('reports the §2.2.2.2 packet with CRC FF FF as a bad packet, then takes the retransmission', () => {
    const d = new FrameDecoder();
    expect(d.push(hex('16 44 53 50 30 30 30 17 FF FF'))).toEqual([{ type: 'bad-frame', reason: 'crc', length: 10 }]);
    expect(d.push(hex('16 44 53 50 30 30 30 17 39 63'))).toEqual([
      { type: 'frame', data: Uint8Array.from(Buffer.from('DSP000')) },
    ]);
  });
  it('handles a packet split byte by byte and several packets joined in one chunk', () => {
    const wire = hex(PUBLISHED[3]!.wire);
    const d = new FrameDecoder();
    const events = [...wire].flatMap((b) => d.push(Uint8Array.of(b)));
    expect(events).toEqual([{ type: 'frame', data: Uint8Array.from(PUBLISHED[3]!.data) }]);
    const joined = Buffer.concat([hex(PUBLISHED[0]!.wire), Uint8Array.of(0x06), hex(PUBLISHED[1]!.wire)]);
    expect(new FrameDecoder().push(joined).map((e) => e.type)).toEqual(['frame', 'control', 'frame']);
  });
  it('reads ACK, NAK, EOT and CAN outside packets, and the same bytes as data inside one', () => {
    expect(new FrameDecoder().push(Uint8Array.of(0x06, 0x15, 0x04, 0x18))).toEqual([
      { type: 'control', byte: 0x06 },
      { type: 'control', byte: 0x15 },
      { type: 'control', byte: 0x04 },
      { type: 'control', byte: 0x18 },
    ]);
    const data = Uint8Array.of(0x06, 0x15, 0x04, 0x18, 0x13, 0x16, 0x17);
    expect(new FrameDecoder().push(encodeFrame(data))).toEqual([{ type: 'frame', data }]);
  });
  it('resynchronises on garbage and reports the discarded bytes by count', () => {
    const garbage = hex('00 41 FF 17 20');
    const d = new FrameDecoder();
    expect(d.push(Buffer.concat([garbage, hex(PUBLISHED[0]!.wire), hex('7E 7E')]))).toEqual([
      { type: 'discarded', count: 5 },
      { type: 'frame', data: Uint8Array.from(Buffer.from('OPN')) },
      { type: 'discarded', count: 2 },
    ]);
  });
  it('reports a packet cut short by a new SYN and decodes the new one', () => {
    const d = new FrameDecoder();
    expect(d.push(Buffer.concat([hex('16 44 53 50 30'), hex(PUBLISHED[0]!.wire)]))).toEqual([
      { type: 'bad-frame', reason: 'truncated', length: 5 },
      { type: 'frame', data: Uint8Array.from(Buffer.from('OPN')) },
    ]);
  });
  it('reports a bad escape and an oversized packet', () => {
    expect(new FrameDecoder().push(hex('16 41 13 05'))).toEqual([{ type: 'bad-frame', reason: 'escape', length: 4 }]);
    const long = new Uint8Array(2100).fill(0x41);
    long[0] = 0x16;
    const events = new FrameDecoder().push(long);
    expect(events[0]).toEqual({ type: 'bad-frame', reason: 'too-long', length: 2051 });
  });
  it('reset() drops a partial packet and tells its length', () => {
    const d = new FrameDecoder();
    d.push(hex('16 44 53'));
    expect(d.inFrame).toBe(true);
    expect(d.reset()).toBe(3);
    expect(d.push(hex('50 30 30 30 17 39 63'))).toEqual([{ type: 'discarded', count: 7 }]);
  });
});
