import {
  cardChip,
  cardInterfaces,
  TEST_CARDS,
  type TestCard,
  type TestCardChip,
} from '../../../../tables/test-cards.js';

/** How the card reaches the reader; `contactless-stripe`: a contactless card in its magnetic-stripe mode (GCX card type 05). */
export type Via = 'chip' | 'contactless' | 'stripe' | 'contactless-stripe';

/** What the customer does at the next card prompt (GCX, CEX). */
export type Presentation =
  | { kind: 'card'; card: TestCard; via: Via }
  /** Presses CANCEL. */
  | { kind: 'cancel' }
  /** Does nothing (the command waits for SPE_TIMEOUT, CAN or another command). */
  | { kind: 'nothing' };

/** What the customer types at a PIN prompt: the card's PIN, another, CANCEL, or nothing at all. */
export type PinEntry =
  { kind: 'right' } | { kind: 'digits'; digits: string } | { kind: 'cancel' } | { kind: 'nothing' };

export interface CardChoice {
  /** By PAN, by last digit (the first card with that outcome) or by name (substring, case-insensitive). */
  pan?: string;
  lastDigit?: number;
  name?: string;
  via?: Via;
  /** Shorthands: the customer cancels, or never shows a card. */
  action?: 'cancel' | 'nothing';
  /** 'right' (the card's PIN), 'cancel', 'nothing', or the digits typed. */
  pin?: string;
  /** The card declines although the host approved (FCX). */
  declineAfterApproval?: boolean;
  /** The card declines offline in GOX (its first GENERATE AC gives an AAC: PP_GOXRES "1xxxxx"). */
  declineOffline?: boolean;
  /** The customer pulls the chip card early: at the PIN screen (GOX) or before FCX; 'no' keeps it in. */
  removeEarly?: RemoveEarly;
  /** The customer leaves the chip card in the reader (RMC waits until the terminal gives up). */
  leavesCard?: boolean;
}

/** When the customer takes the chip card out before the terminal is done with it. */
export type RemoveEarly = 'no' | 'at-pin' | 'before-fcx';

/** Finds a test card; undefined when none fits. */
export function findCard(c: Pick<CardChoice, 'pan' | 'lastDigit' | 'name'>): TestCard | undefined {
  if (c.pan !== undefined) return TEST_CARDS.find((x) => x.pan === c.pan);
  if (c.name !== undefined) {
    const n = c.name.toLowerCase();
    return TEST_CARDS.find((x) => x.name.toLowerCase().includes(n));
  }
  return TEST_CARDS.find((x) => x.lastDigitOutcome === (c.lastDigit ?? 0));
}

/** The interface a card is best read by when the customer does not say: chip, then contactless, then stripe. */
export function defaultVia(card: TestCard): Via {
  const ifs = cardInterfaces(card);
  return ifs.includes('chip') ? 'chip' : ifs.includes('contactless') ? 'contactless' : 'stripe';
}

/**
 * The deck a test or a person picks from (`omnipos sim card …`, the control port's `card` command):
 * what the customer presents at the next card prompt, what they type at the PIN prompt, and whether
 * the card declines after an online approval. The choice stays until changed.
 */
export class CardDeck {
  presentation: Presentation;
  pin: PinEntry = { kind: 'right' };
  declineAfterApproval = false;
  declineOffline = false;
  removeEarly: RemoveEarly = 'no';
  leavesCard = false;
  /** How long the simulated customer takes to present a card or type a PIN, ms. */
  delayMs = 20;

  constructor() {
    const card = TEST_CARDS[0]!;
    this.presentation = { kind: 'card', card, via: defaultVia(card) };
  }

  /** Applies a choice; returns what is now presented, or an error message. */
  choose(c: CardChoice): { ok: true; presented: string } | { ok: false; error: string } {
    if (c.action) this.presentation = { kind: c.action };
    else if (c.pan !== undefined || c.lastDigit !== undefined || c.name !== undefined || c.via !== undefined) {
      const card =
        c.pan !== undefined || c.lastDigit !== undefined || c.name !== undefined
          ? findCard(c)
          : this.presentation.kind === 'card'
            ? this.presentation.card
            : TEST_CARDS[0];
      if (!card) return { ok: false, error: 'no test card fits (see tables/test-cards.json)' };
      const via = c.via ?? defaultVia(card);
      if (!cardInterfaces(card).includes(via === 'contactless-stripe' ? 'contactless' : via))
        return {
          ok: false,
          error: `${card.name} cannot be read by ${via} (it has ${cardInterfaces(card).join(', ')})`,
        };
      this.presentation = { kind: 'card', card, via };
    }
    if (c.pin !== undefined) {
      this.pin =
        c.pin === 'right' || c.pin === 'cancel' || c.pin === 'nothing'
          ? { kind: c.pin }
          : { kind: 'digits', digits: c.pin };
    }
    if (c.declineAfterApproval !== undefined) this.declineAfterApproval = c.declineAfterApproval;
    if (c.declineOffline !== undefined) this.declineOffline = c.declineOffline;
    if (c.leavesCard !== undefined) this.leavesCard = c.leavesCard === true;
    if (c.removeEarly !== undefined) {
      if (!['no', 'at-pin', 'before-fcx'].includes(c.removeEarly))
        return { ok: false, error: 'removeEarly: one of no, at-pin, before-fcx' };
      this.removeEarly = c.removeEarly;
    }
    return { ok: true, presented: this.describe() };
  }

  /** A description with the PAN masked (never a clear number: this reaches the control port and logs). */
  describe(): string {
    const p = this.presentation;
    if (p.kind !== 'card') return p.kind === 'cancel' ? 'the customer cancels' : 'no card';
    return `${p.card.name} (${p.card.pan.slice(0, 6)}…${p.card.pan.slice(-4)}) by ${p.via}`;
  }
}

/** The chip of a card (its own or its brand's). */
export function chipOf(card: TestCard): TestCardChip | undefined {
  return cardChip(card);
}

/** A listing of the deck for `omnipos sim card --list`: masked PANs only. */
export function deckListing(): {
  name: string;
  pan: string;
  interfaces: readonly string[];
  outcome: number;
  failure?: string;
}[] {
  return TEST_CARDS.map((c) => ({
    name: c.name,
    pan: `${c.pan.slice(0, 6)}${'*'.repeat(c.pan.length - 10)}${c.pan.slice(-4)}`,
    interfaces: cardInterfaces(c),
    outcome: c.lastDigitOutcome,
    ...(c.failure ? { failure: c.failure } : {}),
  }));
}
