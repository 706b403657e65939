import {
  CONFIRM,
  PIX_CANCEL,
  PIX_REFUND,
  PIX_REFUND_ASKED,
  PIX_REFUND_REQUEST,
  QR_WATCH,
  UNDO,
  VOID_CONFIRM,
  VOID_UNDO,
} from './book.js';
import {
  ECOMMERCE_QR_END,
  PIX_CHARGE,
  SALE,
  UNCLEAR_DECLINE_UNDONE,
  VOID,
  WALLET_CANCELLATION,
} from './book-create.js';
import { CNP_VOID_PART } from './book-cnp.js';

/** Every table, by the operation's name as docs/decisions.md prints it. */
export const RULEBOOK = {
  sale: SALE,
  'sale (payments.undoUnclearDeclines: true)': { 'unclear-decline': UNCLEAR_DECLINE_UNDONE },
  'sale.confirm': CONFIRM,
  'sale.undo': UNDO,
  'qr.watch': QR_WATCH,
  'qr.watch (e-commerce QR)': ECOMMERCE_QR_END,
  void: VOID,
  'void.confirm': VOID_CONFIRM,
  'void.undo': VOID_UNDO,
  'void (wallet QR cancellation code)': WALLET_CANCELLATION,
  pix: PIX_CHARGE,
  'pix.cancel': PIX_CANCEL,
  'pix.refund': PIX_REFUND,
  'pix.refund (asked)': PIX_REFUND_ASKED,
  'pix.refund (request)': PIX_REFUND_REQUEST,
  'cnp.void (part)': CNP_VOID_PART,
} as const;
