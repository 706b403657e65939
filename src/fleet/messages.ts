import { scrubValue } from '../core/index.js';
import type { JournalEntry } from '../store/index.js';

/** The payment statuses a sale does not leave on its own: each is published once. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set([
  'confirmed',
  'declined',
  'cancelled',
  'undone',
  'failed',
  'needs-refund',
]);

/** A masked PAN reduced to its first six and last four digits (whatever the pinpad left open). */
export function mask64(masked: unknown): string | undefined {
  if (typeof masked !== 'string' || !/^[0-9*]{13,19}$/.test(masked)) return undefined;
  return `${masked.slice(0, 6)}${'*'.repeat(masked.length - 10)}${masked.slice(-4)}`;
}

/**
 * Every message leaves through the log scrubber: sensitive keys redacted at any depth, PAN-shaped
 * runs cut to 6+4. What we build holds none; this is the net under it.
 */
export function scrubbed<T>(payload: T): T {
  return scrubValue(payload) as T;
}

interface CardFacts {
  maskedPan?: unknown;
  brandId?: unknown;
  productId?: unknown;
}

const METHOD_OF_KIND: Record<string, string> = { qr: 'wallet-qr', pix: 'pix' };

/** A payment's method as the API names it: the card sale's request method, `wallet-qr` or `pix`. */
export function paymentMethod(entry: JournalEntry): string {
  const m = (entry.data as { request?: { method?: unknown } }).request?.method;
  return METHOD_OF_KIND[entry.kind] ?? (typeof m === 'string' ? m : entry.kind);
}

/** `payments`: one payment's final state, as a consumer of the fleet reads it. */
export function paymentMessage(
  terminal: string,
  entry: JournalEntry,
  status: string,
): { msgId: string; payload: Record<string, unknown> } {
  const d = entry.data as { card?: CardFacts; authorizationCode?: unknown; nsu?: unknown };
  const msgId = `${terminal}-p${entry.id}-${status}`;
  const card = d.card;
  const pan = mask64(card?.maskedPan);
  return {
    msgId,
    payload: scrubbed({
      id: msgId,
      terminal,
      payment: {
        id: entry.id,
        orderId: entry.merchantOrderId,
        amount: entry.amount,
        method: paymentMethod(entry),
        ...(card?.brandId !== undefined ? { brand: card.brandId } : {}),
        ...(card?.productId !== undefined ? { product: card.productId } : {}),
        ...(pan ? { maskedPan: pan } : {}),
        status,
        state: entry.state,
        time: entry.updatedAt,
      },
    }),
  };
}

/** What an alarm tells the fleet (no context: it may name order ids, never more). */
export interface AlarmFacts {
  id: string;
  code: string;
  key: string;
  severity: string;
  message: string;
  since: string;
}

export function alarmMessage(
  terminal: string,
  alarm: AlarmFacts,
  event: 'raised' | 'cleared',
  at: string,
): { msgId: string; payload: Record<string, unknown> } {
  const msgId = `${terminal}-a${alarm.id}-${event}`;
  return {
    msgId,
    payload: scrubbed({
      id: msgId,
      terminal,
      event,
      at,
      alarm: { id: alarm.id, code: alarm.code, severity: alarm.severity, message: alarm.message, since: alarm.since },
    }),
  };
}

/** The day's report as the fleet reads it: totals and counts, no lines. */
export interface DayFacts {
  date: string;
  generatedAt: string;
  closedAt: string | null;
  counts: { sales: number; voids: number; inProgress: number; byOutcome: Record<string, number | undefined> };
  totals: Record<string, unknown>;
}

export function dayMessage(terminal: string, day: DayFacts): { msgId: string; payload: Record<string, unknown> } {
  const msgId = `${terminal}-d${day.date}-${day.generatedAt}`;
  return {
    msgId,
    payload: scrubbed({
      id: msgId,
      terminal,
      date: day.date,
      closed: day.closedAt !== null,
      closedAt: day.closedAt,
      generatedAt: day.generatedAt,
      counts: day.counts,
      totals: day.totals,
    }),
  };
}

/**
 * A command's answer, as published on `cmd/<name>/result`: scrubbed like every message, except
 * `id`, the operator's own request id (1 to 64 printable characters, checked by checkCommand),
 * which goes back exactly as it came: it is what the operator matches the answer with. Scrubbed,
 * an id holding a millisecond timestamp (13 digits, passing Luhn one time in ten) came back cut to
 * 6+4 and the operator's `omnipos fleet cmd` never recognised its answer. Echoing it discloses
 * nothing: the same string is already on the broker, on the command's topic.
 */
export function commandAnswer(requestId: string | null, answer: Record<string, unknown> & { id?: never }): string {
  return JSON.stringify({ id: requestId, ...scrubbed(answer) });
}
