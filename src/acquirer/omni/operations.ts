import type { HostOperation } from '../../engine/index.js';
import { matchRoute, type RouteName } from './routes.js';

/**
 * Each route of the omni host (routes.ts) as the engine names the operation: the `operation` label
 * of the host's latency metric. Keyed by every route, so a route added without its operation does
 * not compile. The e-commerce API has one path for a Pix charge and a wallet QR code sale (the body's
 * `Payment.Type` tells them apart): both are a `charge`.
 */
export const OPERATION_OF_ROUTE: { readonly [N in RouteName]: HostOperation } = {
  omniToken: 'token',
  saleCreate: 'sale',
  saleGet: 'query',
  saleGetByOrderId: 'query',
  saleConfirm: 'confirm',
  saleUndo: 'undo',
  saleUndoByOrderId: 'undo',
  voidCreate: 'void',
  voidConfirm: 'void-confirm',
  voidUndo: 'void-undo',
  voidUndoByMerchantVoidId: 'void-undo',
  voidGet: 'void-query',
  initialization: 'initialization',
  initializationTechnical: 'initialization',
  merchantCreate: 'registration',
  merchantGet: 'registration',
  merchantUpdate: 'registration',
  terminalCreate: 'registration',
  ecommerceSaleCreate: 'charge',
  ecommerceSaleGet: 'charge-query',
  ecommerceSaleVoid: 'charge-void',
  ecommerceCardBin: 'card-bin',
  // the capture of a pre-authorization is what confirms its charge
  ecommerceSaleCapture: 'confirm',
  ecommerceSalesByOrderId: 'charge-query',
  ecommerceSaleVoidByOrderId: 'charge-void',
  ecommerceCardSave: 'card-save',
  // a scheduled recurrence's status, as a charge's
  ecommerceRecurrentGet: 'charge-query',
  walletTokenJson: 'wallet',
  walletTokenForm: 'wallet',
  walletPublicKey: 'wallet',
  walletParseQr: 'wallet',
  walletCardPayment: 'wallet',
};

/** The operation of a request to the omni host's addresses (its method and path, no query string); `other` when no route matches. */
export function omniOperationOf(method: string, path: string): HostOperation {
  const m = matchRoute(method, path);
  return m && 'name' in m ? OPERATION_OF_ROUTE[m.name] : 'other';
}
