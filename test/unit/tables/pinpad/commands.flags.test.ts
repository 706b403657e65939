import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandRow } from '../../../../tables/pinpad/commands.js';

/**
 * The command table (tables/pinpad/commands.ts) held to the specification's own boxes: the lines of
 * ABECS 2.20's command tables, as guilhermecabral05/abecs-rust protocolo_abecs_2_20.md transcribes
 * them, each with its line number (test/vectors/pinpad/abecs-2.20-command-flags.txt says why only
 * those lines are kept). The glyphs are read here, not copied into the test by hand.
 */
const FILE = new URL('../../../vectors/pinpad/abecs-2.20-command-flags.txt', import.meta.url);
const TICKED = new Set(['\uf0fe', '☑']);
const EMPTY = new Set(['\uf0a8', '☐']);
const HEADING = 'CMD_ID Significado Obsoleto Blocante Abecs';

interface SpecRow {
  readonly line: number;
  readonly id: string;
  readonly name: string;
  readonly obsolete: boolean;
  readonly blocking: boolean;
  readonly abecs: boolean;
}

/** The three boxes of a line, in the order of the heading, or an error naming the line. */
function boxes(line: number, text: string): [boolean, boolean, boolean] {
  const found = [...text].filter((c) => TICKED.has(c) || EMPTY.has(c)).map((c) => TICKED.has(c));
  if (found.length !== 3) throw new Error(`line ${line}: ${found.length} boxes, not 3`);
  return found as [boolean, boolean, boolean];
}

function parse(text: string): { rows: SpecRow[]; headings: number[] } {
  const rows: SpecRow[] = [];
  const headings: number[] = [];
  for (const raw of text.split('\n')) {
    if (raw === '' || raw.startsWith('#')) continue;
    const m = /^(\d+)\t(.*)$/.exec(raw);
    if (!m) throw new Error(`not "<line>\\t<text>": ${raw}`);
    const line = Number(m[1]);
    const body = m[2]!;
    if (body === HEADING) {
      headings.push(line);
      continue;
    }
    const cmd = /^“([A-Z]{3})” ([^\uf0fe\uf0a8☑☐]+)/.exec(body);
    if (!cmd) throw new Error(`line ${line}: no “CMD_ID”`);
    const [obsolete, blocking, abecs] = boxes(line, body);
    rows.push({ line, id: cmd[1]!, name: cmd[2]!.trim(), obsolete, blocking, abecs });
  }
  return { rows, headings };
}

const { rows, headings } = parse(readFileSync(FILE, 'utf8'));
/** OPN has two rows (classic, obsolete; secure, current): the table's one OPN row is the current one. */
const specRow = (id: string): SpecRow | undefined =>
  id === 'OPN' ? rows.find((r) => r.name === 'Open Pinpad (Secure)') : rows.find((r) => r.id === id);

describe('tables/pinpad/commands.ts against the boxes of ABECS 2.20', () => {
  it('reads the six command tables of chapter 3 whole (39 rows, the glyphs of every one understood)', () => {
    expect(headings).toEqual([2670, 3915, 5890, 6773, 7237, 8290]);
    expect(rows).toHaveLength(39);
    expect(rows.find((r) => r.id === 'FNC')).toMatchObject({ line: 7249, obsolete: true, blocking: false });
    expect(rows.find((r) => r.id === 'DEX')).toMatchObject({ line: 3927, abecs: false });
  });

  it('every command of the table has a row in the specification', () => {
    for (const id of Object.keys(COMMANDS)) expect(specRow(id), id).toBeDefined();
  });

  it('obsolete, blocking and Abecs are what the specification ticks (FNC, DEX, DWK, GKY among them)', () => {
    for (const id of Object.keys(COMMANDS)) {
      const s = specRow(id)!;
      const r = commandRow(id)!;
      expect({ id, obsolete: r.obsolete, blocking: r.blocking, abecs: r.family === 'abecs' }, `line ${s.line}`).toEqual(
        { id, obsolete: s.obsolete, blocking: s.blocking, abecs: s.abecs },
      );
    }
  });

  it('DWK is for a pinpad that does not follow the specification, and never inside a secure session (§3.2.5)', () => {
    // "Ele só deve ser utilizado pelo SPE caso este identifique que pinpad ainda não respeite esta
    // especificação" and "não é aceito pelo pinpad se o SPE estiver utilizando o método Comunicação Segura"
    expect([COMMANDS.DWK.access, COMMANDS.DWK.session]).toEqual(['classic-only', 'clear']);
  });
});
