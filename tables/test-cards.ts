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

/**
 * The table's schemas, checked against the data by test/unit/tables/test-cards.test.ts, not at every
 * start (fast start: building and running zod schemas over the tables cost ~13 ms of CPU in the
 * daemon's start on Node 22). Built on call.
 */
export function testCardsSchema() {
  const Hex = z.string().regex(/^([0-9A-F]{2})+$/);

  /** A chip application: AID, label, the card's EMV data objects by tag (no track or PAN tags), contactless device type. */
  const Chip = z.strictObject({
    aid: z.string().regex(/^([0-9A-F]{2}){5,16}$/),
    label: z.string().min(1).max(16),
    emv: z.record(z.string().regex(/^[0-9A-F]{2,4}$/), Hex),
    /** PP_DEVTYPE (§3.7.1) when read contactless: "00" card (default), "01" phone… */
    deviceType: z
      .string()
      .regex(/^\d{2}$/)
      .optional(),
  });

  const TestCard = z.strictObject({
    name: z.string().min(1),
    pan: z
      .string()
      .regex(/^\d{13,19}$/)
      .refine(luhnOk, 'Luhn check digit is wrong'),
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
    /** How the card can be read (the virtual pinpad's deck); see `cardInterfaces` for the default. */
    interfaces: z
      .array(z.enum(['stripe', 'chip', 'contactless']))
      .min(1)
      .optional(),
    /** The card's chip application; absent: `chipDefaults` of its brand. */
    chip: z.lazy(() => Chip).optional(),
    /** How the card misbehaves on the virtual pinpad. */
    failure: z
      .enum(['chip-fallback', 'chip-problems', 'blocked', 'ctls-see-phone', 'ctls-offline-approval'])
      .optional(),
  });
  return { card: TestCard, chip: Chip, cards: z.array(TestCard), chipDefaults: z.record(z.string(), Chip) };
}
type Schemas = ReturnType<typeof testCardsSchema>;
export type TestCardChip = z.infer<Schemas['chip']>;

export type TestCard = z.infer<Schemas['card']> & {
  /** Track 2 equivalent data: PAN '=' YYMM service code discretionary. */
  readonly track2: string;
  /** Expiry as the omni API writes it, `MM/YYYY`. */
  readonly expirationDate: string;
};

const cards = (data.cards as z.infer<Schemas['card']>[]).map((c) => {
  if (Number(c.pan.at(-1)) !== c.lastDigitOutcome)
    throw new Error(`test-cards.json: ${c.name}: lastDigitOutcome differs from the PAN's last digit`);
  return Object.freeze({
    ...c,
    track2: `${c.pan}=${c.expiry}${c.serviceCode}0000000000`,
    expirationDate: `${c.expiry.slice(2, 4)}/20${c.expiry.slice(0, 2)}`,
  });
});

const chipDefaults = ((data as { chipDefaults?: unknown }).chipDefaults ?? {}) as Record<string, TestCardChip>;

/** The chip of a card: its own, or its brand's default (the first cards carry none). */
export function cardChip(card: TestCard): TestCardChip | undefined {
  return card.chip ?? chipDefaults[String(card.brandId)];
}

/** How a card can be read: as declared, else the stripe plus the chip when the service code says it has one (2xx, 6xx). */
export function cardInterfaces(card: TestCard): readonly ('stripe' | 'chip' | 'contactless')[] {
  if (card.interfaces) return card.interfaces;
  return /^[26]/.test(card.serviceCode) && cardChip(card) ? ['chip', 'stripe'] : ['stripe'];
}

/** The sandbox test cards shared by the virtual pinpad and the sandbox host, as testCardsSchema() reads them. */
export const TEST_CARDS: readonly TestCard[] = Object.freeze(cards);

/** The test card with this PAN, or undefined. */
export function testCardByPan(pan: string): TestCard | undefined {
  return TEST_CARDS.find((c) => c.pan === pan);
}
