import {
  type Acquirer,
  acquirerContext,
  omniBackend,
  omniOperationOf,
  omniProvisioning,
  type TerminalIdentity,
} from '../acquirer/index.js';
import type { AcquirerKind, Config } from '../config/index.js';
import type { AcquirerBackend, AcquirerProvisioning, HostOperationOf } from '../engine/index.js';
import type { Db, Journal } from '../store/index.js';
import { acquirerFromConfig, acquirerUrls, type AcquirerWiring } from './acquirer-urls.js';
import { ecommerceCnpParts, type CnpOffers } from './cnp-parts.js';
import { ecommerceQrSales, wantedQrProvider } from './qr-provider.js';

/**
 * What every kind builds its daemon backend from besides the configuration: the generic handles the
 * daemon shares (the embedded sandbox, the host clock, the log, the HTTP dispatcher, told of every
 * answer's Date header) and what the engines need named (the terminal, the tables' version, the store).
 * A kind builds its own clients from these; the daemon never sees them.
 */
export interface BackendWiring extends AcquirerWiring {
  /** The terminal as the sale request names it (`saleIdentity`: the pinpad's serial is read later). */
  terminal: TerminalIdentity;
  /** Told the initialization tables' version a sale answer names (a newer one renews the tables). */
  onTablesVersion: (version: string) => void;
  db: Db;
  journal: Journal;
}

/** A kind's daemon backend and the connections it opened for it (closed when the daemon stops). */
export interface OpenBackend {
  readonly backend: AcquirerBackend;
  /** The card-not-present kinds this backend offers on its own clients (`cardNotPresent.kind`). */
  readonly cardNotPresent?: CnpOffers;
  close(): Promise<void>;
}

/**
 * What the technician's commands build their acquirer from besides the configuration (no database):
 * the embedded sandbox when one runs here, the clock, the log, the HTTP dispatcher.
 */
export type ProvisioningWiring = AcquirerWiring;

/** One acquirer kind, whole: the daemon's backend, the commands' provisioning, and how its requests are named. */
export interface AcquirerKindEntry {
  /** The daemon's backend, its clients built here from the configuration and the wiring. */
  backend(config: Config, wiring: BackendWiring): OpenBackend;
  provisioning(config: Config, wiring: ProvisioningWiring): AcquirerProvisioning;
  /** The engine's operation of a request to its addresses (the `operation` label of the host's latency metric). */
  operationOf: HostOperationOf;
  /**
   * The backend's probe (`AcquirerBackend.probe`: one cheap request that is never a sale) on clients of
   * its own, without the daemon (`omnipos diag`); `where` names the address it asks.
   */
  probe(config: Config, wiring: ProvisioningWiring): OpenProbe;
}

/** A kind's probe, on its own clients (closed by `close`). */
export interface OpenProbe {
  readonly where: string;
  /** Reachable when the host answered HTTP below 500 (a refusal still proves it is there), as the daemon's probe reads it. */
  ask(timeoutMs: number): Promise<ProbeAnswer>;
  close(): Promise<void>;
}

export type ProbeAnswer = { reachable: true; httpStatus: number } | { reachable: false; error: string };

/** A probe's answer from its request's outcome (src/main/acquirer-probe.ts reads errors the same way). */
async function answerOf(ask: Promise<void>): Promise<ProbeAnswer> {
  try {
    await ask;
    return { reachable: true, httpStatus: 200 };
  } catch (e) {
    const ctx = acquirerContext(e);
    if (ctx?.status !== undefined && ctx.transport === undefined && ctx.status < 500)
      return { reachable: true, httpStatus: ctx.status };
    return { reachable: false, error: (e as Error).message };
  }
}

/**
 * The acquirer kinds this build has, by `acquirer.kind` (src/config/acquirer-kinds.ts): a kind added
 * there does not compile until it has its line here.
 */
const KINDS: { readonly [K in AcquirerKind]: AcquirerKindEntry } = {
  omni: {
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
  },
};

/** The kinds the factory builds (every kind of the configuration: `KINDS` is keyed by them). */
export function factoryKinds(): string[] {
  return Object.keys(KINDS);
}

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

/**
 * The acquirer backend the configuration names (`acquirer.kind`, default `omni`), its clients built by its
 * entry; `entry` replaces the configured kind's (a test's stub kind). The caller closes it.
 */
export function acquirerBackend(config: Config, wiring: BackendWiring, entry?: AcquirerKindEntry): OpenBackend {
  return (entry ?? KINDS[config.values.acquirer.kind]).backend(config, wiring);
}

/**
 * The acquirer the technician's commands talk to (`omnipos init`, `register`, `wallet pay`), as the
 * configuration names it (`acquirer.kind`), without the daemon. The caller closes it.
 */
export function acquirerProvisioning(config: Config, wiring: ProvisioningWiring): AcquirerProvisioning {
  return KINDS[config.values.acquirer.kind].provisioning(config, wiring);
}

/** The configured acquirer's probe, on clients of its own (`omnipos diag`). The caller closes it. */
export function acquirerProbe(config: Config, wiring: ProvisioningWiring): OpenProbe {
  return KINDS[config.values.acquirer.kind].probe(config, wiring);
}

/** How the configured acquirer's requests are named by the engine's operations (the daemon's metrics). */
export function hostOperationOf(config: Config): HostOperationOf {
  return KINDS[config.values.acquirer.kind].operationOf;
}
