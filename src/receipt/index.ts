export {
  receiptDocument,
  validateReceiptSource,
  TEST_ENVIRONMENT_BANNER,
  REPRINT_MARK,
  CARD_NOT_PRESENT_MARK,
} from './build.js';
export { paymentReceipt, receiptSourceOf, type ReceiptFacts } from './facts.js';
export { receiptLines, receiptText, receiptHtml } from './render.js';
export { maskPan, maskPansIn } from './mask.js';
export { digitalCopyText, DIGITAL_COPY_MAX_BYTES } from './digital-copy.js';
export { wrap, labelValue } from './text-layout.js';
export {
  RECEIPT_COLUMNS,
  type ReceiptColumns,
  type ReceiptCopy,
  type ReceiptSource,
  type ReceiptDocument,
  type ReceiptOp,
  type ReceiptInformationRow,
} from './types.js';
export { RECEIPT_STATES } from './states.js';
