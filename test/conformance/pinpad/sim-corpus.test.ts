/**
 * The conformance corpus read by the virtual pinpad's own transcription (src/sim/pinpad/spec/, never the
 * driver's tables): every command of the specification's examples (ABECS 2.20, test/vectors/pinpad and
 * test/vectors/pinpad-card) and every packet a production client sent a real PPC930
 * (transcao_completa_com_scope.txt, test/vectors/pinpad/ppc930-log.json) is a command the virtual pinpad
 * knows, whose parameters (Abecs commands: ids, formats, lengths, the mandatory ones) or fixed fields
 * (classic commands: layouts) it reads without a fault; and every datum of the examples' and the PPC930's
 * Abecs answers is an id it knows, in its format and length.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SIM_COMMANDS } from '../../../src/sim/pinpad/spec/commands.js';
import { LAYOUTS } from '../../../src/sim/pinpad/spec/layouts.js';
import { simId } from '../../../src/sim/pinpad/spec/ids.js';
import { isCommandFault, parseCommand } from '../../../src/sim/pinpad/wire/command.js';
import { fitsFormat } from '../../../src/sim/pinpad/wire/fields.js';
import { isLayoutFault, readLayout } from '../../../src/sim/pinpad/wire/layout.js';
import { isParamFault, readParams, splitParams } from '../../../src/sim/pinpad/wire/params.js';
import { readOpnBlock } from '../../../src/sim/pinpad/secure/opn-block.js';
import { CR_IN_TEXT } from '../../../src/sim/pinpad/spec/params.js';

const json = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`../../vectors/${file}`, import.meta.url), 'utf8')) as T;

interface Example {
  source?: string;
  section?: string;
  command?: string;
  request?: string;
  response?: string;
}
interface LogPacket {
  lines: string;
  from: 'terminal' | 'pinpad';
  id: string;
  hex: string;
}

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
/** A request as the examples file holds it: hex, or (GIN) the text itself. */
const request = (r: string): Uint8Array =>
  /^([0-9A-F]{2})+$/.test(r) ? bytes(r) : Uint8Array.from(Buffer.from(r, 'latin1'));
/** PKTDATA of a captured packet: between SYN and ETB (the capture shows it before DC3 escaping). */
function pktdata(p: LogPacket): Uint8Array {
  const raw = Buffer.from(p.hex, 'hex');
  const etb = raw[raw.length - 1] === 0x17 ? raw.length - 1 : raw.length - 3;
  return Uint8Array.from(raw.subarray(1, etb));
}

const spec = json<Record<string, Example | string>>('pinpad/abecs-2.20-examples.json');
const card = json<Record<string, Example | string>>('pinpad-card/abecs-card-examples.json');
const log = json<{ packets: LogPacket[] }>('pinpad/ppc930-log.json');

/** The corpus' commands: where each comes from, and its PKTDATA. */
const COMMANDS: [string, Uint8Array][] = [
  ...Object.entries(spec).flatMap(([k, e]) =>
    typeof e === 'object' && e.request ? [[`2.20 ${e.section ?? k}`, request(e.request)] as [string, Uint8Array]] : [],
  ),
  ...Object.entries(card).flatMap(([k, e]) =>
    typeof e === 'object' && e.command
      ? [[`2.20 ${k}: ${e.source ?? ''}`, bytes(e.command)] as [string, Uint8Array]]
      : [],
  ),
  ...log.packets
    .filter((p) => p.from === 'terminal')
    .map((p): [string, Uint8Array] => [`PPC930 log lines ${p.lines} (${p.id})`, pktdata(p)]),
];

/** The corpus' Abecs answers: the examples' and the PPC930's (its first GIX answer was cut at 1024 bytes by the capture). */
const ANSWERS: [string, string, Uint8Array][] = [
  ...Object.entries({ ...spec, ...card }).flatMap(([k, e]) =>
    typeof e === 'object' && e.response && /^([0-9A-F]{2})+$/.test(e.response)
      ? [[k, `2.20 ${k}: ${e.source ?? e.section ?? ''}`, bytes(e.response)] as [string, string, Uint8Array]]
      : [],
  ),
  ...log.packets
    .filter((p) => p.from === 'pinpad' && p.lines !== '82-145')
    .map((p): [string, string, Uint8Array] => [
      `lines ${p.lines}`,
      `PPC930 log lines ${p.lines} (${p.id})`,
      pktdata(p),
    ]),
].filter(([, , b]) => SIM_COMMANDS.get(Buffer.from(b.subarray(0, 3)).toString('latin1'))?.abecs === true);

