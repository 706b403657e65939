import { describe, expect, it } from 'vitest';
import { CardDeck } from '../../../../../src/sim/pinpad/card/index.js';
import { TEST_CARDS } from '../../../../../tables/test-cards.js';

const byName = (n: string) => TEST_CARDS.find((c) => c.name.includes(n))!;

describe('the virtual pinpad’s customer: cards pulled early, contactless in stripe mode', () => {
  it('removeEarly takes no, at-pin or before-fcx and stays until changed; anything else is refused', () => {
    const d = new CardDeck();
    expect(d.removeEarly).toBe('no');
    expect(d.choose({ lastDigit: 0, via: 'chip', removeEarly: 'before-fcx' }).ok).toBe(true);
    expect(d.removeEarly).toBe('before-fcx');
    expect(d.choose({ lastDigit: 1 }).ok).toBe(true);
    expect(d.removeEarly).toBe('before-fcx');
    expect(d.choose({ removeEarly: 'sideways' as never })).toEqual({
      ok: false,
      error: 'removeEarly: one of no, at-pin, before-fcx',
    });
    expect(d.removeEarly).toBe('before-fcx');
  });

  it('contactless-stripe only for a card with a contactless interface', () => {
    const d = new CardDeck();
    expect(
      d.choose({ pan: byName('mastercard credit, chip and contactless').pan, via: 'contactless-stripe' }),
    ).toMatchObject({ ok: true, presented: expect.stringMatching(/by contactless-stripe$/) as unknown });
    expect(d.choose({ pan: byName('elo credit, contact chip only').pan, via: 'contactless-stripe' })).toMatchObject({
      ok: false,
    });
  });
});
