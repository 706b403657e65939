import { describe, expect, it } from 'vitest';
import { PPC930_MS, timingFor } from '../../../../src/sim/pinpad/timing.js';
import { onTheWire, PPC930_COMMANDS, pktdata } from '../../../helpers/ppc930-commands.js';

const cmd = (text: string, extra = 0): Uint8Array =>
  Uint8Array.from(Buffer.concat([Buffer.from(text, 'latin1'), Buffer.alloc(extra, 0x30)]));

describe('processing-time profiles of the virtual pinpad', () => {
  it('fast (the default) takes no time for anything', () => {
    for (const id of ['OPN', 'GIX', 'GCX', 'TLR', 'MLR'])
      expect(timingFor(undefined).processingMs(id, cmd(id))).toBe(0);
  });

  it('ppc930 follows the public log (transcao_completa_com_scope.txt): secure OPN 3 s, GIX without a list 8 s, with one well under 1 s', () => {
    const t = timingFor('ppc930');
    expect(t.processingMs('OPN', cmd('OPN523', 523))).toBe(3000); // 17:36:18 -> 17:36:21
    expect(t.processingMs('OPN', cmd('OPN'))).toBeLessThan(1000);
    expect(t.processingMs('GIX', pktdata(PPC930_COMMANDS.GIX_ALL))).toBe(8000); // 17:36:21 -> 17:36:29
    expect(t.processingMs('GIX', pktdata(PPC930_COMMANDS.GIX_LIST))).toBeLessThan(1000); // 17:36:29 -> 17:36:29
    expect(t.processingMs('GOX', pktdata(PPC930_COMMANDS.GOX))).toBe(2000); // 17:36:53 -> 17:36:55
    expect(t.processingMs('FCX', pktdata(PPC930_COMMANDS.FCX))).toBe(1000); // 17:36:57 -> 17:36:58
    expect(onTheWire(PPC930_COMMANDS.GIX_ALL).length).toBe(10);
  });

  it('ppc930 table and media loads grow with their size (estimates: not in the log)', () => {
    const t = timingFor('ppc930');
    const small = t.processingMs('TLR', cmd('TLR100', 100));
    const big = t.processingMs('TLR', cmd('TLR999', 999));
    expect(big).toBeGreaterThan(small);
    expect(big - small).toBe(Math.round(PPC930_MS.TLR_PER_BYTE * 899));
    expect(t.processingMs('MLR', cmd('MLR999', 999))).toBeGreaterThan(t.processingMs('MLR', cmd('MLR010', 10)));
  });
});

describe('a timing profile at a scale', () => {
  it("keeps the PPC930's proportions at a tenth of its times; 1 is the real profile itself", () => {
    const tenth = timingFor('ppc930', 0.1);
    expect(tenth.name).toBe('ppc930');
    expect(tenth.processingMs('OPN', cmd('OPN523', 523))).toBe(300);
    expect(tenth.processingMs('GIX', pktdata(PPC930_COMMANDS.GIX_ALL))).toBe(800);
    expect(tenth.processingMs('GOX', pktdata(PPC930_COMMANDS.GOX))).toBe(200);
    expect(timingFor('ppc930', 1)).toBe(timingFor('ppc930'));
    expect(timingFor('fast', 0.1).processingMs('OPN', cmd('OPN523', 523))).toBe(0);
  });

  it('refuses a scale outside 0.01 to 10', () => {
    for (const s of [0, -1, 0.001, 11, Number.NaN]) expect(() => timingFor('ppc930', s), String(s)).toThrow(RangeError);
  });
});
