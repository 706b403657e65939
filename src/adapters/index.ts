/**
 * The adapters' public surface (docs/architecture.md "Rings"): the engine's ports implemented on
 * the devices (the ABECS pinpad's card reader, QR display, key and tables loading; the ESC/POS
 * receipt printer) and the simulated card reader and text printer of benchmarks and engine tests;
 * the one factory of devices from the configuration (devices.ts), for the daemon and the CLI alike,
 * with a technician's sessions, discovery and the drivers' errors in the catalogue's words. The CLI
 * reaches the drivers only through here (eslint.layers.js). Other areas import the adapters only
 * through this file.
 */
export {
  DEFAULT_REAL_PRINTER_MODEL_ID,
  openPinpadTarget,
  openPrinterTarget,
  printerDriver,
  UsbSerialTransport,
  type PinpadDeviceConfig,
  type PinpadTarget,
  type PinpadTargetOptions,
  type PrinterDeviceConfig,
  type PrinterTarget,
  type PrinterTargetOptions,
} from './devices.js';
export {
  displayWithFallback,
  fromDriverError,
  openPinpadSession,
  readCardEncrypted,
  withPinpadSession,
  type CardReadRequest,
} from './pinpad-session.js';
export { fromPrinterError, withPrinterSession } from './printer-session.js';
export {
  bibcompLibraryProblem,
  BIBCOMP_CARD_SALES_REASON,
  findPinpadLibraries,
  listDevicePorts,
  type ListedPort,
} from './device-discovery.js';
/** The driver's types and encoders a technician's command reads (what a session hands it). */
export type { GixResult, PinpadInfo, SecurePinpad, SecureStatus, TerminalKey } from '../../drivers/pinpad/index.js';
export {
  conditionOf,
  encodeDocument,
  type EscPosPrinter,
  type PrintDocument,
  type PrinterStatus,
} from '../../drivers/printer/index.js';
export { openPinpad, pinpadCardPort, bibcompTransport, type PinpadDevice } from './pinpad-device.js';
export { PinpadCardPort, type PinpadCardOptions, type CardPinpad } from './pinpad-card.js';
export {
  productResolver,
  tableProductSelector,
  typedEntryRefusal,
  type ProductQuery,
  type ProductResolver,
  type ProductSelection,
  type ProductSelector,
  type SelectionFacts,
} from './pinpad-card-products.js';
export { PROMPT_TEXTS, PromptRelay, type PromptNotification, type NotificationSource } from './pinpad-card-prompts.js';
export { refundCardPort, refundPinpad } from './pinpad-card-refund.js';
export { PinpadQrDisplay, type PinpadQrDisplayOptions, type PinpadRunner } from './pinpad-image.js';
export { PinpadTypedCardReader, CNP_PROMPTS } from './pinpad-cnp-card.js';
export {
  loadPinpadKey,
  PINPAD_KEY_FILE,
  PINPAD_KEY_MAX_AGE_DAYS,
  rotatePinpadKey,
  type PinpadKeyFile,
} from './pinpad-keys.js';
export { PinpadTablesAdapter } from './pinpad-tables.js';
export { unattendedTerminalType, unattendedTerminalData, withoutSignature } from './pinpad-terminal-emv.js';
export { EscPosReceiptPrinter, receiptColumns } from './escpos-receipt.js';
export { SimulatedCardPort, type SimulatedCardOptions } from './simulated-card.js';
export { TextReceiptPrinter } from './text-receipt.js';
