import { describe, expect, it } from 'vitest';
import { SPE_PARAMS } from '../../../../tables/pinpad/abecs-ids.js';
import { CARD_COMMANDS, CARD_LAYOUTS } from '../../../../tables/pinpad/card-commands.js';
import { CLASSIC_CARD_LAYOUTS } from '../../../../tables/pinpad/classic-card-layouts.js';
import { CLASSIC_LAYOUTS } from '../../../../tables/pinpad/classic-layouts.js';
import {
  ABECS_COMMAND_PARAMS,
  CLASSIC_COMMAND_IDS,
  PARAM_PATTERNS,
  CR_ALLOWED,
} from '../../../../tables/pinpad/command-params.js';
import { COMMANDS, SESSION_COMMAND_IDS, commandRow, type CommandRow } from '../../../../tables/pinpad/commands.js';

/**
 * The one command table (tables/pinpad/commands.ts) against itself and against the specification.
 * Section headings quoted from guilhermecabral05/abecs-rust protocolo_abecs_2_20.md, line of each.
 */
const rows = Object.entries(COMMANDS as Record<string, CommandRow>);

/** "#### 3.x.y. Comando “XXX”" headings of the 2.20 transcription (line number beside each). */
const HEADINGS: Record<string, string> = {
  DWK: '3.2.5', // l. 3552
  CHP: '3.3.2', // l. 4082
  CKE: '3.3.3', // l. 4298
  DEX: '3.3.4', // l. 4520
  ENB: '3.3.7', // l. 4802
  GCD: '3.3.8', // l. 4888
  GDU: '3.3.9', // l. 5078
  GKY: '3.3.10', // l. 5144
  GPN: '3.3.11', // l. 5200
  GTS: '3.5.1', // l. 6788
  GCR: '3.6.1', // l. 7252
  CNG: '3.6.2', // l. 7739
  GOC: '3.6.3', // l. 7825
  FNC: '3.6.4', // l. 8059
  GED: '3.7.2', // l. 8721
};

