export * from './types.js';
export { allowedByAll, requiredByAny, type Levels } from './levels.js';
export { candidateProducts, productChoice } from './candidates.js';
export { installmentRange, checkInstallments, type Interest, type InstallmentRange } from './installments.js';
export {
  typingAllowed,
  fallbackAllowed,
  stripeAccepted,
  lastFourRequired,
  checkLastFour,
  expiryAccepted,
} from './entry.js';
export { passwordRule, securityCodeRule, type PasswordDecision, type SecurityCodeStatus } from './cardholder.js';
export {
  duplicateWarning,
  deviceAccepted,
  voidAllowed,
  type RecentSale,
  type Device,
  type VoidRequest,
} from './sale-checks.js';
export {
  inputModeOf,
  authenticationMethodOf,
  type InputMode,
  type AuthenticationMethod,
  type CvmResult,
} from './omni.js';
export { decideForCard, type CardDecision, type ProductDecision } from './decide.js';
export { planSale, type SaleContext, type SalePlan } from './sale.js';
