import type { SimContext } from '../engine.js';
import type { CardSim } from './state.js';
import { pause, waitNothing } from './kit.js';

/**
 * The customer at a PIN prompt, as the deck says: the card's right PIN (after the deck's delay),
 * other digits, CANCEL, or nothing (until SPE_TIMEOUT, CAN or another command). 'keys' on the
 * deck is not needed: digits typed through the engine's `keys` control come first when queued.
 */
export async function enterPin(
  ctx: SimContext,
  sim: CardSim,
  rightPin: string,
  timeoutS: number | undefined,
  prompt: string,
): Promise<{ pin: string } | { status: 'cancel' | 'timeout' | 'aborted' }> {
  ctx.state.display = prompt.split('\r').slice(0, 2);
  ctx.notify(prompt);
  const entry = sim.deck.pin;
  if (entry.kind === 'nothing') {
    const r = await waitNothing(ctx, timeoutS);
    return { status: r };
  }
  if (await pause(sim.deck.delayMs, ctx)) return { status: 'aborted' };
  if (entry.kind === 'cancel') return { status: 'cancel' };
  return { pin: entry.kind === 'digits' ? entry.digits : rightPin };
}
