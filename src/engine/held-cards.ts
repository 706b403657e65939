import type { ExpiryKey } from '../store/index.js';
import type { EncryptedCard } from './ports.js';
import type { CardSummary } from './sale/types.js';

/** A card read for one request: its ciphertext and its whole summary, expiry included. */
export interface HeldCard {
  summary: CardSummary;
  card: EncryptedCard;
}

/**
 * The card summary as the journal keeps it: the expiry replaced by its keyed hash (`expiryMac`,
 * src/store/expiry-key.ts), which is all a void needs to match its sale's card.
 */
export function journaledCard(summary: CardSummary, key: ExpiryKey): CardSummary {
  const { expiry, ...rest } = summary;
  return expiry === undefined ? rest : { ...rest, expiryMac: key.mac(expiry) };
}

/**
 * The cards read for requests not sent yet, in memory only, by journal id: the sale's or void's
 * request takes its card once (ciphertext and the expiry the host needs) and it is forgotten. The
 * journal row gets `journaledCard` instead; after a restart nothing is held, and nothing is sent.
 */
export class HeldCards {
  readonly #held = new Map<number, HeldCard>();

  constructor(private readonly key: ExpiryKey) {}

  /** Holds `read` for journal row `id`; answers what the journal may keep of it. */
  hold(id: number, read: HeldCard): CardSummary {
    this.#held.set(id, read);
    return journaledCard(read.summary, this.key);
  }

  /** The card held for `id`, forgotten as it is taken. */
  take(id: number): HeldCard | undefined {
    const read = this.#held.get(id);
    this.#held.delete(id);
    return read;
  }

  forget(id: number): void {
    this.#held.delete(id);
  }
}
