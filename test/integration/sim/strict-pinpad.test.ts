import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../drivers/pinpad/index.js';
import { onTheWire, PPC930_COMMANDS } from '../../helpers/ppc930-commands.js';
import { rawTerminal, text } from './wire-client.js';
import { useVirtualPinpad } from '../../helpers/virtual-pinpad.js';

/** One parameter (§3.1.3.1): PARID X2, PARLEN X2, value. */
function par(id: number, value: string): Buffer {
  const v = Buffer.from(value, 'latin1');
  return Buffer.concat([Buffer.of(id >> 8, id & 0xff, v.length >> 8, v.length & 0xff), v]);
}
function command(id: string, ...params: Buffer[]): Uint8Array {
  const b = Buffer.concat(params);
  return Uint8Array.from(Buffer.concat([Buffer.from(`${id}${String(b.length).padStart(3, '0')}`, 'latin1'), b]));
}
const gcx = (...extra: Buffer[]) =>
  command('GCX', par(0x15, '251125'), par(0x16, '120000'), par(0x13, '000000001010'), ...extra);

describe('the strict virtual pinpad over real TCP, byte by byte (§6.2, §3.1.3.1)', () => {
  const sim = useVirtualPinpad({ typingMs: null });
  let t: Awaited<ReturnType<typeof rawTerminal>>;
  beforeAll(async () => {
    t = await rawTerminal(sim.port);
  });
  afterAll(() => t.close());

  async function exchange(packet: Uint8Array): Promise<string[]> {
    const from = t.events.length;
    t.send(packet);
    const ack = await t.next(from);
    if (text(ack.e) !== '<control 6>') return [text(ack.e)];
    // NTM notifications (§2.3.3) may come before the answer
    for (let i = from + 1; ; i++) {
      const a = text((await t.next(i)).e);
      if (!a.startsWith('NTM')) return [text(ack.e), a];
    }
  }

  it('SPE_TRNDATE "ABCDEF" is GCX011; a wrong-length SPE_PANMASK is GCX011 with no PAN; "0604" masks PP_PAN', async () => {
    expect(await exchange(encodeFrame(command('GCX', par(0x15, 'ABCDEF'), par(0x16, '120000'))))).toEqual([
      '<control 6>',
      'GCX011',
    ]);
    for (const mask of ['064', '00000', '06A4'])
      expect(await exchange(encodeFrame(gcx(par(0x23, mask)))), mask).toEqual(['<control 6>', 'GCX011']);
    const [, ok] = await exchange(encodeFrame(gcx(par(0x23, '0604'))));
    expect(ok!.slice(0, 6)).toBe('GCX000');
    // PP_PAN: PARID 8052h, PARLEN, the masked number
    const at = ok!.indexOf('\u0080R');
    const len = ok!.charCodeAt(at + 3);
    expect(ok!.slice(at + 4, at + 4 + len)).toMatch(/^\d{6}\*+\d{4}$/);
  });

  it('takes the GCX a production client sent to a real PPC930 (transcao_completa_com_scope.txt line 227), DC3/SYN/ETB escaped', async () => {
    const [ack, answer] = await exchange(onTheWire(PPC930_COMMANDS.GCX));
    expect(ack).toBe('<control 6>');
    // its parameters pass; its SPE_AIDLIST names records 0201/0204 the sim's tables lack: ST_CARDAPPNAV
    expect(answer).toBe('GCX070');
  });

  it('NAKs a bad CRC, a bad escape and a classic packet over 1024 bytes, each no sooner than 500 ms after its last byte', async () => {
    const good = encodeFrame(command('DSP', Buffer.from('OLA'.padEnd(32))));
    const badCrc = Uint8Array.from(good);
    badCrc[badCrc.length - 1]! ^= 0x5a;
    const badEscape = Uint8Array.from([0x16, ...Buffer.from('DSP032'), 0x13, 0x41, 0x17, 0x00, 0x00]);
    const long = encodeFrame(command('DSP', Buffer.alloc(1019, 0x41)));
    for (const packet of [badCrc, badEscape, long]) {
      const from = t.events.length;
      const sent = t.send(packet);
      const nak = await t.next(from);
      expect(text(nak.e)).toBe('<control 21>');
      expect(nak.at - sent).toBeGreaterThanOrEqual(490);
    }
    expect(sim.engine.state.rejected).toMatchObject({ crc: 1, escape: 1, 'too-long': 1 });
    expect(await exchange(good)).toEqual(['<control 6>', 'DSP000']);
  });
});
