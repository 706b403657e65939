import { FINAL_DECISIONS, type Rule, type Table } from './vocabulary.js';

/**
 * The rules every table obeys, written once:
 * - the table decides on what the host SHOWS (a query, or a 2xx body), never on an HTTP status or
 *   a return code alone;
 * - "a 2xx whose body says otherwise": a 2xx body decides only when it shows a final state; any
 *   other body (still pending, unreadable, empty) is `query`: the host's query decides;
 * - "an answer we cannot classify": `query`, never a guess (the `unknown` row of every table).
 */

/** The row for what a query showed. */
export function decide<A extends string>(table: Table<A>, answer: A): Rule {
  return table[answer];
}

/** The row for what a 2xx body showed: final rows stand; any other is `query`. */
export function decideBody<A extends string>(table: Table<A>, answer: A): Rule {
  const rule = table[answer];
  if (rule.body !== undefined) return { ...rule, decision: rule.body };
  return FINAL_DECISIONS.has(rule.decision)
    ? rule
    : { decision: 'query', why: `a 2xx whose body says otherwise (${rule.why}): query`, source: rule.source };
}
