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
export { terminalQrCodes, showQr, type QrDisplayCaption, type QrDisplayPort } from './qr/code-port.js';

export { SaleEngine, type SaleEvent, type CardSaleRequest, type SaleEngineDeps } from './sale/engine.js';
export {
  SALE_STATES,
  FINAL_STATES,
  type PaymentMethod,
  type ConfirmationMode,
  type InputMode,
  type Interest,
  type SaleRequest,
  type CardSummary,
  type HostReceipt,
  type SaleData,
  type SaleStateName,
  type SaleState,
} from './sale/types.js';
export { paymentStatus, type PaymentStatus } from './sale/status.js';

export { QrEngine, type QrEvent, type QrEngineDeps } from './qr/engine.js';
export {
  QR_STATES,
  QR_FINAL,
  QR_AWAITING_HOST_CLOSE,
  type QrSaleRequest,
  type QrSaleData,
  type QrStateName,
  type QrState,
} from './qr/types.js';
export { modality, qrTimestamp, saleQrCode, type MerchantProfile } from './qr/code.js';
export * from './qr/code-cancel.js';

export { PixEngine, type PixEvent, type PixEngineDeps } from './pix/engine.js';
export {
  PIX_STATES,
  PIX_FINAL,
  type PixSaleRequest,
  type PixSaleData,
  type PixStateName,
  type PixState,
  type PixCreation,
} from './pix/types.js';

export { VoidEngine, type VoidEngineDeps, type VoidEvent } from './void/engine.js';
export {
  VOID_STATES,
  FINAL_VOID_STATES,
  VOID_HOLDS_AMOUNT,
  voidStatus,
  type VoidedSale,
  type SupervisorProof,
  type VoidData,
  type VoidStateName,
  type VoidState,
  type HostVoidOutcome,
  type VoidStatus,
} from './void/types.js';
export {
  SupervisorGate,
  SUPERVISOR_PASSWORD_MIN,
  assertSupervisorPassword,
  hashSupervisorPassword,
  isSupervisorHash,
  verifySupervisorPassword,
  type SupervisorCredential,
  type SupervisorSources,
} from './void/supervisor.js';
export type { Lockout } from './void/lockout.js';
export { givenBackOf, remainingOf, voidIdsOf, type Remaining } from './void/ledger.js';

export { MachineOwner } from './machine-owner.js';
export type { OwnerDeps, MachineState, MachineStep } from './owner-deps.js';
export { PaymentLock, type PaymentHolder, type PaymentLease } from './payment-lock.js';
export { OutboxForwarder, taskClose, type ForwarderDeps } from './outbox/forwarder.js';
export type { UndoRaceOptions } from './outbox/undo-race.js';
export { journalData } from './journal-data.js';
export { nextDailyClose, lastDailyClose, decisionDeadline } from './daily-close.js';
export { nextTryAt, type BackoffOptions } from './backoff.js';
export { CnpEngine, NO_ROW_YET, type CnpEvent, type CnpEngineDeps, type CnpSavedCard } from './cnp/engine.js';
export { typedCardOf, type TypedCardFacts } from './cnp/typed-card.js';
export {
  CNP_STATES,
  CNP_FINAL,
  type CnpPaymentRequest,
  type CnpSaleData,
  type CnpStateName,
  type CnpState,
} from './cnp/types.js';

export * from './rules/index.js';

/** What the engines emit, one union: the API's event stream and the fleet's telemetry read it. */
export type EngineEvent = SaleEvent | QrEvent | PixEvent | VoidEvent | CnpEvent;
