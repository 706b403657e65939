import { readFileSync, writeFileSync } from 'node:fs';

export const BEGIN = '<!-- bench:check begin: written by npm run bench:check -- --docs -->';
export const END = '<!-- bench:check end -->';

/**
 * The performance table of a Markdown document, rewritten from bench:check's output: what lies
 * between the two markers is replaced by the table and the conditions it was measured in; the
 * rest of the document is left as it is. A document without both markers, in order, is refused.
 */
export function withDocsTable(doc: string, table: string, conditions: string): string {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`bench:check --docs: the document lacks "${BEGIN}" … "${END}"`);
  return `${doc.slice(0, begin + BEGIN.length)}\n\n${table}\n\n${conditions}.\n\n${doc.slice(end)}`;
}

/** Rewrites the table of the file at `file` in place. */
export function writeDocsTable(file: string, table: string, conditions: string): void {
  writeFileSync(file, withDocsTable(readFileSync(file, 'utf8'), table, conditions));
}
