import type { Config } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { SavedCards } from '../store/index.js';
import {
  CnpEngine,
  typedCardOf,
  type CnpDeliveryPort,
  type CnpEngineDeps,
  type CnpPromptListener,
  type TypedCard,
  type TypedCardFacts,
} from '../engine/index.js';
import { CNP_KINDS, type CnpWiring } from '../factory/index.js';
import type { Held } from './held.js';

/** The daemon's card-not-present sales: the engine, the undo race's port, and the typed card of one request. */
export interface CardNotPresent {
  engine: CnpEngine;
  delivery: CnpDeliveryPort;
  /** The card typed on the pinpad, its brand named or looked up (src/engine/cnp/typed-card.ts); `onPrompt` told each field asked. */
  typedCard(facts: TypedCardFacts, signal?: AbortSignal, onPrompt?: CnpPromptListener): Promise<TypedCard>;
}

/**
 * The card-not-present sales the configuration asks for (`cardNotPresent`, absent by default: none):
 * its kind's backend (the `ecommerce` kind on the acquirer backend's own e-commerce client, the
 * `webservice15` kind on a transport of its own, closed by `held`), and the engine that journals its
 * sales, its recovery run.
 */
export function startCardNotPresent(
  held: Held,
  config: Config,
  wiring: CnpWiring,
  deps: Omit<CnpEngineDeps, 'host'>,
): CardNotPresent | undefined {
  const kind = config.values.cardNotPresent?.kind;
  if (kind === undefined) return undefined;
  const parts = CNP_KINDS[kind](config, wiring);
  held.add('the card-not-present clients', () => parts.close());
  // Saved cards: the host's tokens sealed under the state directory's card-token-key (store/saved-cards.ts).
  const savedCards = SavedCards.open(deps.db, config.values.stateDir);
  const engine = new CnpEngine({ ...deps, host: parts.backend, savedCards });
  held.add('the card-not-present engine', () => engine.stop());
  engine.recover();
  const typing = wiring.typing;
  return {
    engine,
    delivery: parts.delivery,
    typedCard: (facts, signal, onPrompt) => {
      if (!typing)
        return Promise.reject(new OmniposError('NOT_AVAILABLE', 'no pinpad to type the card on', { path: 'pinpad' }));
      return typedCardOf(typing, parts.backend, facts, signal, onPrompt);
    },
  };
}
