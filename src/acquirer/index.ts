/**
 * The acquirer's public surface (docs/architecture.md "Rings"): the clients of the acquirer's APIs
 * (terminal, e-commerce, wallet), their outcomes, and the omni backend that implements the engine's
 * ports (src/engine/ports.ts). Other areas import the acquirer only through this file.
 */
export {
  ROUTES,
  routePath,
  matchRoute,
  type RouteName,
  type RouteBase,
  type RouteSpec,
  type RouteMatch,
  type HttpMethod,
} from './omni/routes.js';
export { AcquirerHttp, type AcquirerHttpOptions, type AcquirerResponse, type SendOptions } from './http.js';
export { OmniTokens, OMNI_SCOPES, type ScopeFamily, type SecretSource } from './oauth.js';
export { OmniClient, type CallOptions } from './omni/client.js';
export {
  WalletClient,
  type WalletPayment,
  type WalletPaymentAnswer,
  type WalletClientOptions,
} from './wallet-client.js';
export {
  EcommerceClient,
  ecommercePaymentId,
  type PixSaleRequest,
  type QrSaleRequest,
  type EcommerceSale,
  type EcommerceVoidAnswer,
  type CardBinAnswer,
} from './ecommerce-client.js';
export { httpError, isOutcomeUnknown, acquirerContext, returnOf, type AcquirerErrorContext } from './errors.js';
export * from './omni/outcomes.js';
export { saleOwnership, findOurSale, type OurSale, type Ownership } from './omni/ownership.js';
export type * from './omni/types.js';

export { createAcquirer, type Acquirer, type AcquirerDeps, type AcquirerSettings } from './create.js';
export { omniBackend, omniQrRouting, type EcommerceQrSales, type OmniBackendOptions } from './omni/backend.js';
export { OmniSaleAdapter, type TerminalIdentity } from './omni/sale.js';
export { omniProvisioning, terminalRegistration, storeRegistration } from './omni/provisioning.js';
export { technicalParameter, NOT_PRESENT, type TechnicalParameter } from './omni/technical.js';
export { omniOperationOf, OPERATION_OF_ROUTE } from './omni/operations.js';
export { EcommerceCardNotPresent, cardProductOf, type EcommerceCnpSettings } from './ecommerce/backend.js';
export { EcommerceCnpDelivery } from './ecommerce/delivery.js';
export {
  Webservice15CardNotPresent,
  Webservice15CnpDelivery,
  Ws15Transport,
  type Ws15Settings,
  type Ws15TokenSaleOptions,
} from './webservice15/index.js';
