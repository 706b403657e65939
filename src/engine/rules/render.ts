import { RULEBOOK } from './rulebook.js';
import type { Rule } from './vocabulary.js';

/** Markers around the rulebook's table in docs/decisions.md. */
export const RULEBOOK_BEGIN =
  '<!-- rulebook: generated from src/engine/rules/book.ts (renderRulebook); do not edit -->';
export const RULEBOOK_END = '<!-- /rulebook -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function decision(rule: Rule): string {
  return rule.body !== undefined ? `${rule.decision} (its own 2xx body: ${rule.body})` : rule.decision;
}

/**
 * The rulebook as one Markdown table: operation × host answer → decision, why, and the manual's
 * line. docs/decisions.md holds it between RULEBOOK_BEGIN and RULEBOOK_END; a test checks it is
 * exactly this.
 */
export function renderRulebook(): string {
  const rows: string[] = [
    RULEBOOK_BEGIN,
    '',
    '| operation | host answer | decision | why | manual |',
    '|---|---|---|---|---|',
  ];
  for (const [operation, table] of Object.entries(RULEBOOK) as [string, Record<string, Rule>][])
    for (const [answer, rule] of Object.entries(table))
      rows.push(`| \`${operation}\` | \`${answer}\` | ${decision(rule)} | ${cell(rule.why)} | ${cell(rule.source)} |`);
  rows.push('', RULEBOOK_END);
  return rows.join('\n');
}
