/**
 * The acquirer's public surface (docs/architecture.md "Rings"): the clients of the acquirer's APIs
 * (terminal, e-commerce, wallet), their outcomes, and the omni backend that implements the engine's
 * ports (src/engine/ports.ts). Other areas import the acquirer only through this file.
 */
export { ROUTES, matchRoute, type RouteName } from './omni/routes.js';
export { EcommerceClient, type CardBinAnswer } from './ecommerce-client.js';
export { httpError, isOutcomeUnknown, acquirerContext } from './errors.js';
export * from './omni/outcomes.js';
export { saleOwnership, findOurSale, type OurSale } from './omni/ownership.js';
export type * from './omni/types.js';

export { createAcquirer, type Acquirer, type AcquirerSettings } from './create.js';
export { omniBackend, omniQrRouting, type EcommerceQrSales } from './omni/backend.js';
export { type TerminalIdentity } from './omni/sale.js';
export { omniProvisioning, terminalRegistration, storeRegistration } from './omni/provisioning.js';
export { technicalParameter, NOT_PRESENT } from './omni/technical.js';
export { omniOperationOf, OPERATION_OF_ROUTE } from './omni/operations.js';
export { EcommerceCardNotPresent } from './ecommerce/backend.js';
export { EcommerceCnpDelivery } from './ecommerce/delivery.js';
