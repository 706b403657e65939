import type { Table } from './vocabulary.js';

/**
 * A partial void of a card-not-present sale whose answer was lost (`cnp.void-part`): never sent
 * twice (a captured sale takes many partial voids, ecom:6283, so a second one would give back
 * twice); the query of the sale shows whether it took, by the amount the host shows voided.
 */
export type PartialVoidAnswer =
  /** The host shows voided at least what was voided before plus this part. */
  | 'applied'
  /** The host shows the sale voided whole (10, 11; the webservice's 9). */
  | 'voided-whole'
  /** The host shows the sale captured with less voided, or does not show it: not applied yet. */
  | 'not-shown'
  | 'unknown';

export const CNP_VOID_PART: Table<PartialVoidAnswer> = {
  applied: {
    decision: 'done',
    why: 'the part is voided: the sale stays captured for the rest',
    source: 'ecom:6313-6330 (a partial void answers Status 2 with VoidedAmount); ws15:1460 (stays 6)',
  },
  'voided-whole': {
    decision: 'done',
    why: 'voided whole at the host: nothing more is charged (the row ends voided, as the host shows it)',
    source: 'ecom:7375-7376 (10, 11); ws15:1460 ("9 – Cancelada")',
  },
  'not-shown': {
    decision: 'visibility',
    why: "not shown applied yet: never sent again, never final before the close of the void's day and its window; then dead-lettered (a person decides)",
    source: 'none: the manual does not say how late a void becomes visible to the query (docs/decisions.md, questions)',
  },
  unknown: {
    decision: 'query',
    why: 'a state no row reads',
    source: 'none: an answer no documented row reads; query, never guess',
  },
};
