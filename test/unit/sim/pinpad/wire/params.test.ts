import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPE_PARAMS } from '../../../../../tables/pinpad/abecs-ids.js';
import { ABECS_COMMAND_PARAMS } from '../../../../../tables/pinpad/command-params.js';
import { parseCommand } from '../../../../../src/sim/pinpad/wire/command.js';
import { faultStatus, isParamFault, readParams, type ParamSet } from '../../../../../src/sim/pinpad/wire/params.js';
import { readLayout } from '../../../../../src/sim/pinpad/wire/layout.js';
import { CLASSIC_LAYOUTS } from '../../../../../tables/pinpad/classic-layouts.js';
import { PPC930_COMMANDS, pktdata } from '../../../../helpers/ppc930-commands.js';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
/** One parameter as §3.1.3.1 lays it out: PARID X2, PARLEN X2, value. */
function par(id: number, value: Uint8Array | string): Uint8Array {
  const v = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  return Uint8Array.from([id >> 8, id & 0xff, v.length >> 8, v.length & 0xff, ...v]);
}
const block = (...ps: Uint8Array[]): Uint8Array => Uint8Array.from(Buffer.concat(ps));
const TRNDATE = 0x15;
const TRNTIME = 0x16;
const PANMASK = 0x23;

function status(id: string, blocks: readonly Uint8Array[]): number {
  const p = readParams(id, blocks);
  return isParamFault(p) ? faultStatus(p) : 0;
}

