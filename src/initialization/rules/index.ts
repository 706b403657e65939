export * from './types.js';
export { allowedByAll, requiredByAny, type Levels } from './levels.js';
export { candidateProducts, productChoice } from './candidates.js';
export { installmentRange, checkInstallments } from './installments.js';
export {
  typingAllowed,
  fallbackAllowed,
  stripeAccepted,
  lastFourRequired,
  checkLastFour,
  expiryAccepted,
} from './entry.js';
export { passwordRule, securityCodeRule } from './cardholder.js';
export { duplicateWarning, deviceAccepted, voidAllowed } from './sale-checks.js';
export { inputModeOf, authenticationMethodOf } from './omni.js';
export { decideForCard } from './decide.js';
export { planSale } from './sale.js';
