import { randomBytes } from 'node:crypto';
import { card, GCD } from '../../drivers/pinpad/index.js';
import { GCD_MESSAGES } from '../../tables/pinpad/gcd-messages.js';
import { OmniposError, withDeadline } from '../core/index.js';
import { isLuhnValid } from '../crypto/index.js';
import type { CardRequest, CardSummary, EncryptedCard } from '../engine/index.js';
import { gcdDeadlineMs, sixAndFour, type CardPinpad } from './pinpad-card-kit.js';
import type { PinpadCardOptions } from './pinpad-card-options.js';
import type { SelectionFacts } from './pinpad-card-products.js';
import type { PromptRelay } from './pinpad-card-prompts.js';
import type { Product } from './pinpad-card-select.js';

/** GCD's fixed prompts (ABECS §3.3.8 table) for a typed card: the number, the expiry month and year. */
const MSG = { number: 0x32, month: 0x13, year: 0x14 } as const;

/** A typed card as the pinpad encrypted it: the ciphertext of the number, and what the tables need. */
export interface TypedCard {
  /** The first 8 digits (the BIN the tables look up) and the last 4, the rest masked. */
  masked: string;
  /** YYMM. */
  expiry: string;
  encrypted: EncryptedCard;
}

function refused(message: string, field: string): OmniposError {
  return new OmniposError('INIT_CARD_REFUSED', message, { reason: 'typed-entry', field });
}

/**
 * Typed entry on the pinpad: the number (GCD prompt 32h "DIGITE NÚMERO DO CARTÃO"), the expiry
 * month and year (13h, 14h), then EBX method 51 encrypts the number under the DUKPT data key with
 * a fresh IV. The clear digits exist only in this function, long enough to pack, mask and check
 * them (Luhn); the packed block is wiped after EBX. `accept(masked, expiry, luhnValid)` runs the
 * tables before the number is encrypted and throws when they refuse it.
 */
export async function readTypedCard(
  p: CardPinpad,
  o: {
    dataKeySlot: number;
    timeoutS: number;
    signal: AbortSignal;
    relay: PromptRelay;
    accept: (masked: string, expiry: string, luhnValid: boolean) => void;
  },
): Promise<TypedCard> {
  const ask = async (message: number, digits: number | [number, number]): Promise<string> => {
    const [min, max] = typeof digits === 'number' ? [digits, digits] : digits;
    o.relay.show('typed-entry', GCD_MESSAGES[message] ?? '');
    // Its own deadline, as the phone order's GCD and GCX have: an answer held or lost would hold the sale.
    const signal = withDeadline(o.signal, gcdDeadlineMs(o.timeoutS, max));
    return o.relay.during('typed-entry', () =>
      p.run(GCD, { message, minDigits: min, maxDigits: max, timeoutS: o.timeoutS }, { signal }),
    );
  };
  const pan = await ask(MSG.number, [12, 19]);
  if (!/^\d{12,19}$/.test(pan))
    throw refused(`typed card number: expected 12 to 19 digits, got ${pan.length} characters`, 'number');
  const masked = `${pan.slice(0, 8)}${'*'.repeat(pan.length - 12)}${pan.slice(-4)}`;
  const month = await ask(MSG.month, 2);
  const year = await ask(MSG.year, 2);
  if (!/^(0[1-9]|1[0-2])$/.test(month) || !/^\d{2}$/.test(year))
    throw refused('typed expiry: expected a month 01-12 and a 2-digit year', 'expiry');
  const expiry = `${year}${month}`;
  o.accept(masked, expiry, isLuhnValid(pan));
  const block = card.typedPanBlock(pan);
  try {
    const enc = await p.run(
      card.EBX,
      { data: block, keyIndex: o.dataKeySlot, iv: randomBytes(8) },
      { signal: o.signal },
    );
    return { masked, expiry, encrypted: { kind: 'pan', data: enc.data, ksn: enc.ksn, iv: enc.iv, isTlv: false } };
  } finally {
    card.wipe(block);
  }
}

/**
 * A typed card read for the card port: the number and expiry typed on the pinpad (readTypedCard),
 * the tables' product for it (no menu on the pinpad: several products is a refusal), and the
 * summary the engine keeps (masked number, expiry MMYY).
 */
export async function typedCardRead(
  o: PinpadCardOptions,
  request: CardRequest,
  signal: AbortSignal,
  relay: PromptRelay,
): Promise<{ summary: CardSummary; card: EncryptedCard }> {
  const chosen: { product?: Product } = {};
  const facts = (masked: string, expiry: string, luhnValid: boolean): SelectionFacts => ({
    amount: request.amount,
    installments: request.installments ?? 1,
    interest: request.interest ?? 'ByMerchant',
    maskedPan: masked,
    expiry,
    luhnValid,
  });
  const typed = await readTypedCard(o.pinpad, {
    dataKeySlot: o.dataKeySlot,
    timeoutS: o.timeoutS ?? 60,
    signal,
    relay,
    accept: (masked, expiry, luhnValid) => {
      const s = o.selectProduct?.(
        { entry: 'typed', digits: masked.slice(0, 8), fallback: false, method: request.method },
        facts(masked, expiry, luhnValid),
      );
      if (!s || s.kind === 'refused')
        throw new OmniposError('INIT_CARD_REFUSED', s?.message ?? 'no product rules for typed cards', {
          reason: s?.reason ?? 'typing-not-allowed',
        });
      // A typed number offers no menu on the pinpad: several products for it is a refusal, not a guess.
      if (s.kind === 'choose')
        throw new OmniposError('INIT_CARD_REFUSED', 'several products fit this typed card; read the card instead', {
          reason: 'product-choice',
        });
      chosen.product = s;
    },
  });
  const p = chosen.product;
  const summary: CardSummary = {
    maskedPan: sixAndFour(typed.masked),
    inputMode: 'Typed',
    chip: false,
    isFallback: false,
    authenticationMethod: 'NoPassword',
    ...(p ? { productId: p.productId } : {}),
    ...(p?.brandId !== undefined ? { brandId: p.brandId } : {}),
    ...(p?.issuerId !== undefined ? { issuerId: p.issuerId } : {}),
    expiry: `${typed.expiry.slice(2)}${typed.expiry.slice(0, 2)}`,
  };
  return { summary, card: typed.encrypted };
}
