import { isPinpadError, type CommandSpec, type RunOptions } from '../../drivers/pinpad/index.js';
import { OmniposError } from '../core/index.js';
import { decodeTlv } from '../emv/index.js';
import type { NotificationSource } from './pinpad-card-prompts.js';

/** Anything that runs the driver's command specs (Pinpad or SecurePinpad), with its notifications when it has them. */
export interface CardPinpad extends NotificationSource {
  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res>;
}

/** ST_CANCEL (§3.1.1): the customer pressed CANCEL. */
const ST_CANCEL = 13;

/**
 * Driver errors carry the catalogue's codes (PINPAD_*): rethrown as OmniposError with the same
 * code and context. The customer's CANCEL key (ST_CANCEL while nobody aborted the command) becomes
 * ENGINE_CANCELLED with `context.by` "customer", so the engine records a cancel, not a bad card.
 */
export function asOmnipos(e: unknown, signal?: AbortSignal): unknown {
  if (!isPinpadError(e)) return e;
  if (e.code === 'PINPAD_STATUS' && Number(e.context.status) === ST_CANCEL && !signal?.aborted) {
    return new OmniposError('ENGINE_CANCELLED', 'the customer cancelled on the pinpad', {
      by: 'customer',
      ...e.context,
    });
  }
  return new OmniposError(e.code, e.message, e.context);
}

export function fail(message: string, context: Record<string, unknown> = {}): OmniposError {
  return new OmniposError('PINPAD_STATUS', message, context);
}

/** The first 6 and last 4 digits, the rest masked (CardSummary; the pinpad gives 8 + 4). */
export function sixAndFour(masked: string): string {
  return masked.length <= 10 ? masked : masked.slice(0, 6) + '*'.repeat(masked.length - 10) + masked.slice(-4);
}

export function tlvMap(b: Uint8Array | undefined): Record<string, string> {
  if (!b || b.length === 0) return {};
  try {
    return Object.fromEntries(decodeTlv(b).map((o) => [o.tag, Buffer.from(o.value).toString('hex').toUpperCase()]));
  } catch {
    return {};
  }
}

export const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

/** Local date and time for GCX (YYMMDD, hhmmss). */
export function gcxWhen(d: Date): { date: string; time: string } {
  const p = (n: number): string => String(n).padStart(2, '0');
  return {
    date: `${p(d.getFullYear() % 100)}${p(d.getMonth() + 1)}${p(d.getDate())}`,
    time: `${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`,
  };
}

/**
 * The margin past the longest typing before a GCD's answer is taken as lost (GCX's margin, pinpad-card.ts). One
 * rule for every GCD: the phone order's typed card (pinpad-cnp-card.ts) and the card-present typed entry
 * (pinpad-card-typed.ts).
 */
const GCD_MARGIN_S = 5;

/**
 * A GCD's own deadline. SPE_TIMEOUT is the cardholder's inactivity, "não o tempo máximo de execução do
 * comando" (ABECS 2.20 §2, SPE_TIMEOUT 000Ch): each key starts it again, so a field of at most
 * `maxDigits` digits typed without a correction takes at most `maxDigits` + 1 keys (the last is
 * ENTER) of SPE_TIMEOUT each. A blocking command has no wait of the link's (§2.3.3): past that and a
 * margin its answer is taken as lost on the wire and the command aborted (CAN), as GCX's is.
 */
export function gcdDeadlineMs(timeoutS: number, maxDigits: number): number {
  return ((maxDigits + 1) * timeoutS + GCD_MARGIN_S) * 1000;
}
