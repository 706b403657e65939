import type { HostSaleState, PixChargeStatus } from '../ports.js';

/**
 * The words of the rulebook: what the host can show of each money operation (in the engine's
 * terms: the acquirer backend maps its numbers to them, each mapping citing the manual), and what
 * the terminal then does. Pure data, no I/O.
 */

/** A sale as a query or a 2xx body shows it, or not shown at all (`not-found`: never final by itself). */
export type SaleAnswer = HostSaleState | 'not-found';

/**
 * A void as its 2xx body or its query shows it: `CancellationStatus` "0 = Não Finalizado 1 =
 * Autorizado 2 = Negado 3 = Confirmado 4 = Desfeito" (pt:8111), or not shown (`not-found`).
 */
export type VoidAnswer = 'not-finished' | 'authorized' | 'denied' | 'confirmed' | 'undone' | 'not-found' | 'unknown';

/** A Pix charge as its query shows it (the backend maps 12, 2, 10, 11). */
export type PixAnswer = PixChargeStatus;

/**
 * The answer to a Pix refund request (`PUT /1/sales/{PaymentId}/void`): `accepted` when its body
 * says so (`ReasonCode` 0, ecom:1976), `refused` when its body or a 4xx names another reason
 * (e.g. "Lojista com saldo insuficiente para devolução", ecom:1948), `not-sent` when it never left
 * (or the host refused our credentials before reading it), `unknown` when it cannot tell.
 */
export type RefundAnswer = 'accepted' | 'refused' | 'not-sent' | 'unknown';

/**
 * What the terminal does on an answer:
 * - `done`: final; nothing more to send.
 * - `needs-refund`: the money stayed with the merchant (confirmed at the host): alarm, and a refund.
 * - `dead-letter`: the host shows a state this operation cannot reach by itself: alarm, a person decides.
 * - `retry`: the host is still moving: ask again later.
 * - `query`: the answer decides nothing: ask the host's query, never guess.
 * - `undo`: still pending at the host: undo it by its id (safe to repeat).
 * - `visibility`: not found: the visibility rule decides (rules/visibility.ts).
 * - `void`: ask the host to void it (a cancel of an unpaid charge, a refund of a paid one).
 * - `watch`: nothing yet; look again until the watch ends.
 * - `alarm`: final for the terminal, with an alarm of its own (a refund the provider refused).
 */
export type Decision =
  'done' | 'needs-refund' | 'dead-letter' | 'retry' | 'query' | 'undo' | 'visibility' | 'void' | 'watch' | 'alarm';

/** One row: the decision, why, and the manual's page and line it comes from ("pt", "ecom", "qr"). */
export interface Rule {
  decision: Decision;
  /**
   * The decision when the answer is the operation's own 2xx body and it differs from the
   * query's (rules/shared.ts `decideBody`): where a documented example contradicts its table.
   */
  body?: Decision;
  why: string;
  source: string;
}

/** A table: every answer of its vocabulary has exactly one row (a new answer does not compile without one). */
export type Table<A extends string> = { readonly [K in A]: Rule };

/** The decisions that end an operation: nothing more is sent for it. */
export const FINAL_DECISIONS: ReadonlySet<Decision> = new Set<Decision>([
  'done',
  'needs-refund',
  'dead-letter',
  'alarm',
]);
