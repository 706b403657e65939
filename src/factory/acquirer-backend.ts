import type { Config } from '../config/index.js';
import type { HostOperationOf, AcquirerProvisioning } from '../engine/index.js';
import { KINDS } from './acquirer-registry.js';
import type { AcquirerKindEntry, BackendWiring, OpenBackend, OpenProbe, ProvisioningWiring } from './kind-entry.js';

/** The kinds the factory builds (every kind of the configuration: `KINDS` is keyed by them). */
export function factoryKinds(): string[] {
  return Object.keys(KINDS);
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
