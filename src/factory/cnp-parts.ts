import { EcommerceCardNotPresent, EcommerceCnpDelivery, type EcommerceClient } from '../acquirer/index.js';
import type { Config } from '../config/index.js';
import type { CnpDeliveryPort, CardNotPresentBackend, TypedCardReader } from '../engine/index.js';
import { omniKeys, type AcquirerWiring } from './acquirer-urls.js';

/** A card-not-present backend and the delivery port its undo race runs on, with the clients it opened. */
export interface CnpParts {
  backend: CardNotPresentBackend;
  delivery: CnpDeliveryPort;
  close(): Promise<void>;
}

/**
 * The card-not-present kinds an acquirer backend offers on its own clients (the omni entry: the JSON
 * e-commerce API on the e-commerce client its Pix and QR sales already use), so no second set is built.
 */
export interface CnpOffers {
  ecommerce?: () => CnpParts;
}

/**
 * The `ecommerce` card-not-present parts on an e-commerce client that another part owns (the omni
 * backend's): closing them closes nothing, the owner closes its clients.
 */
export function ecommerceCnpParts(config: Config, client: EcommerceClient): CnpParts {
  const soft = config.values.terminal.softDescriptor;
  const backend = new EcommerceCardNotPresent(client, {
    ...(soft ? { softDescriptor: soft } : {}),
    timeoutMs: omniKeys(config).timeoutMs,
  });
  return { backend, delivery: new EcommerceCnpDelivery(client, backend), close: () => Promise.resolve() };
}

/** What the card-not-present kinds are built on besides the configuration. */
export interface CnpWiring extends Pick<AcquirerWiring, 'log'> {
  /** The kinds the acquirer backend offers on its own clients (omni: `ecommerce`). */
  offers?: CnpOffers | undefined;
  /** Where the embedded sandbox's webservice 1.5 host listens, when it runs (src/main/sandbox-host.ts). */
  webservice15Url?: string | undefined;
  /** Where a phone order's card is typed (the pinpad's keys); absent: no typed sale (`typedCard` refuses). */
  typing?: TypedCardReader | undefined;
}

/**
 * One card-not-present kind's factory entry (src/acquirer/<kind>/cnp-entry.ts, listed in the generated
 * src/factory/cnp-registry.ts): its backend and delivery port from the configuration and the wiring.
 */
export type CnpKindEntry = (config: Config, wiring: CnpWiring) => CnpParts;
