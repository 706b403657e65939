import { operationOutcome, type Exchange, type Operation } from '../../src/acquirer/omni/outcomes.js';
import type { Delivery } from '../../src/engine/ports.js';

/**
 * The seam: where the code under test decides what a confirm, undo, void confirmation or void undo
 * answer means. The engine's port asks the backend for a `Delivery` (a decision, not a fact), so on
 * this code the decision of those answers lives in the omni adapter's outcome table
 * (`src/acquirer/omni/outcomes.ts`, `operationOutcome`): the explorer feeds it the answer the host
 * model gives — an HTTP status and a body with the manual's fields — and hands the engine what the
 * table decided, as the omni adapter does (`delivered` in src/acquirer/omni/delivery.ts: `query`, an
 * answer that decides nothing, is tried again). Nothing else of src/acquirer is used: the host's
 * states, the sale's answers and the queries are the model's, in the engine's words.
 */
export type HostAnswer =
  { kind: 'answer'; status: number; body: unknown } | { kind: 'transport'; failure: 'timeout' | 'lost' | 'not-sent' };

export function decide(op: Operation, answer: HostAnswer): Delivery {
  const exchange: Exchange = answer;
  const o = operationOutcome(op, exchange);
  return { action: o.action === 'query' ? 'retry' : o.action, reason: o.reason };
}
