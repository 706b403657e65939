/**
 * The TEF Dial layout check: every request the independent PDV writes and every status and answer
 * file it reads is checked against the transcription of the public field table
 * (tables/tefdial/fields.json, each row with its source), not against our reading of it, as the
 * API's contract check validates each answer against the OpenAPI document. It imports nothing of
 * src/tefdial.
 */
import { readFileSync } from 'node:fs';

interface FieldRow {
  field: string;
  name: string;
  format: string;
  values?: string[];
  request?: string[];
  status?: boolean;
  answer?: string[];
  lines?: string;
  ours?: boolean;
  source: string[];
  quote: string;
}

interface Table {
  charset: { from: string; to: string };
  fields: FieldRow[];
}

export type FileKind = 'request' | 'status' | 'answer';

const TABLE = JSON.parse(readFileSync(new URL('../../tables/tefdial/fields.json', import.meta.url), 'utf8')) as Table;

/** The row of a key: `029-007` is the row `029-xxx`. */
function rowOf(key: string): FieldRow | undefined {
  return TABLE.fields.find((r) => r.field === key) ?? TABLE.fields.find((r) => r.field === `${key.slice(0, 4)}xxx`);
}

/** Whether `value` has the format: n digits, a any, then a width `7` (exactly) or `..7` (1 to 7). */
function fitsFormat(value: string, format: string): boolean {
  const m = /^([na])(\.\.)?(\d+)?$/.exec(format);
  if (!m) throw new Error(`tables/tefdial/fields.json: no format ${format}`);
  if (m[1] === 'n' && !/^\d+$/.test(value)) return false;
  if (m[3] === undefined) return true;
  const width = Number(m[3]);
  return m[2] ? value.length >= 1 && value.length <= width : value.length === width;
}

function commandsOf(row: FieldRow, kind: FileKind): string[] | 'status' {
  if (kind === 'status') return 'status';
  return (kind === 'request' ? row.request : row.answer) ?? [];
}

/**
 * What is wrong with a file of `kind` by the table: a field the table does not list for its
 * command, a value outside the format's characters or width or outside its value table, a count
 * whose lines are missing or too many, a character outside the charset. Empty: the file fits.
 */
export function layoutFaults(fields: Record<string, string>, kind: FileKind): string[] {
  const faults: string[] = [];
  const command = fields['000-000'] ?? '';
  const lo = parseInt(TABLE.charset.from, 16);
  const hi = parseInt(TABLE.charset.to, 16);
  for (const [key, value] of Object.entries(fields)) {
    if (key === '999-999') continue;
    const row = rowOf(key);
    if (!row) {
      faults.push(`${key}: no such field in the table`);
      continue;
    }
    const cmds = commandsOf(row, kind);
    if (cmds === 'status' ? row.status !== true : !cmds.includes(command))
      faults.push(`${key} (${row.name}): not listed for the ${kind} of ${command}`);
    if ([...value].some((c) => c.charCodeAt(0) < lo || c.charCodeAt(0) > hi))
      faults.push(`${key} (${row.name}): a character outside ASCII ${TABLE.charset.from}h-${TABLE.charset.to}h`);
    if (!fitsFormat(value, row.format))
      faults.push(`${key} (${row.name}): ${JSON.stringify(value)} is not ${row.format}`);
    if (row.values && !row.values.includes(value.replace(/^0+(?=\d)/, '')))
      faults.push(`${key} (${row.name}): ${value} is not in its table (${row.values.join(', ')})`);
    if (row.lines !== undefined && /^\d+$/.test(value)) faults.push(...lineFaults(fields, row.lines, Number(value)));
  }
  return faults;
}

/** A count's lines: `-001` to `-<count>` present, none after. */
function lineFaults(fields: Record<string, string>, line: string, count: number): string[] {
  const faults: string[] = [];
  for (let i = 1; i <= count; i++)
    if (fields[`${line}-${String(i).padStart(3, '0')}`] === undefined)
      faults.push(`${line}-${String(i).padStart(3, '0')}: missing (the count says ${count})`);
  const extra = Object.keys(fields).filter((k) => k.startsWith(`${line}-`) && Number(k.slice(4)) > count);
  for (const k of extra) faults.push(`${k}: beyond the count ${count}`);
  return faults;
}

/** How many files were checked (printed by the tests that use the check). */
export const layoutChecked = { request: 0, status: 0, answer: 0 };

/** Throws, naming each fault, when a file does not fit the table. */
export function checkLayout(fields: Record<string, string>, kind: FileKind): void {
  const faults = layoutFaults(fields, kind);
  layoutChecked[kind]++;
  if (faults.length > 0) throw new Error(`TEF Dial layout (${kind}):\n  ${faults.join('\n  ')}`);
}
