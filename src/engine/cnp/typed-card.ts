import { OmniposError } from '../../core/index.js';
import type { CardNotPresentBackend, CnpPromptListener, TypedCard, TypedCardReader } from '../cnp-ports.js';

/** What the cash register tells of a card not present besides what is typed on the pinpad. */
export interface TypedCardFacts {
  /** The name printed on the card, as the customer spells it (the JSON API requires it, ecom:760). */
  holder: string;
  /** The scheme as the backend's host spells it; absent: the BIN lookup tells it. */
  brand?: string | undefined;
}

/**
 * The card of a phone order: its number, expiry and security code typed on the pinpad (`reader`),
 * the brand as the cash register gave it or as the backend's BIN lookup tells it before anything is
 * sent. A product the lookup does not support, or a debit-only card (credit only without the card:
 * CNP_DEBIT_NEEDS_AUTHENTICATION), is refused here and the digits dropped. A backend without a BIN
 * lookup (the webservice 1.5) needs the brand from the cash register; a lookup that fails sends nothing.
 * `onPrompt` is told each field the pinpad asks for.
 */
export async function typedCardOf(
  reader: TypedCardReader,
  backend: Pick<CardNotPresentBackend, 'cardProduct'>,
  facts: TypedCardFacts,
  signal?: AbortSignal,
  onPrompt?: CnpPromptListener,
): Promise<TypedCard> {
  const digits = await reader.read(signal, onPrompt);
  if (facts.brand !== undefined) return { ...digits, holder: facts.holder, brand: facts.brand };
  let product;
  try {
    product = await backend.cardProduct(digits.number.slice(0, 6));
  } catch (e) {
    if (e instanceof OmniposError && e.code === 'CNP_NOT_OFFERED')
      throw new OmniposError('INVALID_FIELD', 'brand: this backend has no BIN lookup; the cash register names it', {
        field: 'brand',
      });
    // The sale is not sent on a lookup that failed (refused, unreachable, unreadable): the digits are dropped.
    throw new OmniposError('CNP_BIN_LOOKUP_FAILED', `the BIN lookup failed: ${(e as Error).message}`, {
      ...(e instanceof OmniposError ? { cause: e.code } : {}),
    });
  }
  if (!product.supported)
    throw new OmniposError('CNP_CARD_REFUSED', `the BIN lookup does not support this card (${product.detail})`, {
      reason: 'bin-unsupported',
    });
  if (product.type === 'debit')
    throw new OmniposError(
      'CNP_DEBIT_NEEDS_AUTHENTICATION',
      'a debit card without the card present needs the cardholder to authenticate in a browser; read the card instead',
    );
  return { ...digits, holder: facts.holder, brand: product.brand };
}
