import type { CardNotPresentBackend, CnpSaveOutcome, TypedCard } from '../cnp-ports.js';

/** How many times a save is asked in all where the host answers the same token for the same card. */
export const SAVE_ASKS = 3;

/** What a lost answer leaves at a host that answers a new token each time (said with the `unknown` outcome). */
export const UNNAMED_TOKEN =
  'the host may hold a token for this card that no one can name: it charges nothing (a sale by it needs the token), and the host publishes no lookup nor removal of one';

/**
 * Saves a typed card at the host so that a lost answer never leaves a token the terminal does not know
 * of. Where the host answers the same token for the same card (`tokenPerCard`: the webservice 1.5,
 * "Repeating a request with the same data returns the same token", seed 001; ws15:987), an unknown answer is
 * asked again with the same card, still in memory for this request, up to SAVE_ASKS times in all: the
 * token the lost answer carried is the one the next answer gives. Where each save answers a new token
 * (the JSON API's `POST /1/card`, ecom:3075-3147, with no lookup by card nor removal), asking again
 * would leave one more token unnamed: the unknown outcome is answered, saying what the host may hold.
 */
export async function saveAtHost(
  host: Pick<CardNotPresentBackend, 'saveCard' | 'tokenPerCard'>,
  card: TypedCard,
): Promise<CnpSaveOutcome> {
  let saved = await host.saveCard(card);
  for (let asked = 1; saved.kind === 'unknown' && host.tokenPerCard && asked < SAVE_ASKS; asked++)
    saved = await host.saveCard(card);
  if (saved.kind !== 'unknown') return saved;
  return {
    kind: 'unknown',
    detail: host.tokenPerCard
      ? `${saved.detail}, asked ${SAVE_ASKS} times; no token is unknown to the terminal (the same card gives the same token): save it again`
      : `${saved.detail}; ${UNNAMED_TOKEN}`,
  };
}
