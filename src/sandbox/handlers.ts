import { omniToken } from './auth.js';
import type { SandboxContext } from './context.js';
import type { Answer, SandboxRequest } from './http-kit.js';
import type { SandboxRouteName } from './routes.js';
import { createSale, getSale, getSaleByOrderId } from './sales.js';
import { confirmSale, undoSale, undoSaleByOrderId } from './sale-confirm-undo.js';
import { confirmVoid, createVoid, getVoid, undoVoid } from './voids.js';
import { getInitialization, postInitialization } from './initialization.js';
import { cardBin, createEcommerceSale, getEcommerceSale, voidEcommerceSale } from './ecommerce.js';
import { captureEcommerceSale, salesByOrderId, voidByOrderId } from './ecommerce-card-changes.js';
import { saveCard } from './ecommerce-card-tokens.js';
import { getRecurrence } from './ecommerce-recurrence.js';
import { createMerchant, createTerminal, getMerchant, updateMerchant } from './registration.js';

/** The sandbox host's handler of each route of the acquirer's API (the wallet's are bound per host in server.ts). */
export type Handler = (ctx: SandboxContext, req: SandboxRequest) => Answer | Promise<Answer>;

export const HANDLERS: Partial<Record<SandboxRouteName, Handler>> = {
  omniToken,
  saleCreate: createSale,
  saleGet: getSale,
  saleGetByOrderId: getSaleByOrderId,
  saleConfirm: confirmSale,
  saleUndo: undoSale,
  saleUndoByOrderId: undoSaleByOrderId,
  saleUndoPut: undoSale,
  saleUndoByOrderIdPut: undoSaleByOrderId,
  voidCreate: createVoid,
  voidConfirm: confirmVoid,
  voidUndo: undoVoid,
  voidUndoByMerchantVoidId: undoVoid,
  voidGet: getVoid,
  initialization: getInitialization,
  initializationTechnical: postInitialization,
  merchantCreate: createMerchant,
  merchantGet: getMerchant,
  merchantUpdate: updateMerchant,
  terminalCreate: createTerminal,
  ecommerceSaleCreate: createEcommerceSale,
  ecommerceSaleGet: getEcommerceSale,
  ecommerceSaleVoid: voidEcommerceSale,
  ecommerceCardBin: cardBin,
  ecommerceSaleCapture: captureEcommerceSale,
  ecommerceSalesByOrderId: salesByOrderId,
  ecommerceSaleVoidByOrderId: voidByOrderId,
  ecommerceCardSave: saveCard,
  ecommerceRecurrentGet: getRecurrence,
};
