import { describe, expect, it } from 'vitest';
import type { CnpSaveOutcome, TypedCard } from '../../../../src/engine/cnp-ports.js';
import { SAVE_ASKS, UNNAMED_TOKEN, saveAtHost } from '../../../../src/engine/cnp/save-card.js';

/**
 * A card save whose answer is lost: asked again with the same card only where the host answers the same
 * token for the same card (the webservice 1.5); elsewhere answered unknown, saying what the host may hold.
 */
const card: TypedCard = {
  number: '4111111111111111',
  expiry: '12/2030',
  holder: 'ANA',
  brand: 'Visa',
};
const saved: CnpSaveOutcome = {
  kind: 'saved',
  token: 't-1',
  maskedNumber: '411111******1111',
  brand: 'Visa',
  detail: 'ok',
};
const lost: CnpSaveOutcome = { kind: 'unknown', detail: 'transport timeout' };

function host(tokenPerCard: boolean, answers: CnpSaveOutcome[]) {
  const cards: TypedCard[] = [];
  return {
    cards,
    tokenPerCard,
    saveCard: (c: TypedCard): Promise<CnpSaveOutcome> => {
      cards.push(c);
      return Promise.resolve(answers[cards.length - 1] ?? lost);
    },
  };
}

describe('saveAtHost', () => {
  it('the same card, the same token: a lost answer is asked again with the same card, and its token kept', async () => {
    const h = host(true, [lost, saved]);
    await expect(saveAtHost(h, card)).resolves.toEqual(saved);
    expect(h.cards).toEqual([card, card]);
  });

  it(`the same card, the same token, every answer lost: asked ${SAVE_ASKS} times, then unknown`, async () => {
    const h = host(true, []);
    const s = await saveAtHost(h, card);
    expect(h.cards).toHaveLength(SAVE_ASKS);
    expect(s).toMatchObject({ kind: 'unknown', detail: expect.stringContaining('no token is unknown') });
  });

  it('a new token each save: asked once, unknown saying the host may hold a token no one can name', async () => {
    const h = host(false, [lost, saved]);
    const s = await saveAtHost(h, card);
    expect(h.cards).toHaveLength(1);
    expect(s).toEqual({ kind: 'unknown', detail: `transport timeout; ${UNNAMED_TOKEN}` });
  });

  it('a refusal is never asked again', async () => {
    const refused: CnpSaveOutcome = { kind: 'refused', code: '126', detail: 'HTTP 400 126' };
    const h = host(true, [refused, saved]);
    await expect(saveAtHost(h, card)).resolves.toEqual(refused);
    expect(h.cards).toHaveLength(1);
  });
});
