/**
 * The cash register's API, its public surface (docs/architecture.md "Rings"): the handler and its
 * listeners, the event hub, the health view and the receipt service's port. The OpenAPI document
 * stays behind `./reference.js`, loaded at its first request.
 */
export { buildApp, listenApi, type ApiDeps, type Handler } from './app.js';
export { PaymentOwners } from './scopes.js';
export { listenApiTls } from './tls.js';
export { AcquirerReach, healthView, type HealthDeps, type KeySlotView, type KeySlotsView } from './health.js';
export { EventHub } from './events.js';
export type { ReceiptService } from './receipts.js';
// The TEF Dial interface reads payments and requests as the API does (src/tefdial).
export { paymentView } from './payment-view.js';
export { PaymentRequest } from './payments.js';
