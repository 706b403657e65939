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
} from './devices.js';
export {
  displayWithFallback,
  fromDriverError,
  openPinpadSession,
  readCardEncrypted,
  withPinpadSession,
} from './pinpad-session.js';
export { withPrinterSession } from './printer-session.js';
export {
  bibcompLibraryProblem,
  BIBCOMP_CARD_SALES_REASON,
  findPinpadLibraries,
  listDevicePorts,
} from './device-discovery.js';
/** The driver's types and encoders a technician's command reads (what a session hands it). */
export type { GixResult, PinpadInfo, SecurePinpad, SecureStatus, TerminalKey } from '../../drivers/pinpad/index.js';
export { conditionOf, encodeDocument, type PrintDocument, type PrinterStatus } from '../../drivers/printer/index.js';
export { openPinpad, startPinpad, type PinpadAtStart, type PinpadDevice, type StartedPinpad } from './pinpad-device.js';
export { type CardPinpad } from './pinpad-card.js';
export { productResolver } from './pinpad-card-products.js';
export { refundCardPort } from './pinpad-card-refund.js';
export { PinpadQrDisplay } from './pinpad-image.js';
export { PinpadTypedCardReader } from './pinpad-cnp-card.js';
export { loadPinpadKey, PINPAD_KEY_FILE, PINPAD_KEY_MAX_AGE_DAYS, rotatePinpadKey } from './pinpad-keys.js';
export { PinpadTablesAdapter } from './pinpad-tables.js';
export { EscPosReceiptPrinter, receiptColumns } from './escpos-receipt.js';
