/**
 * The factory's public surface (docs/architecture.md "Rings"): what the configuration names, built
 * alike for the daemon (src/main.ts) and the technician's commands (src/cli) without loading the
 * daemon: the acquirer of `acquirer.kind` (its backend, provisioning, probe and request names), its
 * addresses (the embedded sandbox's where it listens) and where the wallet QR codes come from.
 * The devices have theirs in src/adapters (devices.ts).
 */
export {
  acquirerBackend,
  acquirerProbe,
  acquirerProvisioning,
  factoryKinds,
  hostOperationOf,
} from './acquirer-backend.js';
export type { AcquirerKindEntry, BackendWiring, OpenBackend } from './kind-entry.js';
export { omniClientsOf } from '../acquirer/omni/entry.js';
export { acquirerUrls, readInUse, sandboxListenOptions } from './acquirer-urls.js';
export { qrProvider } from './qr-provider.js';
export type { CnpWiring } from './cnp-parts.js';
export { CNP_KINDS } from './cnp-registry.js';
