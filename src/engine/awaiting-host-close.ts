import { QR_AWAITING_HOST_CLOSE } from './qr/types.js';
import { VOID_AWAITING_HOST_CLOSE } from './void/types.js';

/**
 * The one definition of "awaiting the host's close", per journal kind: the states of a row whose
 * code ended unpaid on the terminal and whose outbox watch waits, by the visibility rule
 * (rules/visibility.ts), for the close of the code's day and the window after it before "not paid"
 * or "not applied" is final — open by design, not stuck. A wallet QR sale's code (`qr`: a late
 * payment would be undone) and a wallet QR void's cancellation code (`void`: a late application
 * confirms the void). Health's `outbox.awaitingHostClose` and the day report both read it.
 */
export const AWAITING_HOST_CLOSE: Readonly<Record<'qr' | 'void', ReadonlySet<string>>> = {
  qr: QR_AWAITING_HOST_CLOSE,
  void: VOID_AWAITING_HOST_CLOSE,
};

/** Whether a journal row awaits the host's close (AWAITING_HOST_CLOSE). */
export function awaitsHostClose(entry: { kind: string; state: string }): boolean {
  return (
    (AWAITING_HOST_CLOSE as Readonly<Record<string, ReadonlySet<string> | undefined>>)[entry.kind]?.has(entry.state) ===
    true
  );
}

/** Every state some kind awaits the host's close in (to select the rows; awaitsHostClose then checks the kind). */
export function awaitingHostCloseStates(): string[] {
  return [...new Set(Object.values(AWAITING_HOST_CLOSE).flatMap((s) => [...s]))];
}
