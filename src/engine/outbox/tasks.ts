/** The requests the engine puts in the outbox, by operation name, and their payloads. */

export interface ConfirmTask {
  merchantOrderId: string;
  paymentId: string;
  emv?: Record<string, string>;
}

export interface UndoTask {
  merchantOrderId: string;
  /** Known when the sale was answered; learnt by the undo race otherwise. */
  paymentId?: string;
  emv?: Record<string, string>;
  /** When the sale request was about to leave (ISO): the processing window counts from here. */
  sentAt: string;
  /** The sale's amount, cents: a sale found by order id must match it to be ours. */
  amount?: number;
  /** Queries that found nothing after the processing window had passed. */
  notFoundAfterWindow?: number;
}

export const OUTBOX_OPERATIONS = {
  confirm: 'sale.confirm',
  undo: 'sale.undo',
  watch: 'qr.watch',
  pixCancel: 'pix.cancel',
  pixRefund: 'pix.refund',
  voidConfirm: 'void.confirm',
  voidUndo: 'void.undo',
  /** A wallet QR void's cancellation code that ended unpaid on the terminal: watched for a late application. */
  voidCodeWatch: 'void.code-watch',
  /** A card-not-present sale's undo race (the same race and payload as `sale.undo`, on the card-not-present host). */
  cnpUndo: 'cnp.undo',
  /** A card-not-present capture whose answer was lost: the query, and the capture again of what still shows authorized. */
  cnpCapture: 'cnp.capture',
  /** A card-not-present partial void whose answer was lost: the query only (never voided twice). */
  cnpVoidPart: 'cnp.void-part',
} as const;

/** One task per sale and operation: enqueueing again returns the task already there. */
export function idempotencyKey(operation: string, merchantOrderId: string): string {
  return `${operation}:${merchantOrderId}`;
}
