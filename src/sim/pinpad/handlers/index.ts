import type { SimHandler } from '../engine.js';
import { SIM_COMMANDS } from '../spec/commands.js';
import { dex, dsp, gcd } from './basic.js';
import { clo, clx, gin, gix, opn } from './control.js';
import { CARD_ABECS_HANDLERS, CARD_CLASSIC_HANDLERS } from '../card/index.js';

/** Every command the virtual pinpad answers. */
const ALL_HANDLERS: ReadonlyMap<string, SimHandler> = new Map([
  ['OPN', opn],
  ['CLO', clo],
  ['GIN', gin],
  ['DSP', dsp],
  ['DEX', dex],
  ['GIX', gix],
  ['CLX', clx],
  ['GCD', gcd],
  ...CARD_CLASSIC_HANDLERS, // GPN, RMC, TLI, TLR, TLE and the obsolete card commands
  ...CARD_ABECS_HANDLERS, // GCX, GTK, GOX, FCX, EBX, CEX, MNU, MLI, MLR, MLE, DSI
]);

/** Ticked "Abecs" in the specification's tables (spec/commands.ts): "todos os comandos novos desta especificação (não contemplados em BibComp)" (§3.1.3). */
const isAbecs = (id: string): boolean => SIM_COMMANDS.get(id)?.abecs === true;

/**
 * The commands every pinpad takes, a classic one too: those not ticked Abecs, as BibComp has them.
 * DEX is one (§3.3's table leaves its Abecs box empty, "Extended" though it is named).
 */
export const CLASSIC_HANDLERS: ReadonlyMap<string, SimHandler> = new Map(
  [...ALL_HANDLERS].filter(([id]) => !isAbecs(id)),
);

/** What a current pinpad adds: the Abecs commands. */
export const ABECS_HANDLERS: ReadonlyMap<string, SimHandler> = new Map([...ALL_HANDLERS].filter(([id]) => isAbecs(id)));

/** The handler map for a profile: classic-only pinpads answer ERR010 to every Abecs command (§3.2.2), EBX included. */
export function handlersFor(
  classicOnly: boolean,
  extra: ReadonlyMap<string, SimHandler> = new Map(),
): Map<string, SimHandler> {
  return new Map([...CLASSIC_HANDLERS, ...(classicOnly ? [] : [...ABECS_HANDLERS]), ...extra]);
}
