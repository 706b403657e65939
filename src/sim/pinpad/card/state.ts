import type { TestCard } from '../../../../tables/test-cards.js';
import type { SimState } from '../engine.js';
import { CardDeck, type Via } from './deck.js';
import { SimDukpt } from './keys.js';
import { SimTables } from './tables.js';

/** The card the pinpad holds between GCX/CEX and the end of the transaction. */

/**
 * The largest application transaction counter: 9F36 is two bytes and a card never wraps it (EMV
 * Book 3: the ATC is incremented at each GENERATE AC; a card whose ATC reached its limit has its
 * application permanently blocked). The terminal then reads "application invalidated"
 * (§3.1.1 ST_CARDINVALIDAT), as from any card past its life.
 */
export const ATC_MAX = 0xffff;

/** Whether the card's application is blocked for good: its ATC is at ATC_MAX. */
export function atcExhausted(sim: { atc: Map<string, number> }, pan: string): boolean {
  return (sim.atc.get(pan) ?? 0) >= ATC_MAX;
}

export interface HeldCard {
  card: TestCard;
  via: Via;
  /** Network indexes and records that can process it (PP_AIDTABINFO). */
  aidTables: { acquirer: string; index: string; applicationType: string }[];
  amount: number;
  cashback: number;
  transactionType: number;
  date: string;
  /** The PAN is held for GPN until GTK erases it (§5.4). */
  panKnown: boolean;
  gtkDone: boolean;
  /** 'failed': GOX ended without a decision (PIN cancelled or timed out): the read is over. */
  goxDone: 'no' | 'online' | 'offline' | 'failed';
  fcxDone: boolean;
  /** The chip is in the reader (RMC waits for it to leave). */
  inserted: boolean;
}

/** Everything the card commands keep on the virtual pinpad: it outlives sessions (CLO) and link drops. */
export interface CardSim {
  deck: CardDeck;
  tables: SimTables;
  dukpt: SimDukpt;
  held: HeldCard | undefined;
  /** PP_ICCSTAT of the last chip read, reported with the next stripe read. */
  lastIccStatus: '0' | '1' | '2';
  /** Failures already shown once (a phone's "see phone" happens once per card). */
  shownOnce: Set<string>;
  /** Application transaction counter per PAN: two bytes on the card (9F36), never past ATC_MAX. */
  atc: Map<string, number>;
  media: {
    loading?: { name: string; size: number; crc: number; type: number; chunks: Buffer[] };
    files: Map<string, { type: number; data: Buffer }>;
  };
  /** The session (state.session object) the held card and a load in progress belong to. */
  epoch: object | undefined;
  /** The state's cardEpoch the held card belongs to (a CAN that drops the EMV context moves it on). */
  cardEpoch: number;
}

const SIMS = new WeakMap<SimState, CardSim>();

/**
 * The card state of a virtual pinpad (created on first use). A new session (OPN or CLO replace
 * `state.session`; the terminal opens one on every connection) drops the card held and any table or
 * media load in progress: a pulled cable is a power cycle for a USB pinpad, and a load cut before
 * TLE must leave the tables in force (§3.5.3).
 */
export function cardSim(state: SimState): CardSim {
  let s = SIMS.get(state);
  if (!s) {
    s = {
      deck: new CardDeck(),
      tables: new SimTables(),
      dukpt: new SimDukpt(state.memory),
      held: undefined,
      lastIccStatus: '0',
      shownOnce: new Set(),
      atc: new Map(),
      media: { files: new Map() },
      epoch: state.session,
      cardEpoch: state.cardEpoch ?? 0,
    };
    SIMS.set(state, s);
  }
  if (s.epoch !== state.session) {
    s.epoch = state.session;
    s.held = undefined;
    s.tables.abort();
    s.media.loading = undefined;
  }
  if (s.cardEpoch !== (state.cardEpoch ?? 0)) {
    // the firmware dropped the EMV context: the card read is gone, the session and loads stay
    s.cardEpoch = state.cardEpoch ?? 0;
    s.held = undefined;
  }
  return s;
}
