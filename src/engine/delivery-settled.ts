import type { AlarmCode } from '../core/index.js';
import type { AlarmEffect, DeliveredInput } from './machine-vocabulary.js';

/** Where a delivered request leaves its operation: the state, the transition's label, the patch and the alarms. */
export interface DeliverySettled<To extends string> {
  to: To | 'dead-letter';
  label: string;
  /** `hostShows`: what the query that gave the request up showed of the sale, when it did (Delivery.shown). */
  patch: { reason?: string; hostShows?: NonNullable<DeliveredInput['shown']> };
  effects: AlarmEffect[];
}

/** The alarm raised when the outbox gives a request up: its code and what the message names (the reason follows). */
export interface GivenUp {
  code: AlarmCode;
  about: string;
}

/**
 * How a request that ends its operation settles once the outbox is done with it, for every machine that sends
 * one (a sale's confirmation; a void's confirmation, undo and refund): delivered → `to` (labelled
 * "`request` delivered"); given up → `dead-letter`, the reason kept and the alarm raised (labelled "`request`
 * dead-letter", with what the host showed of the sale when it gave it up: `hostShows`, which the day report
 * reads as every kind's dead letter). A sale's undo race has its own ending (./undo-settled.ts).
 */
export function deliverySettled<To extends string>(
  input: DeliveredInput,
  request: string,
  to: To,
  givenUp: GivenUp,
): DeliverySettled<To> {
  if (input.action === 'done') return { to, label: `${request} delivered`, patch: {}, effects: [] };
  return {
    to: 'dead-letter',
    label: `${request} ${input.action}`,
    patch: { reason: input.reason, ...(input.shown ? { hostShows: input.shown } : {}) },
    effects: [{ kind: 'alarm', code: givenUp.code, message: `${givenUp.about}: ${input.reason}` }],
  };
}
