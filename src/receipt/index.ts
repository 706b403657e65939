export { receiptDocument, validateReceiptSource, TEST_ENVIRONMENT_BANNER } from './build.js';
export { receiptLines, receiptText, receiptHtml } from './render.js';
export { maskPan, maskPansIn } from './mask.js';
export { wrap, labelValue } from './text-layout.js';
export {
  RECEIPT_COLUMNS,
  type ReceiptColumns,
  type ReceiptCopy,
  type ReceiptKind,
  type ReceiptSource,
  type ReceiptDocument,
  type ReceiptOp,
  type ReceiptInformationRow,
  type PrintMessageRow,
} from './types.js';
