import { EcommerceCardNotPresent, EcommerceCnpDelivery, type EcommerceClient } from '../acquirer/index.js';
import type { Config } from '../config/index.js';
import type { CnpDeliveryPort, CardNotPresentBackend } from '../engine/index.js';
import { omniKeys } from './acquirer-urls.js';

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
