import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GIX, card, checkResponse, decodeResponse, type Response } from '../../../drivers/pinpad/index.js';

/**
 * A 2.12 pinpad's answers keep working (the PPC930 of transcao_completa_com_scope.txt reports
 * PP_SPECVER "2.12"): ids this version does not know, ids in another order, PP_FCXRES under either id.
 * The answers start from the capture's (lines cited) and are changed only where the case says.
 */
const LOG = JSON.parse(readFileSync(new URL('../../vectors/pinpad/ppc930-log.json', import.meta.url), 'utf8')) as {
  packets: { lines: string; hex: string }[];
};
const captured = (lines: string): Buffer => {
  const raw = Buffer.from(LOG.packets.find((p) => p.lines === lines)!.hex, 'hex');
  return raw.subarray(1, raw[raw.length - 1] === 0x17 ? raw.length - 1 : raw.length - 3);
};

/** The parameters of an answer's single block: [id, value]. */
function paramsOf(pkt: Buffer): [number, Buffer][] {
  const block = pkt.subarray(9);
  const out: [number, Buffer][] = [];
  for (let i = 0; i < block.length;) {
    const len = block.readUInt16BE(i + 2);
    out.push([block.readUInt16BE(i), block.subarray(i + 4, i + 4 + len)]);
    i += 4 + len;
  }
  return out;
}
function answer(id: string, params: [number, Buffer][]): Response {
  const block = Buffer.concat(
    params.map(([pid, v]) => Buffer.concat([Buffer.of(pid >> 8, pid & 0xff, v.length >> 8, v.length & 0xff), v])),
  );
  const rsp = decodeResponse(Buffer.concat([Buffer.from(`${id}000${String(block.length).padStart(3, '0')}`), block]));
  checkResponse(id, rsp);
  return rsp;
}

const GCX_REQ = { contactless: true } as card.GcxRequest;

describe('2.12 pinpads', () => {
  const gcx = paramsOf(captured('242-249'));
  const expected = card.GCX.decode(answer('GCX', gcx), GCX_REQ);

  it('ids in another order: the GCX answer reversed decodes the same (the capture already has them out of the table order)', () => {
    expect(gcx.map(([id]) => id.toString(16))).toEqual([
      '8051',
      '805b',
      '8060',
      '804f',
      '8042',
      '8052',
      '8053',
      '805c',
      '805d',
    ]);
    expect(card.GCX.decode(answer('GCX', [...gcx].reverse()), GCX_REQ)).toEqual(expected);
  });

  it('ids this version does not know are skipped: GCX and GIX with 80F0h and 9FFFh among them', () => {
    const unknown: [number, Buffer][] = [
      [0x80f0, Buffer.from('XYZ')],
      [0x9fff, Buffer.of(1, 2, 3, 4)],
    ];
    expect(card.GCX.decode(answer('GCX', [unknown[0]!, ...gcx, unknown[1]!]), GCX_REQ)).toEqual(expected);
    const gix = paramsOf(captured('155-159'));
    const r = GIX.decode(answer('GIX', [unknown[0]!, ...gix, unknown[1]!]), [0x9101]);
    expect(r.data.PP_TABVER00).toBe('1807202408');
    expect(r.entries.map((e) => e.name)).toContain('0x80f0');
  });

  it('PP_FCXRES under 8058h (the capture, lines 413-423) or under 8056h with 3 digits (the §3.7.4 example) means the same', () => {
    const fcx = paramsOf(captured('413-423'));
    expect(fcx[0]).toEqual([0x8058, Buffer.from('000')]);
    const a = card.FCX.decode(answer('FCX', fcx), { outcome: 'approved', arc: '00' });
    const b = card.FCX.decode(answer('FCX', [[0x8056, Buffer.from('000')], ...fcx.slice(1)]), {
      outcome: 'approved',
      arc: '00',
    });
    expect(a).toMatchObject({ decision: 'approved', result: '000' });
    expect(b).toEqual(a);
    const declined = card.FCX.decode(answer('FCX', [[0x8056, Buffer.from('100')], ...fcx.slice(1)]), {
      outcome: 'approved',
      arc: '00',
    });
    expect(declined.decision).toBe('declined');
  });
});
