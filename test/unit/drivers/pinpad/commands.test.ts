import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RETURN_CODES, returnCodeName } from '../../../../tables/pinpad/return-codes.js';
import { CLASSIC_LAYOUTS } from '../../../../tables/pinpad/classic-layouts.js';
import { GIX_DEFAULT_IDS, PP_DATA, SPE_PARAMS } from '../../../../tables/pinpad/abecs-ids.js';
import { decodeCommand, decodeResponse, encodeResponse } from '../../../../drivers/pinpad/codec/message.js';
import { decodeParams, encodeParams } from '../../../../drivers/pinpad/codec/params.js';
import { decodeLayout } from '../../../../drivers/pinpad/codec/layout.js';
import { CLO, GIN, GIX, OPN_CLASSIC } from '../../../../drivers/pinpad/commands/control.js';
import { DEX, DSP, GCD } from '../../../../drivers/pinpad/commands/display.js';
import { checkResponse, isUnknownCommand } from '../../../../drivers/pinpad/commands/spec.js';
import { infoFromGin, infoFromGix } from '../../../../drivers/pinpad/commands/info.js';
import { isPinpadError, PinpadError } from '../../../../drivers/pinpad/errors.js';
import { fcSeed } from '../../../helpers/fc-seed.js';

const V = JSON.parse(
  readFileSync(new URL('../../../vectors/pinpad/abecs-2.20-examples.json', import.meta.url), 'utf8'),
) as Record<string, { section: string; request: string; response: string }>;
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const latin = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'latin1'));
const ok = <T>(
  spec: { id: string; decode: (r: ReturnType<typeof decodeResponse>, q: never) => T },
  data: Uint8Array,
  req?: unknown,
): T => {
  const rsp = decodeResponse(data);
  checkResponse(spec.id, rsp);
  return spec.decode(rsp, req as never);
};

describe('return codes (§3.1.1)', () => {
  it('lists every code of the table once, each with an ST_ name', () => {
    expect(RETURN_CODES.length).toBe(45);
    expect(new Set(RETURN_CODES.map((r) => r.code)).size).toBe(45);
    expect(new Set(RETURN_CODES.map((r) => r.name)).size).toBe(45);
    for (const r of RETURN_CODES) expect(r.name).toMatch(/^ST_[A-Z0-9]+$/);
  });
  it.each([
    [0, 'ST_OK'],
    [3, 'ST_NOSEC'],
    [9, 'ST_ERRPKTSEC'],
    [10, 'ST_INVCALL'],
    [13, 'ST_CANCEL'],
    [20, 'ST_TABVERDIF'],
    [42, 'ST_ERRKEY'],
    [79, 'ST_CARDBLOCKED'],
    [87, 'ST_CTLSIFCHG'],
    [102, 'ST_MFERR'],
    [99, 'ST_UNKNOWN_099'],
  ])('names %i %s', (code, name) => expect(returnCodeName(code)).toBe(name));
});

describe('tables', () => {
  it('GIN layouts add up to the lengths §3.2.3 fixes (100 for 00, 42 for the others)', () => {
    const sum = (l: readonly { length: number }[]) => l.reduce((n, f) => n + f.length, 0);
    expect(sum(CLASSIC_LAYOUTS.GIN_00)).toBe(100);
    expect(sum(CLASSIC_LAYOUTS.GIN_02)).toBe(42);
    expect(sum(CLASSIC_LAYOUTS.GIN_03)).toBe(42);
    expect(sum(CLASSIC_LAYOUTS.GIN_OTHER)).toBe(42);
  });
  it('Abecs ids are unique, SPE_ below 8000h and PP_ from 8000h', () => {
    const ids = [...SPE_PARAMS, ...PP_DATA];
    expect(new Set(ids.map((x) => x.id)).size).toBe(ids.length);
    for (const p of SPE_PARAMS) expect(p.id < 0x8000 && p.name.startsWith('SPE_')).toBe(true);
    for (const p of PP_DATA) expect(p.id >= 0x8000 && p.name.startsWith('PP_')).toBe(true);
    expect(PP_DATA.find((p) => p.name === 'PP_KSNTDESP14')!.id).toBe(0x910e);
    expect(GIX_DEFAULT_IDS.length * 2).toBeLessThanOrEqual(128);
    expect(PP_DATA.find((p) => p.name === 'PP_KSNTDESD79')!.id).toBe(0x924f);
  });
});

