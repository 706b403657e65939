/**
 * The engine's public surface (docs/architecture.md "Rings"): its ports (all in ./ports.js: the
 * acquirer backend's, the card reader's, the receipt's, the QR display's), its engines (sale, wallet
 * QR, Pix, void) with their data and states, the outbox forwarder, and one event union. Other areas
 * import the engine only through this file.
 */
import type { CnpEvent } from './cnp/engine.js';
import type { PixEvent } from './pix/engine.js';
import type { QrEvent } from './qr/engine.js';
import type { SaleEvent } from './sale/engine.js';
import type { VoidEvent } from './void/engine.js';

export * from './ports.js';
// The card-not-present port (it reads ports.ts's words, so ports.ts cannot re-export it: a cycle).
export * from './cnp-ports.js';
export { type QrDisplayCaption, type QrDisplayPort } from './qr/code-port.js';

export { SaleEngine, type SaleEvent } from './sale/engine.js';
export {
  FINAL_STATES,
  type PaymentMethod,
  type InputMode,
  type SaleRequest,
  type CardSummary,
  type SaleData,
  type SaleStateName,
} from './sale/types.js';
export { paymentStatus, type PaymentStatus } from './sale/status.js';
export { statusOf } from './payment-status.js';

export { QrEngine, type QrEvent } from './qr/engine.js';
export { QR_STATES, QR_FINAL, type QrSaleData, type QrStateName } from './qr/types.js';
export { awaitsHostClose, awaitingHostCloseStates } from './awaiting-host-close.js';
export { type MerchantProfile } from './qr/code.js';
export * from './qr/code-cancel.js';

export { PixEngine, type PixEvent } from './pix/engine.js';
export { PIX_FINAL, type PixSaleData, type PixStateName, type PixCreation } from './pix/types.js';

export { VoidEngine, type VoidEvent } from './void/engine.js';
export {
  FINAL_VOID_STATES,
  voidStatus,
  type VoidData,
  type VoidStateName,
  type HostVoidOutcome,
} from './void/types.js';
export {
  SupervisorGate,
  hashSupervisorPassword,
  isSupervisorHash,
  type SupervisorCredential,
} from './void/supervisor.js';
export type { Lockout } from './void/lockout.js';
export { givenBackOf } from './void/ledger.js';

export type { OwnerDeps } from './owner-deps.js';
export { PaymentLock } from './payment-lock.js';
export { OutboxForwarder } from './outbox/forwarder.js';
export type { UndoRaceOptions } from './outbox/undo-race.js';
export { journalData } from './journal-data.js';
export { nextDailyClose } from './daily-close.js';
export { nextTryAt } from './backoff.js';
export { CnpEngine, NO_ROW_YET, type CnpEvent, type CnpEngineDeps } from './cnp/engine.js';
export { typedCardOf, type TypedCardFacts } from './cnp/typed-card.js';
export { CNP_STATES, CNP_FINAL, type CnpPaymentRequest, type CnpSaleData, type CnpStateName } from './cnp/types.js';

export * from './rules/index.js';

/** What the engines emit, one union: the API's event stream and the fleet's telemetry read it. */
export type EngineEvent = SaleEvent | QrEvent | PixEvent | VoidEvent | CnpEvent;
