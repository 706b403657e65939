import { describe, expect, it } from 'vitest';
import data from '../../../tables/test-cards.json' with { type: 'json' };
import { TEST_CARDS, cardChip, testCardsSchema } from '../../../tables/test-cards.js';

describe('TEST_CARDS', () => {
  it('the JSON passes its schema, and the table is what the schema reads from it (keys in order)', () => {
    const s = testCardsSchema();
    const cards = s.cards.parse(data.cards);
    const raw = TEST_CARDS.map(({ track2: _t, expirationDate: _e, ...c }) => c);
    expect(raw).toStrictEqual(cards);
    expect(JSON.stringify(raw)).toBe(JSON.stringify(cards));
    const chipDefaults = s.chipDefaults.parse((data as { chipDefaults?: unknown }).chipDefaults ?? {});
    for (const card of TEST_CARDS)
      expect(cardChip(card)).toStrictEqual(card.chip ?? chipDefaults[String(card.brandId)]);
    expect(JSON.stringify((data as { chipDefaults?: unknown }).chipDefaults ?? {})).toBe(JSON.stringify(chipDefaults));
  });

  it('the schema refuses a PAN whose Luhn digit is wrong (the check that used to run at every start)', () => {
    const card = data.cards[0] as { pan: string };
    const bad = `${card.pan.slice(0, -1)}${(Number(card.pan.at(-1)) + 1) % 10}`;
    expect(testCardsSchema().cards.safeParse([{ ...card, pan: bad }]).success).toBe(false);
  });
});
