import type { CnpPromptCode, CnpSaveOutcome, SavedCardShown } from '../cnp-ports.js';
import type { CnpStateName } from './types.js';

/** A card saved alone: its view (never the token), `again` when an Idempotency-Key had saved it already. */
export type CnpSavedCard =
  { kind: 'saved'; card: SavedCardShown; again?: true } | Exclude<CnpSaveOutcome, { kind: 'saved' }>;

/** What the card-not-present engine tells the event stream. */
export type CnpEvent =
  | { type: 'state'; id: number; merchantOrderId: string; state: CnpStateName; input: string }
  | { type: 'alarm'; id: number; code: string; message: string }
  /**
   * Which field the pinpad asks for while the card is typed: before the row opens, so `id` is
   * {@link NO_ROW_YET} (the terminal holds one payment at a time); the request's Idempotency-Key when it had one.
   */
  | {
      type: 'prompt';
      kind: 'cnp';
      id: typeof NO_ROW_YET;
      prompt: CnpPromptCode;
      text: string;
      idempotencyKey?: string;
    };

/** The `id` of an event told before its payment's row opens (as an alarm of no payment's, src/main/start-engines.ts). */
export const NO_ROW_YET = -1;
