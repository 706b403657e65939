import { withinAttempts, type SandboxContext } from './context.js';
import { scenario } from './scenario.js';

export type CentsOutcome = 'approved' | 'denied' | 'timeout' | 'error';

/**
 * The public sandbox's rule (docs/sandbox.md, "Outcomes by the amount's cents"): the amount's
 * cents choose an outcome — base+0 approved, base+1 denied, base+2 timeout, base+9 error — for
 * bases 10 (sale), 20 (undo and confirmation), 30 (confirmation of a denied sale), 40 (void) and
 * 50 (void confirmation).
 * Repeats on every attempt (the public sandbox's behaviour, scenario `repeat`), or applies to the
 * first N attempts per `key` only (scenario `first-n`), so a retry can finish.
 */
export function centsOutcome(
  ctx: SandboxContext,
  base: 10 | 20 | 30 | 40 | 50,
  amount: number,
  key: string,
): CentsOutcome | undefined {
  const offset = (amount % 100) - base;
  const outcome = ({ 0: 'approved', 1: 'denied', 2: 'timeout', 9: 'error' } as Record<number, CentsOutcome>)[offset];
  if (!outcome) return undefined;
  const s = scenario(ctx);
  if (s.outcomes === 'repeat') return outcome;
  return withinAttempts(ctx, `${key}:${base}`, s.firstN) ? outcome : undefined;
}

/** True when the sale's cents fall in a band whose outcome belongs to a later operation. */
export function centsBand(amount: number): 10 | 20 | 30 | 40 | 50 | undefined {
  const c = amount % 100;
  if (c >= 10 && c <= 59) return (Math.floor(c / 10) * 10) as 10 | 20 | 30 | 40 | 50;
  return undefined;
}
