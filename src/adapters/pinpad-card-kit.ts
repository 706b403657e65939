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
 * The margin past the longest wait of a blocking command before its answer is taken as lost. One margin for every
 * blocking command the card port sends (GCX, GCD, GPN, GOX, MNU); scripts/house/pinpad-deadlines.ts finds a send
 * that has no deadline.
 */
const MARGIN_S = 5;

/** The most digits a PIN has (GPN_MAX1 at most 12, ABECS 2.20 §3.3.11; ISO 9564-1). */
export const PIN_MAX_DIGITS = 12;

/**
 * The deadline of a blocking command that waits for `keys` keys of the customer. SPE_TIMEOUT is the cardholder's
 * inactivity, "não o tempo máximo de execução do comando" (ABECS 2.20 §2, SPE_TIMEOUT 000Ch): each key starts it
 * again, so `keys` keys take at most `keys` × SPE_TIMEOUT. A blocking command has no wait of the link's (§2.3.3):
 * past that and a margin its answer is taken as lost on the wire and the command aborted (CAN), as GCX's is.
 * GPN carries no SPE_TIMEOUT (its layout has none, §3.3.11): the card port's own `timeoutS` stands for it.
 */
export function keyedDeadlineMs(timeoutS: number, keys: number): number {
  return (keys * timeoutS + MARGIN_S) * 1000;
}

/**
 * A GCD's own deadline: a field of at most `maxDigits` digits typed without a correction takes at most
 * `maxDigits` + 1 keys (the last is ENTER). One rule for every GCD: the phone order's typed card
 * (pinpad-cnp-card.ts) and the card-present typed entry (pinpad-card-typed.ts).
 */
export function gcdDeadlineMs(timeoutS: number, maxDigits: number): number {
  return keyedDeadlineMs(timeoutS, maxDigits + 1);
}

/** A PIN's deadline (GPN, or GOX when the card asks for one): the longest PIN and ENTER. */
export const pinDeadlineMs = (timeoutS: number): number => keyedDeadlineMs(timeoutS, PIN_MAX_DIGITS + 1);

/**
 * GCX's deadline: its SPE_TIMEOUT (the wait for a card) plus the margin. The pinpad answers ST_TIMEOUT at
 * SPE_TIMEOUT; an answer lost on the wire would hold the sale (and the terminal) until the daemon restarts.
 */
export const gcxDeadlineMs = (timeoutS: number): number => keyedDeadlineMs(timeoutS, 1);

/** RMC's deadline: a customer who leaves the card in gets the message, and the flow goes on after SPE_TIMEOUT. */
export const removeCardDeadlineMs = (timeoutS: number): number => timeoutS * 1000;
