/**
 * The adapters' public surface (docs/architecture.md "Rings"): the engine's ports implemented on
 * the devices (the ABECS pinpad's card reader, QR display, key and tables loading; the ESC/POS
 * receipt printer) and the simulated card reader and text printer of benchmarks and engine tests.
 * Other areas import the adapters only through this file.
 */
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
