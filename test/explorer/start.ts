import type { Chooser } from './search.js';

/**
 * Host times a payment may start at (America/Sao_Paulo, UTC-3): half an hour before the close (the
 * undo race still undoes by order id; an earlier start only adds retries of the same kind), in the
 * close's margin, seconds before it.
 */
const STARTS = {
  '23:30, half an hour before the close': '2026-11-21T02:30:00.000Z',
  '23:58, inside the close margin': '2026-11-21T02:58:00.000Z',
  '23:59:50, seconds before the close': '2026-11-21T02:59:50.000Z',
} as const;

export function startAt(chooser: Chooser): string {
  const at = chooser.choose('the payment starts', Object.keys(STARTS) as (keyof typeof STARTS)[], () => 'start');
  return STARTS[at];
}

/** Lets the engine's background work (the Pix watch) run until `done` holds. */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setImmediate(r));
}
