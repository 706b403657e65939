import {
  type Acquirer,
  omniBackend,
  omniOperationOf,
  omniProvisioning,
  type TerminalIdentity,
} from '../acquirer/index.js';
import type { AcquirerKind, Config } from '../config/index.js';
import type { AcquirerBackend, AcquirerProvisioning, HostOperationOf } from '../engine/index.js';
import type { Db, Journal } from '../store/index.js';
import { acquirerFromConfig, acquirerUrls, type AcquirerWiring } from './acquirer-urls.js';
import { ecommerceQrSales, wantedQrProvider } from './qr-provider.js';

/** What every backend is built from besides the configuration. */
export interface BackendWiring {
  /** The acquirer's HTTP clients built from the configuration (`acquirerFromConfig`: its addresses, OAuth, undici dispatcher). */
  acquirer: Acquirer;
  /** The terminal as the sale request names it (`saleIdentity`: the pinpad's serial is read later). */
  terminal: TerminalIdentity;
  /** Told the initialization tables' version a sale answer names (a newer one renews the tables). */
  onTablesVersion: (version: string) => void;
  db: Db;
  journal: Journal;
}

/**
 * What the technician's commands build their acquirer from besides the configuration (no database):
 * the embedded sandbox when one runs here, the clock, the log, the HTTP dispatcher.
 */
export type ProvisioningWiring = AcquirerWiring;

/** One acquirer kind, whole: the daemon's backend, the commands' provisioning, and how its requests are named. */
export interface AcquirerKindEntry {
  backend(config: Config, wiring: BackendWiring): AcquirerBackend;
  provisioning(config: Config, wiring: ProvisioningWiring): AcquirerProvisioning;
  /** The engine's operation of a request to its addresses (the `operation` label of the host's latency metric). */
  operationOf: HostOperationOf;
}

/**
 * The acquirer kinds this build has, by `acquirer.kind` (src/config/schema.ts `ACQUIRER_KINDS`):
 * a kind added there does not compile until it has its line here.
 */
const KINDS: { readonly [K in AcquirerKind]: AcquirerKindEntry } = {
  omni: {
    backend: (config, w) =>
      omniBackend({
        acquirer: w.acquirer,
        terminal: w.terminal,
        onTablesVersion: w.onTablesVersion,
        qrProvider: wantedQrProvider(config, w.acquirer),
        ...(w.acquirer.ecommerce ? { ecommerceQrSales: ecommerceQrSales(w.db, w.journal) } : {}),
      }),
    provisioning: (config, w) =>
      omniProvisioning(acquirerFromConfig(config, w), acquirerUrls(config, w.sandbox).walletUrl),
    operationOf: omniOperationOf,
  },
};

/** The acquirer backend the configuration names (`acquirer.kind`, default `omni`). */
export function acquirerBackend(config: Config, wiring: BackendWiring): AcquirerBackend {
  return KINDS[config.values.acquirer.kind].backend(config, wiring);
}

/**
 * The acquirer the technician's commands talk to (`omnipos init`, `register`, `wallet pay`), as the
 * configuration names it (`acquirer.kind`), without the daemon. The caller closes it.
 */
export function acquirerProvisioning(config: Config, wiring: ProvisioningWiring): AcquirerProvisioning {
  return KINDS[config.values.acquirer.kind].provisioning(config, wiring);
}

/** How the configured acquirer's requests are named by the engine's operations (the daemon's metrics). */
export function hostOperationOf(config: Config): HostOperationOf {
  return KINDS[config.values.acquirer.kind].operationOf;
}
