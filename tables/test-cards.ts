import { z } from 'zod';
import data from './test-cards.json' with { type: 'json' };

function luhnOk(pan: string): boolean {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const TestCard = z.strictObject({
  name: z.string().min(1),
  pan: z.string().regex(/^\d{13,19}$/).refine(luhnOk, 'Luhn check digit is wrong'),
  /** YYMM, as on the track. */
  expiry: z.string().regex(/^\d{2}(0[1-9]|1[0-2])$/),
  serviceCode: z.string().regex(/^\d{3}$/),
  panSequenceNumber: z.string().regex(/^\d{2}$/),
  /** The card's right PIN (the sandbox verifies the PIN block against it). */
  pin: z.string().regex(/^\d{4,12}$/),
  cardholderName: z.string().min(2).max(26),
  brandId: z.number().int(),
  issuerId: z.number().int(),
  productId: z.number().int(),
  /** The PAN's last digit, selecting the row of the card sandbox table (002). */
  lastDigitOutcome: z.number().int().min(0).max(9),
});

export type TestCard = z.infer<typeof TestCard> & {
  /** Track 2 equivalent data: PAN '=' YYMM service code discretionary. */
  readonly track2: string;
  /** Expiry as the omni API writes it, `MM/YYYY`. */
  readonly expirationDate: string;
};

const cards = z
  .array(TestCard)
  .parse(data.cards)
  .map((c) => {
    if (Number(c.pan.at(-1)) !== c.lastDigitOutcome) throw new Error(`test-cards.json: ${c.name}: lastDigitOutcome differs from the PAN's last digit`);
    return Object.freeze({
      ...c,
      track2: `${c.pan}=${c.expiry}${c.serviceCode}0000000000`,
      expirationDate: `${c.expiry.slice(2, 4)}/20${c.expiry.slice(0, 2)}`,
    });
  });

/** The sandbox test cards shared by the virtual pinpad and the sandbox host, validated at load. */
export const TEST_CARDS: readonly TestCard[] = Object.freeze(cards);

/** The test card with this PAN, or undefined. */
export function testCardByPan(pan: string): TestCard | undefined {
  return TEST_CARDS.find((c) => c.pan === pan);
}
