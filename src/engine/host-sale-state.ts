/**
 * A sale as the host shows it, in the engine's words (the acquirer backend maps its own numbers to
 * them, e.g. src/acquirer/omni/states.ts):
 * - `pending`: not finished, or authorized and not captured: nothing paid yet, it may still be undone;
 * - `approved`: paid, and neither confirmed nor undone yet (the terminal confirms or undoes it);
 * - `confirmed`: confirmed at the host (by the terminal, or at the daily close): an undo can no
 *   longer take it back, only a refund;
 * - `undone`: the terminal's undo took effect: nothing charged;
 * - `declined`: denied, or aborted by the host (a processing failure, its anti-fraud): nothing charged;
 * - `cancelled`: voided at the host: nothing charged (after a void: the void stood);
 * - `unknown`: shown in a state the backend cannot read: treated as still pending.
 */
export type HostSaleState = 'unknown' | 'pending' | 'approved' | 'confirmed' | 'undone' | 'declined' | 'cancelled';
