import type { SimHandler } from '../engine.js';
import { dsi, mle, mli, mlr, tle, tli, tlr } from './admin.js';
import { fcx, gox } from './chip.js';
import { cex, ebx, gcx, gpn, gtk, mnu, rmc } from './read.js';
import { cke, fnc, gcr, goc, gts } from './classic.js';

/** The virtual pinpad's card, table and multimedia commands. */

/** Classic (fixed-field) ones: a classic pinpad has them too. */
export const CARD_CLASSIC_HANDLERS: ReadonlyMap<string, SimHandler> = new Map([
  ['GPN', gpn],
  ['RMC', rmc],
  ['TLI', tli],
  ['TLR', tlr],
  ['TLE', tle],
  // the obsolete card commands (§3.6, §3.5.1, §3.3.3): every pinpad still answers them (§3.1.2)
  ['GCR', gcr],
  ['GOC', goc],
  ['FNC', fnc],
  ['GTS', gts],
  ['CKE', cke],
]);

/** Abecs (PARID) ones. */
export const CARD_ABECS_HANDLERS: ReadonlyMap<string, SimHandler> = new Map([
  ['GCX', gcx],
  ['GTK', gtk],
  ['GOX', gox],
  ['FCX', fcx],
  ['EBX', ebx],
  ['CEX', cex],
  ['MNU', mnu],
  ['MLI', mli],
  ['MLR', mlr],
  ['MLE', mle],
  ['DSI', dsi],
]);

export { cardSim } from './state.js';
export { CardDeck, findCard, deckListing, type CardChoice } from './deck.js';
export { SimTables } from './tables.js';
export { SimDukpt, packTrack } from './keys.js';

import type { SimState } from '../engine.js';
import { cardSim as simOf } from './state.js';

/** PP_TABVERnn (9300h + nn, §3.1.3.2) for GIX: the version of the network's tables in force, if any. */
export function tableVersionValue(state: SimState, id: number): string | undefined {
  if (id < 0x9300 || id > 0x9363) return undefined;
  return simOf(state).tables.version(String(id - 0x9300).padStart(2, '0'));
}
