import { acquirerContext, type TerminalIdentity } from '../acquirer/index.js';
import type { Config } from '../config/index.js';
import type { AcquirerBackend, AcquirerProvisioning, HostOperationOf } from '../engine/index.js';
import type { Db, Journal } from '../store/index.js';
import type { AcquirerWiring } from './acquirer-urls.js';
import type { CnpOffers } from './cnp-parts.js';

/*
 * What an acquirer kind's factory entry is (src/acquirer/<kind>/entry.ts, listed for the factory in the
 * generated acquirer-registry.ts): what it is given, what it builds.
 */

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
export async function answerOf(ask: Promise<void>): Promise<ProbeAnswer> {
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