describe('the virtual pinpad reads Abecs parameters strictly (§3.1.3.1, §6.2.2)', () => {
  it('SPE_TRNDATE "ABCDEF" is ST_INVPARM; a missing SPE_TRNDATE is ST_MANDAT; "251111" passes', () => {
    expect(status('GCX', [block(par(TRNDATE, 'ABCDEF'), par(TRNTIME, '173647'))])).toBe(11);
    expect(status('GCX', [block(par(TRNTIME, '173647'))])).toBe(19);
    expect(status('GCX', [block(par(TRNDATE, '251111'), par(TRNTIME, '173647'))])).toBe(0);
  });

  it('a SPE_PANMASK that is not 4 digits is ST_INVPARM (so it never reaches the masking, and no clear PAN comes back)', () => {
    for (const mask of ['060', '06040', '', '06A4', '06 4']) {
      expect(status('GCX', [block(par(TRNDATE, '251111'), par(TRNTIME, '173647'), par(PANMASK, mask))]), mask).toBe(11);
    }
    expect(status('CEX', [block(par(0x06, '111100'), par(PANMASK, '064'))])).toBe(11);
  });

  it('each format: N digits only, A 20h-7Eh, S 20h-FFh (CR only in SPE_DSPMSG), H hex, X a number, B anything', () => {
    const gcx = (p: Uint8Array) => status('GCX', [block(par(TRNDATE, '251111'), par(TRNTIME, '173647'), p)]);
    expect(gcx(par(0x13, '00000000010 '))).toBe(11); // SPE_AMOUNT N12 with a space
    expect(gcx(par(0x1b, 'PAGUE\rAGORA'))).toBe(0); // SPE_DSPMSG S..128 with CR
    expect(gcx(par(0x1b, 'PAGUE\nAGORA'))).toBe(11);
    expect(gcx(par(0x1b, Buffer.from('AÇÃO', 'latin1')))).toBe(0);
    expect(gcx(par(0x12, 'AB\x7f'))).toBe(11); // SPE_AIDLIST A..512
    expect(gcx(par(0x0c, hex('FF')))).toBe(0); // SPE_TIMEOUT X1
    expect(gcx(par(0x0c, hex('00FF')))).toBe(11);
    expect(gcx(par(0x05, hex('00 17 13 16')))).toBe(0); // SPE_EMVDATA B..512
    expect(gcx(par(0x04, new Uint8Array(129)))).toBe(11); // SPE_TAGLIST B..128
  });

  it('structure: a header cut short or a PARLEN beyond the block or over 995 is ST_INVPARM', () => {
    expect(status('GIX', [hex('00 01 00')])).toBe(11);
    expect(status('GIX', [hex('00 01 00 04 80 01')])).toBe(11);
    expect(status('MLR', [block(hex('00 0F 03 E4'), new Uint8Array(996))])).toBe(11);
    expect(status('MLR', [block(hex('00 0F 03 E3'), new Uint8Array(995))])).toBe(0);
  });

  it('unknown and unforeseen parameters are ignored, even malformed; a repeat keeps the first value, except MNU options', () => {
    const p = readParams('GCX', [
      block(
        par(TRNDATE, '251111'),
        par(TRNTIME, '173647'),
        par(0x7777, 'x'),
        par(0x0b, 'not X2'),
        par(TRNDATE, 'ABCDEF'),
      ),
    ]) as ParamSet;
    expect(isParamFault(p)).toBe(false);
    expect(p.get('SPE_TRNDATE')).toBe('251111');
    const m = readParams('MNU', [block(par(0x20, 'UM'), par(0x20, 'DOIS'))]) as ParamSet;
    expect(m.all('SPE_MNUOPT')).toEqual(['UM', 'DOIS']);
    expect(status('MNU', [block(par(0x1b, 'SÓ TÍTULO'))])).toBe(19);
  });

  it('SPE_MFNAME: the examples\' "QRCODE01" (§3.4.1, §3.4.6) passes; a short name, padding spaces or symbols are ST_INVPARM', () => {
    // §3.4.1 line 5952: MLI026 001E 0008 "QRCODE01" 001F 000A 00000D06 F211 01 000000
    const mli = parseCommand(
      hex('4D 4C 49 30 32 36 00 1E 00 08 51 52 43 4F 44 45 30 31 00 1F 00 0A 00 00 0D 06 F2 11 01 00 00 00'),
    );
    if ('kind' in mli) throw new Error('MLI example does not split');
    const p = readParams('MLI', mli.blocks) as ParamSet;
    expect(p.get('SPE_MFNAME')).toBe('QRCODE01');
    expect(Buffer.from(p.get('SPE_MFINFO') as Uint8Array).readUInt32BE(0)).toBe(3334);
    const dsi = parseCommand(hex('44 53 49 30 31 32 00 1E 00 08 51 52 43 4F 44 45 30 31')); // §3.4.6 line 6749
    if ('kind' in dsi) throw new Error('DSI example does not split');
    expect(status('DSI', dsi.blocks)).toBe(0);
    expect(status('DSI', [par(0x1e, 'NOPE    ')])).toBe(11);
    expect(status('DSI', [par(0x1e, 'NOPE')])).toBe(11); // A8: exactly 8 (§1.3)
    expect(status('DSI', [par(0x1e, 'QR-1')])).toBe(11);
  });

  it("takes every command the production client sent to the PPC930 (transcao_completa_com_scope.txt), the GOX's 8-byte SPE_WKENC included", () => {
    for (const [name, h] of Object.entries(PPC930_COMMANDS)) {
      const c = parseCommand(pktdata(h));
      if ('kind' in c) throw new Error(`${name} does not split`);
      if (c.id === 'DEX')
        expect(readLayout(CLASSIC_LAYOUTS.DEX_REQUEST, c.blocks[0]!, ['DEX_MSG'])).toMatchObject({ DEX_MSGLEN: '067' });
      else expect(status(c.id, c.blocks), name).toBe(0);
    }
    const gox = parseCommand(pktdata(PPC930_COMMANDS.GOX));
    if ('kind' in gox) throw new Error('GOX');
    const p = readParams('GOX', gox.blocks) as ParamSet;
    expect([p.get('SPE_ACQREF'), p.get('SPE_MTHDPIN'), p.get('SPE_KEYIDX'), p.get('SPE_AMOUNT')]).toEqual([
      '02',
      '3',
      '02',
      '000000000001',
    ]);
    expect(() => p.get('SPE_WKENC')).toThrow(/length SPE_WKENC/); // malformed, and refused the moment it is needed
  });
});

