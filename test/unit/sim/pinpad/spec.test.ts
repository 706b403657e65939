import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PP_DATA, SPE_PARAMS } from '../../../../tables/pinpad/abecs-ids.js';
import { CARD_LAYOUTS } from '../../../../tables/pinpad/card-commands.js';
import { CLASSIC_CARD_LAYOUTS } from '../../../../tables/pinpad/classic-card-layouts.js';
import { CLASSIC_LAYOUTS } from '../../../../tables/pinpad/classic-layouts.js';
import { ABECS_COMMAND_PARAMS, type CommandParams } from '../../../../tables/pinpad/command-params.js';
import { COMMANDS, type CommandRow } from '../../../../tables/pinpad/commands.js';
import { GCD_MESSAGES } from '../../../../tables/pinpad/gcd-messages.js';
import { SIM_COMMANDS } from '../../../../src/sim/pinpad/spec/commands.js';
import { GCD_PROMPTS } from '../../../../src/sim/pinpad/spec/gcd-messages.js';
import { GIX_DEFAULT, SIM_IDS } from '../../../../src/sim/pinpad/spec/ids.js';
import { LAYOUTS } from '../../../../src/sim/pinpad/spec/layouts.js';
import { SIM_COMMAND_PARAMS } from '../../../../src/sim/pinpad/spec/params.js';
import { faultStatus, isParamFault, readParams } from '../../../../src/sim/pinpad/wire/params.js';

/**
 * The specification read twice: the virtual pinpad's own transcription (src/sim/pinpad/spec) and
 * the driver's (tables/pinpad) were written apart; where they agree, a misreading would have to be
 * made twice. The sim's command flags are also held to the specification's boxes
 * (test/vectors/pinpad/abecs-2.20-command-flags.txt).
 */
const par = (id: number, value: string): Uint8Array => {
  const v = Buffer.from(value, 'latin1');
  return Uint8Array.from([id >> 8, id & 0xff, v.length >> 8, v.length & 0xff, ...v]);
};
const SPE_MFNAME = 0x1e;
const status = (id: string, value: string): number => {
  const p = readParams(id, [par(SPE_MFNAME, value)]);
  return isParamFault(p) ? faultStatus(p) : 0;
};

describe('SPE_MFNAME is exactly 8 letters or digits (A8, §1.3; §3.1.3.1 "sem espaços ou símbolos")', () => {
  it('the virtual pinpad refuses QRCODE, a padded name and a symbol with ST_INVPARM, and takes QRCODE01 (§3.4.6)', () => {
    for (const id of ['DSI', 'MLI', 'CLX'])
      for (const name of ['QRCODE', 'QRCODE  ', 'QR-CODE1', 'QRCODE012'])
        expect(status(id, name), `${id} ${name}`).toBe(11);
    expect(status('DSI', 'QRCODE01')).toBe(0);
    expect(status('DSI', 'qrcode01')).toBe(0); // "não é case sensitive"
  });
});

describe("the virtual pinpad's transcription agrees with the driver's", () => {
  it('every SPE_ and PP_ identifier: value, format, length, and the GIX default set "(†)"', () => {
    const theirs = [...SPE_PARAMS, ...PP_DATA].map((d) => [d.name, d.id, d.format, d.length, d.variable]);
    const ours = SIM_IDS.map((d) => [d.name, d.id, d.format, d.length, d.variable]);
    expect(ours).toEqual(theirs);
    expect(GIX_DEFAULT).toEqual(PP_DATA.filter((d) => d.gix).map((d) => d.id));
  });

  it("each Abecs command's parameters and their presence", () => {
    for (const [id, t] of Object.entries(ABECS_COMMAND_PARAMS as Record<string, CommandParams>)) {
      const ours = SIM_COMMAND_PARAMS.get(id);
      expect(ours, id).toBeDefined();
      expect(Object.fromEntries(ours!.params), id).toEqual(t.params);
      expect([...ours!.repeats], id).toEqual(t.repeats ?? []);
      expect([...ours!.robust], id).toEqual(t.robust ?? []);
    }
  });

  it('the fixed-field layouts the pinpad reads', () => {
    const pairs = [
      [LAYOUTS.GIN_REQUEST, CLASSIC_LAYOUTS.GIN_REQUEST],
      [LAYOUTS.GIN_00, CLASSIC_LAYOUTS.GIN_00],
      [LAYOUTS.GIN_02, CLASSIC_LAYOUTS.GIN_02],
      [LAYOUTS.GIN_03, CLASSIC_LAYOUTS.GIN_03],
      [LAYOUTS.GIN_OTHER, CLASSIC_LAYOUTS.GIN_OTHER],
      [LAYOUTS.DEX_REQUEST, CLASSIC_LAYOUTS.DEX_REQUEST],
      [LAYOUTS.GPN_REQUEST, CARD_LAYOUTS.GPN_REQUEST],
      [LAYOUTS.TLI_REQUEST, CARD_LAYOUTS.TLI_REQUEST],
      [LAYOUTS.GCR_HEAD, CLASSIC_CARD_LAYOUTS.GCR_REQUEST],
      [LAYOUTS.GOC_HEAD, CLASSIC_CARD_LAYOUTS.GOC_REQUEST],
    ] as const;
    for (const [ours, theirs] of pairs) expect(ours, ours[0]!.name).toEqual(theirs);
  });

  it("GCD's fixed prompts (§3.3.8)", () => {
    expect(Object.fromEntries(GCD_PROMPTS)).toEqual(GCD_MESSAGES);
  });

  it('the command flags, and what each command does to the session', () => {
    for (const [id, r] of Object.entries(COMMANDS as Record<string, CommandRow>)) {
      const ours = SIM_COMMANDS.get(id);
      expect(ours, id).toBeDefined();
      expect([id, ours!.obsolete, ours!.blocking, ours!.abecs, ours!.session]).toEqual([
        id,
        r.obsolete,
        r.blocking,
        r.family === 'abecs',
        r.session,
      ]);
    }
  });
});

describe("the virtual pinpad's command flags are the specification's boxes", () => {
  it('every row of the six tables of chapter 3 (the secure OPN for OPN)', () => {
    const text = readFileSync(new URL('../../../vectors/pinpad/abecs-2.20-command-flags.txt', import.meta.url), 'utf8');
    const rows = text
      .split('\n')
      .filter((l) => /^\d+\t“/.test(l) && !l.includes('“OPN” Open Pinpad \uf0fe'))
      .map((l) => {
        const id = /“([A-Z]{3})”/.exec(l)![1]!;
        const ticks = [...l].filter((c) => c === '\uf0fe' || c === '\uf0a8').map((c) => c === '\uf0fe');
        return [id, ...ticks];
      });
    expect(rows).toHaveLength(SIM_COMMANDS.size);
    for (const [id, obsolete, blocking, abecs] of rows) {
      const c = SIM_COMMANDS.get(id as string);
      expect([id, c?.obsolete, c?.blocking, c?.abecs]).toEqual([id, obsolete, blocking, abecs]);
    }
  });
});
