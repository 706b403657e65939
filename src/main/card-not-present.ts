import { Webservice15CardNotPresent, Webservice15CnpDelivery, Ws15Transport } from '../acquirer/index.js';
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
  type TypedCardReader,
} from '../engine/index.js';
import type { AcquirerWiring } from '../factory/index.js';
import type { CnpOffers, CnpParts } from '../factory/index.js';
import type { Held } from './held.js';

type CnpKind = NonNullable<Config['values']['cardNotPresent']>['kind'];

/** What the card-not-present kinds are built on besides the configuration. */
export interface CnpWiring extends Pick<AcquirerWiring, 'log'> {
  /** The kinds the acquirer backend offers on its own clients (omni: `ecommerce`). */
  offers?: CnpOffers | undefined;
  /** Where the embedded sandbox's webservice 1.5 host listens, when it runs (src/main/sandbox-host.ts). */
  webservice15Url?: string | undefined;
  /** Where a phone order's card is typed (the pinpad's keys); absent: no typed sale (`typedCard` refuses). */
  typing?: TypedCardReader | undefined;
}

/** The daemon's card-not-present sales: the engine, the undo race's port, and the typed card of one request. */
export interface CardNotPresent {
  engine: CnpEngine;
  delivery: CnpDeliveryPort;
  /** The card typed on the pinpad, its brand named or looked up (src/engine/cnp/typed-card.ts); `onPrompt` told each field asked. */
  typedCard(facts: TypedCardFacts, signal?: AbortSignal, onPrompt?: CnpPromptListener): Promise<TypedCard>;
}

/**
 * The backends by `cardNotPresent.kind` (src/config/card-not-present-kinds.ts `CNP_CONFIG`): a kind
 * added there does not compile until it has its line here.
 */
const KINDS: { readonly [K in CnpKind]: (config: Config, wiring: CnpWiring) => CnpParts } = {
  // The JSON e-commerce API on the e-commerce client the acquirer backend already holds (that of Pix and QR).
  ecommerce: (_config, wiring) => {
    const offered = wiring.offers?.ecommerce;
    if (!offered)
      throw new OmniposError(
        'CONFIG_INVALID',
        'cardNotPresent: ecommerce needs the e-commerce credentials (acquirer.omni.merchantId and acquirer.omni.merchantKeyFile)',
        { path: 'cardNotPresent' },
      );
    return offered();
  },
  // The XML webservice 1.5 on its own endpoint, affiliation and key (config/card-not-present-webservice15.ts).
  webservice15: (config, wiring) => {
    const cnp = config.values.cardNotPresent;
    // Its secrets under its kind (config/card-not-present-kinds.ts): the store's access key.
    const secrets = config.secrets.cardNotPresent;
    const key = secrets?.kind === 'webservice15' ? secrets.webservice15.key : undefined;
    if (cnp?.kind !== 'webservice15' || !key)
      throw new OmniposError('CONFIG_INVALID', 'cardNotPresent: webservice15 needs its keyFile', {
        path: 'cardNotPresent.keyFile',
      });
    const url = wiring.webservice15Url ?? cnp.url;
    const transport = new Ws15Transport({ url, timeoutMs: cnp.timeoutMs, log: wiring.log });
    const soft = config.values.terminal.softDescriptor;
    const backend = new Webservice15CardNotPresent((m, what) => transport.post(m, what), {
      affiliation: cnp.affiliation,
      key: key.reveal(),
      ...(soft ? { softDescriptor: soft } : {}),
    });
    return { backend, delivery: new Webservice15CnpDelivery(backend), close: () => transport.close() };
  },
};

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
  const parts = KINDS[kind](config, wiring);
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
