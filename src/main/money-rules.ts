import { acquirerTimeoutMs, type ConfigValues } from '../config/index.js';
import type { UndoRaceOptions } from '../engine/index.js';

/**
 * The rules of money the configuration tunes, for the outbox's undo race, the void's undo and the
 * QR watch (src/engine/rules/visibility.ts): the processing window (twice the acquirer's timeout: a
 * request may still be at the host that long after it left), the close margin, and the window after
 * the close in which a request of that day may still become visible (`payments.visibilityWindowSeconds`).
 */
export function undoRaceOptions(values: ConfigValues): UndoRaceOptions {
  return {
    processingWindowMs: 2 * acquirerTimeoutMs(values),
    closeMarginMs: values.payments.closeMarginSeconds * 1000,
    visibilityWindowMs: values.payments.visibilityWindowSeconds * 1000,
  };
}
