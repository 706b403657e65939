import { type Acquirer, omniBackend, omniOperationOf, omniProvisioning } from '../index.js';
import type { AcquirerBackend } from '../../engine/index.js';
import { acquirerFromConfig, acquirerUrls } from '../../factory/acquirer-urls.js';
import { ecommerceCnpParts } from '../../factory/cnp-parts.js';
import { answerOf, type AcquirerKindEntry } from '../../factory/kind-entry.js';
import { ecommerceQrSales, wantedQrProvider } from '../../factory/qr-provider.js';

/*
 * The omni kind's factory entry (the factory ring's, though it lives in its kind's folder: eslint.layers.js
 * KIND_FILES): its clients built from `acquirer.omni` and the wiring, the backend, provisioning and probe on them.
 */

/** The omni clients behind each omni backend this process built (read by {@link omniClientsOf} only). */
const OMNI_CLIENTS = new WeakMap<AcquirerBackend, Acquirer>();

/**
 * The omni clients behind a backend the omni entry built (a daemon's `backend`), for the tests and tools
 * that speak to the omni host directly; throws for any other backend. Nothing in the daemon reads it.
 */
export function omniClientsOf(backend: AcquirerBackend): Acquirer {
  const clients = OMNI_CLIENTS.get(backend);
  if (!clients) throw new Error(`the ${backend.kind} backend was not built by the omni entry: it has no omni clients`);
  return clients;
}

/** The omni kind, whole: its daemon backend, the commands' provisioning, its probe and its requests' names. */
export const OMNI_ENTRY: AcquirerKindEntry = {
  backend: (config, w) => {
    const acquirer = acquirerFromConfig(config, w);
    try {
      const backend = omniBackend({
        acquirer,
        terminal: w.terminal,
        onTablesVersion: w.onTablesVersion,
        qrProvider: wantedQrProvider(config, acquirer),
        ...(acquirer.ecommerce ? { ecommerceQrSales: ecommerceQrSales(w.db, w.journal) } : {}),
      });
      OMNI_CLIENTS.set(backend, acquirer);
      const ecommerce = acquirer.ecommerce;
      // The JSON e-commerce API's card-not-present sales run on the same e-commerce client as its QR sales.
      const cardNotPresent = ecommerce ? { ecommerce: () => ecommerceCnpParts(config, ecommerce) } : {};
      return { backend, cardNotPresent, close: () => acquirer.close() };
    } catch (e) {
      void acquirer.close().catch(() => undefined);
      throw e;
    }
  },
  provisioning: (config, w) =>
    omniProvisioning(acquirerFromConfig(config, w), acquirerUrls(config, w.sandbox).walletUrl),
  operationOf: omniOperationOf,
  probe: (config, w) => {
    const acquirer = acquirerFromConfig(config, w);
    return {
      where: acquirerUrls(config, w.sandbox).authUrl,
      ask: (timeoutMs) => answerOf(acquirer.tokens.refresh('transactional', timeoutMs)),
      close: () => acquirer.close(),
    };
  },
};
