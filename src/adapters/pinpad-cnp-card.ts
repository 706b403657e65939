import { GCD } from '../../drivers/pinpad/index.js';
import { OmniposError, withDeadline } from '../core/index.js';
import { isLuhnValid } from '../crypto/index.js';
import { maskPanDigits } from '../emv/index.js';
import type { CnpPromptCode, CnpPromptListener, TypedCardReader, TypedDigits } from '../engine/index.js';
import { GCD_MESSAGES } from '../../tables/pinpad/gcd-messages.js';
import { asOmnipos, gcdDeadlineMs, type CardPinpad } from './pinpad-card-kit.js';
import { oneLine } from './pinpad-card-prompts.js';

/**
 * GCD's fixed prompts (ABECS 2.20 §3.3.8 "Tabela fixa de mensagens", tables/pinpad/gcd-messages.ts)
 * for a card not present: the number (0032h), the expiry month (0013h "DIGITE O MÊS (MM)"), the
 * year in four digits (0015h "DIGITE O ANO (AAAA)": the host wants `MM/YYYY`) and the security
 * code (000Ch).
 */
export const CNP_PROMPTS = { number: 0x32, month: 0x13, year: 0x15, securityCode: 0x0c } as const;

/** The code each prompt is told by (the event stream's `prompt` of a card-not-present typing). */
const CODES: Readonly<Record<keyof typeof CNP_PROMPTS, CnpPromptCode>> = {
  number: 'card-number',
  month: 'expiry-month',
  year: 'expiry-year',
  securityCode: 'security-code',
};

/** ST_TIMEOUT (§3.1.1, "012"): SPE_TIMEOUT passed with nothing typed. */
const ST_TIMEOUT = 12;

function refused(message: string, field: string): OmniposError {
  return new OmniposError('CNP_CARD_REFUSED', message, { reason: 'typed-entry', field });
}

/**
 * The card of a phone order typed on the pinpad's keyboard (GCD, §3.3.8, numeric entry): the digits
 * exist only in the answer this returns, for the one request; nothing here logs them. The customer's
 * CANCEL, the prompt's time out and an aborted request are `CNP_TYPING_CANCELLED` (nothing was sent).
 */
export class PinpadTypedCardReader implements TypedCardReader {
  readonly #pinpad: CardPinpad;
  readonly #timeoutS: number;

  constructor(pinpad: CardPinpad, options: { timeoutS?: number } = {}) {
    this.#pinpad = pinpad;
    this.#timeoutS = options.timeoutS ?? 60;
  }

  async read(signal?: AbortSignal, onPrompt?: CnpPromptListener): Promise<TypedDigits> {
    const ask = async (field: keyof typeof CNP_PROMPTS, minDigits: number, maxDigits: number): Promise<string> => {
      const message = CNP_PROMPTS[field];
      tell(onPrompt, { prompt: CODES[field], text: oneLine(GCD_MESSAGES[message] ?? '') });
      const joined = withDeadline(signal, gcdDeadlineMs(this.#timeoutS, maxDigits));
      try {
        return await this.#pinpad.run(
          GCD,
          { message, minDigits, maxDigits, timeoutS: this.#timeoutS },
          { signal: joined },
        );
      } catch (e) {
        throw typingStopped(asOmnipos(e, signal), joined.aborted && !signal?.aborted);
      }
    };
    const number = await ask('number', 13, 19);
    if (!/^\d{13,19}$/.test(number)) throw refused('typed card number: expected 13 to 19 digits', 'number');
    if (!isLuhnValid(number)) throw refused('typed card number: the check digit is wrong (retype it)', 'number');
    const month = await ask('month', 2, 2);
    const year = await ask('year', 4, 4);
    if (!/^(0[1-9]|1[0-2])$/.test(month) || !/^\d{4}$/.test(year))
      throw refused('typed expiry: expected a month 01-12 and a 4-digit year', 'expiry');
    // Empty: the card has no security code (the JSON API's SecurityCode is optional, ecom:762).
    const code = await ask('securityCode', 0, 4);
    if (code !== '' && !/^\d{3,4}$/.test(code))
      throw refused('typed security code: expected 3 or 4 digits', 'securityCode');
    // The masked number (first 6, last 4) is made here: what may be kept of the card, the rest for the one request.
    return {
      number,
      maskedNumber: maskPanDigits(number),
      expiry: `${month}/${year}`,
      ...(code !== '' ? { securityCode: code } : {}),
    };
  }
}

/** Tells the listener which field is asked; a failing listener never disturbs the typing. */
function tell(onPrompt: CnpPromptListener | undefined, prompt: Parameters<CnpPromptListener>[0]): void {
  try {
    onPrompt?.(prompt);
  } catch {
    // the listener's problem, not the typing's
  }
}

/**
 * The pinpad's ways of not giving the digits: CANCEL, ST_TIMEOUT, the answer past its deadline and
 * the request aborted are one refusal (`CNP_TYPING_CANCELLED`), any other failure of the pinpad
 * `CNP_TYPING_FAILED` naming it.
 */
function typingStopped(e: unknown, pastDeadline: boolean): unknown {
  if (!(e instanceof OmniposError)) return e;
  const timedOut = pastDeadline || (e.code === 'PINPAD_STATUS' && Number(e.context.status) === ST_TIMEOUT);
  if (e.code === 'ENGINE_CANCELLED' || e.code === 'PINPAD_CANCELLED' || timedOut)
    return new OmniposError('CNP_TYPING_CANCELLED', `the card was not typed on the pinpad: ${e.message}`, {
      by: timedOut ? 'timeout' : e.code === 'ENGINE_CANCELLED' ? 'customer' : 'terminal',
    });
  if (e.code.startsWith('PINPAD_'))
    return new OmniposError('CNP_TYPING_FAILED', `the pinpad could not take the typed card: ${e.message}`, {
      cause: e.code,
    });
  return e;
}
