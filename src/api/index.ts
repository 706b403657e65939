/**
 * The cash register's API, its public surface (docs/architecture.md "Rings"): the handler and its
 * listeners, the event hub, the health view and the receipt service's port. The OpenAPI document
 * stays behind `./reference.js`, loaded at its first request.
 */
export { buildApp, listenApi, type ApiDeps, type Handler } from './app.js';
export { OPERATIONS } from './operations.js';
export { PaymentOwners, type OwnerRows } from './scopes.js';
export { listenApiTls, type TlsListenOptions } from './tls.js';
export {
  AcquirerReach,
  healthView,
  type HealthDeps,
  type HealthSources,
  type KeySlotView,
  type KeySlotsView,
  type PinpadHealthSource,
} from './health.js';
export { EventHub, MAX_REPLAY, type ApiEvent, type EngineEvent, type ReplayOutcome } from './events.js';
export type { ReceiptService, ReceiptsDeps } from './receipts.js';
// The TEF Dial interface reads payments and requests as the API does (src/tefdial).
export { paymentView } from './payment-view.js';
export { PaymentRequest } from './payments.js';