describe('OPN, CLO, DSP, DEX (published examples)', () => {
  it('OPN classic is the bare id and OPN000 decodes (§3.2.1)', () => {
    expect(OPN_CLASSIC.encode()).toEqual(latin('OPN'));
    expect(ok(OPN_CLASSIC, latin('OPN000'))).toBeUndefined();
  });
  it('CLO "POSTO FORÇA 10"/"OBRIGADO!!!" (§3.2.6)', () => {
    expect(CLO.encode(['POSTO FORÇA 10', 'OBRIGADO!!!'])).toEqual(
      hex(
        '43 4C 4F 30 33 32 50 4F 53 54 4F 20 46 4F 52 C7 41 20 31 30 20 20 4F 42 52 49 47 41 44 4F 21 21 21 20 20 20 20 20',
      ),
    );
  });
  it('DSP "ERRO DE OPERAÇÃO"/"CÓDIGO:  2112/76" (§3.3.5)', () => {
    expect(DSP.encode(['ERRO DE OPERAÇÃO', 'CÓDIGO:  2112/76'])).toEqual(
      hex(
        '44 53 50 30 33 32 45 52 52 4F 20 44 45 20 4F 50 45 52 41 C7 C3 4F 43 D3 44 49 47 4F 3A 20 20 32 31 31 32 2F 37 36',
      ),
    );
    expect(ok(DSP, latin('DSP000'))).toBeUndefined();
  });
  it('DEX four lines without options and a centred error with options 202000 (§3.3.4)', () => {
    expect(DEX.encode({ text: 'Feliz Natal\ne um\nPróspero\nAno Novo!' })).toEqual(
      hex(
        '44 45 58 30 33 38 30 33 35 46 65 6C 69 7A 20 4E 61 74 61 6C 0D 65 20 75 6D 0D 50 72 F3 73 70 65 72 6F 0D 41 6E 6F 20 4E 6F 76 6F 21',
      ),
    );
    expect(
      DEX.encode({ text: 'NAO AUTORIZADA\nTENTE NOVAMENTE!', options: { horizontal: 'center', kind: 'error' } }),
    ).toEqual(
      hex(
        '44 45 58 30 34 30 30 33 31 4E 41 4F 20 41 55 54 4F 52 49 5A 41 44 41 0D 54 45 4E 54 45 20 4E 4F 56 41 4D 45 4E 54 45 21 32 30 32 30 30 30',
      ),
    );
  });
  it('DEX decodes back through its layout (the virtual pinpad reads it so)', () => {
    const { blocks } = decodeCommand(DEX.encode({ text: 'A\nB', options: { kind: 'success' } }));
    expect(decodeLayout(CLASSIC_LAYOUTS.DEX_REQUEST, blocks[0]!, 'DEX')).toEqual({
      DEX_MSGLEN: '003',
      DEX_MSG: 'A\rB',
      DEX_OPTIONS: '001000',
    });
  });
  it('refuses text a field cannot carry, saying which field and where', () => {
    const cases: [() => unknown, string][] = [
      [() => DSP.encode('x'.repeat(33)), 'DSP_MSG'],
      [() => DSP.encode(['ok', 'this line is too long']), 'DSP_MSG'],
      [() => DSP.encode('emoji 😀'), 'DSP_MSG'],
      [() => DEX.encode({ text: 'x'.repeat(161) }), 'DEX_MSG'],
      [() => GCD.encode({ message: 1, minDigits: 5, maxDigits: 4 }), 'SPE_MAXDIG'],
      [() => GCD.encode({ message: 1, timeoutS: 256 }), 'SPE_TIMEOUT'],
    ];
    for (const [f, field] of cases) {
      try {
        f();
        expect.unreachable(field);
      } catch (e) {
        expect(isPinpadError(e, 'PINPAD_INVALID_ARGUMENT')).toBe(true);
        expect((e as PinpadError).context.field).toBe(field);
      }
    }
  });
});