describe('the ABECS command table (tables/pinpad/commands.ts)', () => {
  it('cites the section the 2.20 transcription gives each command under', () => {
    for (const [id, section] of Object.entries(HEADINGS)) expect(commandRow(id)?.section, id).toBe(section);
  });

  it('every row sits in the chapter its family allows: §3.6 (obsolete card processing) is classic and obsolete, §3.7 is Abecs', () => {
    for (const [id, r] of rows) {
      expect(r.section, id).toMatch(/^3\.[2-7]\.\d+(\/3\.\d\.\d+)?$/);
      if (r.section.startsWith('3.6.'))
        expect([id, r.family, r.obsolete, r.access]).toEqual([id, 'classic', true, 'classic-only']);
      if (r.section.startsWith('3.7.')) expect([id, r.family, r.access]).toEqual([id, 'abecs', 'secure']);
    }
  });

  it('an obsolete command is classic (§3.1.2: the Abecs commands are the new ones), and every classic-only command is obsolete', () => {
    for (const [id, r] of rows) {
      if (r.obsolete) expect(r.family, id).toBe('classic');
      if (r.access === 'classic-only') expect(r.obsolete, id).toBe(true);
    }
  });

  it('every command with a parameter table is Abecs, and every parameter it names is in §3.1.3.1 list', () => {
    const known = new Set(SPE_PARAMS.map((p) => p.name));
    for (const [id, t] of Object.entries(ABECS_COMMAND_PARAMS)) {
      expect(commandRow(id)?.family, id).toBe('abecs');
      for (const name of [
        ...Object.keys(t.params),
        ...((t as { repeats?: string[] }).repeats ?? []),
        ...((t as { robust?: string[] }).robust ?? []),
      ]) {
        expect(known.has(name), `${id} ${name}`).toBe(true);
      }
    }
    for (const name of [...Object.keys(PARAM_PATTERNS), ...CR_ALLOWED]) expect(known.has(name), name).toBe(true);
  });

  it("every fixed-field layout belongs to a classic command (DEX too: §3.3's table leaves its Abecs box empty, l. 3927)", () => {
    const layouts = { ...CLASSIC_LAYOUTS, ...CARD_LAYOUTS, ...CLASSIC_CARD_LAYOUTS };
    for (const [key, layout] of Object.entries(layouts)) {
      const id = key.slice(0, 3);
      expect(commandRow(id)?.family, key).toBe('classic');
      // the spec names every field of a command after it (GCR_TRK1, GOC_KSN…)
      for (const f of layout) expect(f.name.startsWith(`${id}_`), `${key} ${f.name}`).toBe(true);
    }
    // §3.6.1: a 40-character head before GCR_QTDAPP × A4; the answer's fixed part up to GCR_CARDEXP is 307;
    // §3.6.3: GOC's block 1 is 86 characters before GOC_ACQPR, the answer 45 up to GOC_EMVDTLEN
    const width = (l: readonly { length: number }[]): number => l.reduce((n, f) => n + f.length, 0);
    const { GCR_REQUEST, GCR_RESPONSE, GOC_REQUEST, GOC_RESPONSE } = CLASSIC_CARD_LAYOUTS;
    expect([width(GCR_REQUEST), width(GCR_RESPONSE), width(GOC_REQUEST), width(GOC_RESPONSE)]).toEqual([
      40, 307, 86, 45,
    ]);
  });

  it('CLASSIC_COMMAND_IDS and CARD_COMMANDS are views of the table, not lists of their own', () => {
    expect([...CLASSIC_COMMAND_IDS].sort()).toEqual(
      rows
        .filter(([, r]) => r.family === 'classic')
        .map(([id]) => id)
        .sort(),
    );
    for (const [id, c] of Object.entries(CARD_COMMANDS))
      expect(c, id).toEqual({ ...commandRow(id), abecs: commandRow(id)?.family === 'abecs' });
  });

  it('spot checks the flags the specification states in words', () => {
    // §3.3.3 "Este comando aguarda a ocorrência de um determinado evento"; §3.3.10 "aguardar o pressionamento de uma tecla"
    expect(COMMANDS.CKE.blocking && COMMANDS.GKY.blocking).toBe(true);
    // §3.3.7 ENB, §3.3.9 GDU, §3.5.1 GTS: "Este comando é obsoleto"
    expect([COMMANDS.ENB.obsolete, COMMANDS.GDU.obsolete, COMMANDS.GTS.obsolete]).toEqual([true, true, true]);
    // §3.2.5 DWK "pode ser chamado a qualquer momento depois de execução bem-sucedida de OPN": not blocking
    expect(COMMANDS.DWK.blocking).toBe(false);
    // §3.2.4 GIX "Get Information - Extended", §3.2.7 CLX "Close Pinpad - Extended": Abecs; §3.2.1 OPN, §3.2.6 CLO classic
    expect([COMMANDS.GIX.family, COMMANDS.CLX.family, COMMANDS.OPN.family, COMMANDS.CLO.family]).toEqual([
      'abecs',
      'abecs',
      'classic',
      'classic',
    ]);
  });

  it('session: OPN opens, CLO and CLX close, DWK stays out of a secure session, Abecs commands need one, classic ones need no OPN', () => {
    // §5.2.2 "o comando OPN (seguro ou clássico), somente pode ser enviado em claro"; §6.4.1 it ends any session
    expect(COMMANDS.OPN.session).toBe('opens');
    // §6.3.2 "excetuando-se as respostas aos comandos CLO e CLX, que são responsáveis por desativar esse processo"
    expect([COMMANDS.CLO.session, COMMANDS.CLX.session]).toEqual(['closes', 'closes']);
    // §3.2.5 "O modo PAN Criptografado não é aceito pelo pinpad se o SPE estiver utilizando o método Comunicação Segura"
    expect(COMMANDS.DWK.session).toBe('clear');
    for (const [id, r] of rows) {
      if (['OPN', 'CLO', 'CLX', 'DWK'].includes(id)) continue;
      // §3.2.2 (obsolete answer): without a secure session "o SPE não poderá usar Comandos Abecs";
      // §6.4.1: "o comando OPN (clássico) é opcional": a classic command needs no OPN first
      expect([id, r.session]).toEqual([id, r.family === 'abecs' ? 'secure' : 'none']);
    }
    expect([...SESSION_COMMAND_IDS].sort()).toEqual(['CLO', 'CLX', 'OPN']);
  });
});
