/**
 * The journal states in which a payment has a receipt: approved by the host, its receipt step
 * begun, not undone. The API serves and reprints receipts in these states; `omnipos receipt
 * reprint` picks the newest payment in one of them.
 */
export const RECEIPT_STATES: readonly string[] = ['printing', 'awaiting-decision', 'confirming', 'confirmed'];
