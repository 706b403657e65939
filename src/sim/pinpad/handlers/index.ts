import type { SimHandler } from '../engine.js';
import { dex, dsp, gcd } from './basic.js';
import { clo, clx, gin, gix, opn } from './control.js';
import { CARD_ABECS_HANDLERS, CARD_CLASSIC_HANDLERS } from '../card/index.js';

/** Commands every virtual pinpad knows (the classic set and those a classic pinpad also has). */
export const CLASSIC_HANDLERS: ReadonlyMap<string, SimHandler> = new Map([
  ['OPN', opn],
  ['CLO', clo],
  ['GIN', gin],
  ['DSP', dsp],
  ...CARD_CLASSIC_HANDLERS, // GPN, RMC, TLI, TLR, TLE
]);

/**
 * What a current pinpad adds: the Abecs commands (the card and multimedia ones come from card/index.ts)
 * and DEX, which §3.3's table does not tick Abecs but which the older pinpad modelled here lacks.
 */
export const ABECS_HANDLERS: ReadonlyMap<string, SimHandler> = new Map([
  ['GIX', gix],
  ['CLX', clx],
  ['DEX', dex],
  ['GCD', gcd],
  ...CARD_ABECS_HANDLERS, // GCX, GTK, GOX, FCX, EBX, CEX, MNU, MLI, MLR, MLE, DSI
]);

/** The handler map for a profile: classic-only pinpads answer ERR010 to every Abecs command (§3.2.2), EBX included. */
export function handlersFor(
  classicOnly: boolean,
  extra: ReadonlyMap<string, SimHandler> = new Map(),
): Map<string, SimHandler> {
  return new Map([...CLASSIC_HANDLERS, ...(classicOnly ? [] : [...ABECS_HANDLERS]), ...extra]);
}