describe('GCD (§2.2.2.3 and §3.3.8 examples)', () => {
  it('encodes RG prompt, 10 digits at most, 60 s: the §2.2.2.3 packet data', () => {
    expect(GCD.encode({ message: 9, maxDigits: 10, timeoutS: 60 })).toEqual(
      hex('474344 303136 000C00013C 000E00010A 000B00020009'),
    );
  });
  it('decodes PP_VALUE "169937823" from the §3.3.8 response', () => {
    expect(ok(GCD, hex('47 43 44 30 30 30 30 31 33 80 4D 00 09 31 36 39 39 33 37 38 32 33'))).toBe('169937823');
  });
  it('turns ST_CANCEL and ST_TIMEOUT into PINPAD_STATUS with the name', () => {
    try {
      ok(GCD, latin('GCD013'));
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({
        code: 'PINPAD_STATUS',
        context: { status: 13, statusName: 'ST_CANCEL', command: 'GCD' },
      });
    }
  });
});

describe('GIN (§3.2.3 examples)', () => {
  it('encodes GIN00200 and decodes the 100-byte general answer', () => {
    expect(GIN.encode(0)).toEqual(latin(V.gin00!.request));
    const r = ok(GIN, hex(V.gin00!.response), 0);
    expect(r.fields).toEqual({
      GIN_MNAME: 'CYGNUS',
      GIN_MODEL: 'PP X-1;10MB',
      GIN_CTLSSUP: 'C',
      GIN_SOVER: '8065XA077X0060X',
      GIN_SPECVER: '2.00',
      GIN_MANVER: '001.03 130715',
      GIN_SERNUM: '001101010300000',
    });
  });
  it('decodes the acquirer 02 answer', () => {
    expect(GIN.encode(2)).toEqual(latin(V.gin02!.request));
    expect(ok(GIN, hex(V.gin02!.response), 2).fields).toEqual({
      GIN_ACQNAM: 'Abecs',
      GIN_KRNLVER: 'V1.09',
      GIN_APPVERS: '001.03 130715',
      GIN_SPECVER: '2.00',
      GIN_RUF1: '',
      GIN_RUF2: '00',
    });
  });
  it('decodes the acquirer 03 layout (DUKPT flag) and the layout for other indexes', () => {
    const a03 = 'Abecs ' + '6.1 ' + '1.0 ' + '1.0' + '2.0' + '001.03 130715' + '2.20' + '  ' + 'T' + '00';
    expect(a03.length).toBe(42);
    const r03 = ok(GIN, latin(`GIN000042${a03}`), 3);
    expect(r03.fields).toMatchObject({
      GIN_ACQNAM: 'Abecs',
      GIN_KRNLVER: '6.1',
      GIN_APPVERS: '001.03 130715',
      GIN_DUKPT: 'T',
    });
    const other = 'Abecs'.padEnd(20) + '001.03 130715' + '2.20' + '   ' + '00';
    expect(ok(GIN, latin(`GIN000042${other}`), 5).fields).toMatchObject({ GIN_ACQNAME: 'Abecs', GIN_SPECVER: '2.20' });
    const info = infoFromGin(ok(GIN, hex(V.gin00!.response), 0), r03);
    expect(info).toMatchObject({
      source: 'GIN',
      manufacturer: 'CYGNUS',
      contactless: true,
      keys: { dukptPin: { '01': 'present' } },
    });
  });
  it('refuses a GIN answer of the wrong length with the field and offset', () => {
    try {
      ok(GIN, latin('GIN000041' + 'x'.repeat(41)), 2);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'PINPAD_PROTOCOL', context: { where: 'GIN 02', field: 'GIN_RUF2' } });
    }
  });
});

