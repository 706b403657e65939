import { nextDailyClose } from '../daily-close.js';

/**
 * "The host may not show it yet", written once for every operation that asks the host for
 * something it sent (a sale's undo race, a void's undo, a QR code's watch): a `not-found` is
 * never final before the close of the operation's own day (the host confirms then what is
 * pending), and only after a window counted from that close, when `agreeing` answers agree. A
 * request sent at 23:59:50 gets the whole window after the close, not ten seconds of it.
 */
export interface VisibilityOptions {
  /** How long after it was sent the host may still be processing a request, ms (the client's timeouts). */
  processingWindowMs: number;
  /**
   * How long after the close a request of that day may still become visible to the query host,
   * ms (never less than `processingWindowMs`). Default 15 min *(homologation: how late a request
   * may become visible is not published)*.
   */
  visibilityWindowMs?: number;
  /** Not-found answers needed past the close and the window before "nothing happened" is final. Default 2. */
  agreeing?: number;
}

export const DEFAULT_VISIBILITY_WINDOW_MS = 15 * 60_000;

export type NotFoundVerdict =
  /** `count`: the not-founds seen past the window so far, to keep with the task. */
  { final: boolean; reason: string; count: number };

/** The close of the business day an operation was sent in (host time): the host confirms what is pending then. */
export function operationClose(sentAt: string): Date {
  return nextDailyClose(new Date(sentAt));
}

/** The instant from which a `not-found` may count toward "nothing happened". */
export function notFoundCountsFrom(sentAt: string, options: VisibilityOptions): number {
  const window = Math.max(options.processingWindowMs, options.visibilityWindowMs ?? DEFAULT_VISIBILITY_WINDOW_MS);
  return Math.max(operationClose(sentAt).getTime() + window, Date.parse(sentAt) + options.processingWindowMs);
}

/**
 * What a `not-found` means now for a request sent at `sentAt` (`what`: "the sale", "the void"…, named in the reasons),
 * `seen` being the not-founds already counted past the window.
 */
export function notFoundVerdict(
  sentAt: string,
  now: Date,
  seen: number | undefined,
  options: VisibilityOptions,
  what = 'the operation',
): NotFoundVerdict {
  const t = now.getTime();
  const before = seen ?? 0;
  if (t < operationClose(sentAt).getTime())
    return { final: false, reason: `not found yet: never final before the close of ${what}'s day`, count: before };
  if (t < notFoundCountsFrom(sentAt, options))
    return {
      final: false,
      reason: `not found yet: inside the window after the close of ${what}'s day`,
      count: before,
    };
  const count = before + 1;
  if (count >= (options.agreeing ?? 2))
    return { final: true, reason: `not found ${count} times after the close of ${what}'s day`, count };
  return { final: false, reason: `not found after the close of ${what}'s day; asking again`, count };
}
