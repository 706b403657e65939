import {
  EcommerceCardNotPresent,
  EcommerceCnpDelivery,
  Webservice15CardNotPresent,
  Webservice15CnpDelivery,
  Ws15Transport,
} from '../acquirer/index.js';
import type { Config } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { SavedCards } from '../store/index.js';
import {
  CnpEngine,
  type AcquirerDeliveryPort,
  type CardNotPresentBackend,
  type CnpEngineDeps,
} from '../engine/index.js';
import { acquirerFromConfig, omniKeys, type AcquirerWiring } from './acquirer-urls.js';
import type { Held } from './held.js';

type CnpKind = NonNullable<Config['values']['cardNotPresent']>['kind'];

/** A card-not-present backend and the delivery port its undo race runs on, with the clients it opened. */
export interface CnpParts {
  backend: CardNotPresentBackend;
  delivery: AcquirerDeliveryPort;
  close(): Promise<void>;
}

/**
 * The backends by `cardNotPresent.kind` (src/config/schema.ts `CARD_NOT_PRESENT_KINDS`): a kind
 * added there does not compile until it has its line here.
 */
const KINDS: { readonly [K in CnpKind]: (config: Config, wiring: AcquirerWiring) => CnpParts } = {
  // The JSON e-commerce API on the acquirer's e-commerce credentials and addresses (those Pix uses).
  ecommerce: (config, wiring) => {
    const acquirer = acquirerFromConfig(config, wiring);
    const client = acquirer.ecommerce;
    if (!client) {
      void acquirer.close().catch(() => undefined);
      throw new OmniposError(
        'CONFIG_INVALID',
        'cardNotPresent: ecommerce needs the e-commerce credentials (acquirer.omni.merchantId and acquirer.omni.merchantKeyFile)',
        { path: 'cardNotPresent' },
      );
    }
    const soft = config.values.terminal.softDescriptor;
    const backend = new EcommerceCardNotPresent(client, {
      ...(soft ? { softDescriptor: soft } : {}),
      timeoutMs: omniKeys(config).timeoutMs,
    });
    return { backend, delivery: new EcommerceCnpDelivery(client, backend), close: () => acquirer.close() };
  },
  // The XML webservice 1.5 on its own endpoint, affiliation and key (config/card-not-present-webservice15.ts).
  webservice15: (config, wiring) => {
    const cnp = config.values.cardNotPresent;
    const key = config.secrets.webservice15Key;
    if (cnp?.kind !== 'webservice15' || !key)
      throw new OmniposError('CONFIG_INVALID', 'cardNotPresent: webservice15 needs its keyFile', {
        path: 'cardNotPresent.keyFile',
      });
    const transport = new Ws15Transport({ url: cnp.url, timeoutMs: cnp.timeoutMs, log: wiring.log });
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
 * its kind's backend, built on the daemon's wiring (its clients closed by `held`), and the engine
 * that journals its sales, its recovery run.
 */
export function startCardNotPresent(
  held: Held,
  config: Config,
  wiring: AcquirerWiring,
  deps: Omit<CnpEngineDeps, 'host'>,
): { engine: CnpEngine; delivery: AcquirerDeliveryPort } | undefined {
  const kind = config.values.cardNotPresent?.kind;
  if (kind === undefined) return undefined;
  const parts = KINDS[kind](config, wiring);
  held.add('the card-not-present clients', () => parts.close());
  // Saved cards: the host's tokens sealed under the state directory's card-token-key (store/saved-cards.ts).
  const savedCards = SavedCards.open(deps.db, config.values.stateDir);
  const engine = new CnpEngine({ ...deps, host: parts.backend, savedCards });
  held.add('the card-not-present engine', () => engine.stop());
  engine.recover();
  return { engine, delivery: parts.delivery };
}
