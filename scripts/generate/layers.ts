/**
 * docs/architecture.md's two tables of the layer rule, from the rule's data (eslint.layers.js): what each
 * area may import (ALLOWED, FORBIDDEN) and the modules imported besides an area's index.ts (ENTRIES).
 * The doc cannot drift from the rule: the tables are the rule's data, printed.
 */
import { replaceSection, type Generated } from './generated.js';

type Layers = {
  ALLOWED: Record<string, readonly string[]>;
  FORBIDDEN: readonly { from: string; to: string; why: string }[];
  ENTRIES: readonly { module: string; why: string; from?: readonly string[]; lazy?: boolean }[];
  KIND_FILES: readonly { file: string; area: string; why: string }[];
};
const rulePath = '../../eslint.layers.js';
const layers = (await import(rulePath)) as Layers;

const FILE = 'docs/architecture.md';
const AREAS_BEGIN = '<!-- layers: generated from ALLOWED and FORBIDDEN in eslint.layers.js (npm run generate) -->';
const AREAS_END = '<!-- /layers -->';
const ENTRIES_BEGIN = '<!-- layer entries: generated from ENTRIES in eslint.layers.js (npm run generate) -->';
const ENTRIES_END = '<!-- /layer entries -->';
const KINDS_BEGIN = '<!-- kind files: generated from KIND_FILES in eslint.layers.js (npm run generate) -->';
const KINDS_END = '<!-- /kind files -->';

const code = (s: string): string => `\`${s}\``;
const cell = (s: string): string => s.replace(/\|/g, '\\|');

function imports(allowed: readonly string[]): string {
  if (allowed.length === 0) return 'nothing';
  if (allowed.includes('*')) return 'anything';
  return allowed.map((a) => (a === 'drivers/*' ? `any ${code(a)}` : code(a))).join(', ');
}

/** The areas table: areas with the same list share a row; a FORBIDDEN pair is said in its area's row. */
export function areasTable(): string {
  const rows = new Map<string, string[]>();
  for (const [area, allowed] of Object.entries(layers.ALLOWED)) {
    const never = layers.FORBIDDEN.filter((f) => f.from === area).map((f) => `; never ${code(f.to)}: ${f.why}`);
    const text = imports(allowed) + never.join('');
    rows.set(text, [...(rows.get(text) ?? []), area]);
  }
  const lines = ['| area | may import (besides itself) |', '|---|---|'];
  for (const [text, areas] of rows) lines.push(`| ${areas.map(code).join(', ')} | ${cell(text)} |`);
  return [AREAS_BEGIN, ...lines, AREAS_END].join('\n');
}

/** The entries table: one row per entry of ENTRIES. */
export function entriesTable(): string {
  const lines = ['| entry | who may import it | why |', '|---|---|---|'];
  for (const e of layers.ENTRIES) {
    const who = [e.from ? e.from.map(code).join(', ') : 'any area', ...(e.lazy ? ['`await import()` only'] : [])];
    lines.push(`| ${code(e.module)} | ${who.join(', ')} | ${cell(e.why)} |`);
  }
  return [ENTRIES_BEGIN, ...lines, ENTRIES_END].join('\n');
}

/** The kind files table: one row per pattern of KIND_FILES. */
export function kindFilesTable(): string {
  const lines = ['| files | ring | why |', '|---|---|---|'];
  for (const k of layers.KIND_FILES) lines.push(`| ${code(k.file)} | ${code(k.area)} | ${cell(k.why)} |`);
  return [KINDS_BEGIN, ...lines, KINDS_END].join('\n');
}

export const LAYERS: Generated[] = [
  {
    file: FILE,
    from: 'eslint.layers.js (ALLOWED, FORBIDDEN, ENTRIES, KIND_FILES)',
    render: (current) => {
      const areas = replaceSection(FILE, current, AREAS_BEGIN, AREAS_END, areasTable());
      const entries = replaceSection(FILE, areas, ENTRIES_BEGIN, ENTRIES_END, entriesTable());
      return replaceSection(FILE, entries, KINDS_BEGIN, KINDS_END, kindFilesTable());
    },
  },
];