describe('GIX (§3.2.4 examples)', () => {
  it('encodes SPE_IDLIST as in the first example', () => {
    expect(GIX.encode([0x8001, 0x8004, 0x8034, 0x9101, 0x910e])).toEqual(hex(V.gixSome!.request));
  });
  it('decodes the first example: serial, manufacturer, a reserved id kept as bytes, KSN of slot 01 (with 13h inside)', () => {
    const r = ok(GIX, hex(V.gixSome!.response));
    expect(r.data.PP_SERNUM).toBe('991274366155');
    expect(r.data.PP_MNNAME).toBe('HEMISPHERES');
    expect(r.data['0x8034']).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(r.data.PP_KSNTDESP01 as Uint8Array).toString('hex')).toBe('fffff913250043200443');
    expect(r.data.PP_KSNTDESP14).toBeUndefined();
  });
  it('decodes the second example (every "(†)" datum) into PinpadInfo', () => {
    const r = ok(GIX, hex(V.gixAll!.response));
    expect(r.data).toMatchObject({
      PP_SERNUM: '01927612',
      PP_PARTNBR: 'PP2000/BT/USB',
      PP_MODEL: 'PP2000;8MB',
      PP_MNNAME: 'SUBDIVISIONS',
      PP_CAPAB: '1000000000',
      PP_SOVER: 'SO:3.45',
      PP_SPECVER: '2.00',
      PP_CTLSCAPAB: '2469B',
      PP_DSPTXTSZ: '0420',
      PP_TLRMEM: 100000,
    });
    const info = infoFromGix(r);
    expect(info).toMatchObject({
      source: 'GIX',
      model: 'PP2000;8MB',
      serialNumber: '01927612',
      firmware: 'SO:3.45',
      contactless: true,
    });
    expect(info.keys.dukptPin['01']).toBe('present');
    expect(info.keys.dukptPin['00']).toBe('absent');
    expect(info.keys.dukptPin['99']).toBe('unsupported');
  });
  it('sees ERR010 as an unknown command (a classic-only pinpad asked GIX)', () => {
    try {
      ok(GIX, latin('ERR010'));
      expect.unreachable();
    } catch (e) {
      expect(isUnknownCommand(e)).toBe(true);
      expect(e).toMatchObject({ code: 'PINPAD_STATUS', context: { statusName: 'ST_INVCALL' } });
    }
  });
});

describe('codec properties', () => {
  it('parameters round-trip through blocks of at most 999 bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.integer({ min: 0, max: 0xffff }), value: fc.uint8Array({ maxLength: 995 }) }), {
          maxLength: 12,
        }),
        (params) => {
          const blocks = encodeParams(params);
          for (const b of blocks) expect(b.length).toBeLessThanOrEqual(999);
          expect(decodeParams(blocks, 'T').map((p) => ({ id: p.id, value: Uint8Array.from(p.value) }))).toEqual(params);
        },
      ),
      { numRuns: 1000, seed: fcSeed('params round trip') },
    );
  });
  it('random bytes as a response or parameters give a value or a PinpadError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        for (const f of [
          () => decodeResponse(bytes),
          () => decodeParams([bytes], 'T'),
          () => GIX.decode(decodeResponse(bytes), undefined),
        ]) {
          try {
            f();
          } catch (e) {
            expect(e).toBeInstanceOf(PinpadError);
          }
        }
      }),
      { numRuns: 1000, seed: fcSeed('response fuzz') },
    );
  });
  it('random blocks through every GIN layout and the DEX layout give fields or a PinpadError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), fc.integer({ min: 0, max: 99 }), (block, acq) => {
        for (const f of [
          () => GIN.decode({ id: 'GIN', status: 0, blocks: [block] }, acq),
          () => decodeLayout(CLASSIC_LAYOUTS.DEX_REQUEST, block, 'DEX'),
        ]) {
          try {
            f();
          } catch (e) {
            expect(e).toBeInstanceOf(PinpadError);
          }
        }
      }),
      { numRuns: 1000, seed: fcSeed('layout fuzz') },
    );
  });

  it('encodeResponse and decodeResponse agree', () => {
    const data = encodeResponse('GIX', 0, [Uint8Array.of(0x80, 0x01, 0, 1, 0x41)]);
    expect(decodeResponse(data)).toEqual({ id: 'GIX', status: 0, blocks: [Uint8Array.of(0x80, 0x01, 0, 1, 0x41)] });
    expect(encodeResponse('GCD', 13, [Uint8Array.of(1)])).toEqual(latin('GCD013'));
  });
});