/**
 * Where the corpus disagrees with the specification's own list of ids (§3.1.3.2): each datum named, with
 * why. The virtual pinpad writes its answers by the list; these are the corpus', not its own.
 */
const ERRATA: Readonly<Record<string, string>> = {
  'gixSome 8034h':
    '2.20 l. 2469 lists 8034h as "Reservado", yet its GIX example asks for it (a 2.12 id): unknown to the list',
  'GCX1 805Ch': '2.20 l. 8645: the example answers PP_ISSCNTRY "0076", four digits where l. 2589 says N3',
  'FCX 8056h': "2.20 §3.7.4's example answers FCX's result under 8056h, PP_GOXRES' id (N6), with 3 bytes",
  'lines 242-249 8052h': "the capture's author masked the PAN's digits with \"M\" (the log's own note)",
};

/** The fixed-field layout the virtual pinpad reads a classic command's block with, if it checks one. */
const LAYOUT_OF: Readonly<Record<string, keyof typeof LAYOUTS>> = {
  GIN: 'GIN_REQUEST',
  DEX: 'DEX_REQUEST',
  GPN: 'GPN_REQUEST',
  TLI: 'TLI_REQUEST',
};

describe("the conformance corpus read by the virtual pinpad's own transcription", () => {
  it('holds the specification examples and the PPC930 capture; each erratum is one of the corpus', () => {
    const seen = ANSWERS.flatMap(([key, , data]) => {
      const r = parseCommand(data);
      const ps = isCommandFault(r) ? [] : splitParams(r.blocks);
      return Array.isArray(ps) ? ps.map((p) => `${key} ${p.id.toString(16).toUpperCase()}h`) : [];
    });
    for (const e of Object.keys(ERRATA)) expect(seen, e).toContain(e);
    expect(COMMANDS.filter(([w]) => w.startsWith('PPC930')).length).toBe(25);
    expect(COMMANDS.length).toBeGreaterThan(40);
    expect(ANSWERS.length).toBeGreaterThan(20);
  });

  for (const [where, data] of COMMANDS) {
    it(`reads ${where}`, () => {
      const cmd = parseCommand(data);
      if (isCommandFault(cmd)) throw new Error(`${where}: ${JSON.stringify(cmd)}`);
      const row = SIM_COMMANDS.get(cmd.id);
      expect(row, `${cmd.id} is a command of the transcription`).toBeDefined();
      if (cmd.id === 'OPN') {
        expect(cmd.blocks.length === 0 || readOpnBlock(cmd.blocks[0]!) !== undefined, 'the secure OPN block').toBe(
          true,
        );
      } else if (row!.abecs) {
        const read = readParams(cmd.id, cmd.blocks);
        expect(isParamFault(read) ? read : 'read', where).toBe('read');
      } else if (LAYOUT_OF[cmd.id]) {
        const read = readLayout(LAYOUTS[LAYOUT_OF[cmd.id]!], cmd.blocks[0] ?? new Uint8Array(), ['DEX_MSG']);
        expect(isLayoutFault(read) ? read : 'read', where).toBe('read');
      }
    });
  }

  for (const [key, where, data] of ANSWERS) {
    it(`knows every datum of the answer ${where}`, () => {
      const id = Buffer.from(data.subarray(0, 3)).toString('latin1');
      // RSP_ID A3, RSP_STAT N3, then RSP_LEN1 N3 and its block, and so on (§3.1.3.2)
      const blocks: Uint8Array[] = [];
      for (let at = 6; at < data.length;) {
        const len = Number(Buffer.from(data.subarray(at, at + 3)).toString('latin1'));
        blocks.push(data.subarray(at + 3, at + 3 + len));
        at += 3 + len;
      }
      const params = splitParams(blocks);
      if (!Array.isArray(params)) throw new Error(`${where}: ${JSON.stringify(params)}`);
      for (const p of params) {
        const def = simId(p.id);
        const name = `${id} ${p.id.toString(16).toUpperCase()}h`;
        if (ERRATA[`${key} ${p.id.toString(16).toUpperCase()}h`]) continue;
        expect(def, `${name} is an id of the transcription`).toBeDefined();
        const fits = def!.variable ? p.value.length <= def!.length : p.value.length === def!.length;
        expect(
          fits,
          `${name} (${def!.name}): ${p.value.length} bytes for ${def!.format}${def!.variable ? '..' : ''}${def!.length}`,
        ).toBe(true);
        expect(
          fitsFormat(def!.format, p.value, CR_IN_TEXT.has(def!.name)),
          `${name} (${def!.name}) in ${def!.format}`,
        ).toBe(true);
      }
    });
  }
});