/** An independent oracle of §1.3 for one value. */
function fits(format: string, length: number, variable: boolean, v: Uint8Array, cr: boolean): boolean {
  if (variable ? v.length > length : v.length !== length) return false;
  const t = Buffer.from(v).toString('latin1');
  switch (format) {
    case 'N':
      return /^[0-9]*$/.test(t);
    case 'A':
      return /^[\x20-\x7e]*$/.test(t);
    case 'S':
      return cr ? /^[\x20-\xff\r]*$/.test(t) : /^[\x20-\xff]*$/.test(t);
    case 'H':
      return /^[0-9A-Fa-f]*$/.test(t) && v.length % 2 === 0;
    default:
      return true;
  }
}

describe('parameter reader properties (fast-check, 1000 runs)', () => {
  const gcxParams = Object.keys(ABECS_COMMAND_PARAMS.GCX.params).map((n) => SPE_PARAMS.find((p) => p.name === n)!);
  /** A value for a definition: often well-formed, often not. */
  const value = (d: (typeof gcxParams)[number]) =>
    fc.oneof(
      fc.uint8Array({ maxLength: d.length + 2 }),
      fc
        .array(fc.constantFrom(...'0123456789'), { maxLength: 14 })
        .map((a) => a.join(''))
        .map((s) => Uint8Array.from(Buffer.from(s.padStart(d.variable ? 0 : d.length, '0').slice(0, d.length)))),
    );

  it('GCX with any foreseen parameters: refused (ST_INVPARM) exactly when a first occurrence breaks its format or length, else ST_MANDAT exactly when TRNDATE or TRNTIME is missing', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .integer({ min: 0, max: gcxParams.length - 1 })
            .chain((i) => value(gcxParams[i]!).map((v) => [gcxParams[i]!, v] as const)),
          { maxLength: 12 },
        ),
        (ps) => {
          const blocks = [block(...ps.map(([d, v]) => par(d.id, v)))].filter((b) => b.length <= 999);
          fc.pre(blocks.length === 1);
          const seen = new Set<string>();
          let bad = false;
          for (const [d, v] of ps) {
            if (seen.has(d.name)) continue;
            seen.add(d.name);
            if (!fits(d.format, d.length, d.variable, v, d.name === 'SPE_DSPMSG')) bad = true;
          }
          const expected = bad ? 11 : !seen.has('SPE_TRNDATE') || !seen.has('SPE_TRNTIME') ? 19 : 0;
          expect(status('GCX', blocks)).toBe(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('any blocks for any command: a parameter set or a fault, never a throw; a set holds only values of their format', () => {
    const ids = [...Object.keys(ABECS_COMMAND_PARAMS), 'XYZ'];
    fc.assert(
      fc.property(
        fc.constantFrom(...ids),
        fc.array(fc.uint8Array({ maxLength: 60 }), { maxLength: 3 }),
        (id, blocks) => {
          const p = readParams(id, blocks);
          if (isParamFault(p)) expect([11, 19]).toContain(faultStatus(p));
          else
            for (const d of SPE_PARAMS)
              if (p.has(d.name) && d.format === 'N') {
                try {
                  expect(String(p.get(d.name))).toMatch(/^\d*$/);
                } catch (e) {
                  if (!(e instanceof Error && /length|format/.test(e.message))) throw e;
                }
              }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('robustness the specification asks of the pinpad (never stricter than the real thing)', () => {
  it('SPE_CEXOPT (§6.5.1) and SPE_TRACKS (§6.5.12) of any size and characters; SPE_MFINFO (§6.6.1) of any size', () => {
    for (const opt of ['1', '11110000', 'X1?1', '']) expect(status('CEX', [par(0x06, opt)]), opt).toBe(0);
    expect(status('CEX', [par(0x23, '0604')])).toBe(19); // still mandatory
    for (const t of ['1', '111111', '1?1']) expect(status('GTK', [par(0x07, t)]), t).toBe(0);
    expect(status('MLI', [block(par(0x1e, 'QRCODE01'), par(0x1f, hex('00000D06F21101')))])).toBe(0);
  });
});
