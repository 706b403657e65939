import { type Acquirer, omniBackend, type TerminalIdentity } from '../acquirer/index.js';
import type { AcquirerKind, Config } from '../config/index.js';
import type { AcquirerBackend } from '../engine/index.js';
import type { Db, Journal } from '../store/index.js';
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
 * The acquirer backends this build has, by `acquirer.kind` (src/config/schema.ts `ACQUIRER_KINDS`):
 * a kind added there does not compile until it has its line here.
 */
const BACKENDS: { readonly [K in AcquirerKind]: (config: Config, w: BackendWiring) => AcquirerBackend } = {
  omni: (config, w) =>
    omniBackend({
      acquirer: w.acquirer,
      terminal: w.terminal,
      onTablesVersion: w.onTablesVersion,
      qrProvider: wantedQrProvider(config, w.acquirer),
      ...(w.acquirer.ecommerce ? { ecommerceQrSales: ecommerceQrSales(w.db, w.journal) } : {}),
    }),
};

/** The acquirer backend the configuration names (`acquirer.kind`, default `omni`). */
export function acquirerBackend(config: Config, wiring: BackendWiring): AcquirerBackend {
  return BACKENDS[config.values.acquirer.kind](config, wiring);
}
