import type { CardRequest } from '../engine/index.js';
import type { CardPinpad } from './pinpad-card-kit.js';
import type { ProductQuery, ProductResolver, ProductSelector } from './pinpad-card-products.js';

/** What the pinpad's card port is built with (src/adapters/pinpad-device.ts builds it from the configuration). */
export interface PinpadCardOptions {
  pinpad: CardPinpad;
  /** The acquirer's table index (TAB_ACQ), configuration `pinpad.acquirerIndex`. */
  acquirerIndex: number;
  /** DUKPT key slots (configuration `pinpad.pinKeySlot`, `pinpad.dataKeySlot`). */
  pinKeySlot: number;
  dataKeySlot: number;
  /** Offer contactless (the Acquirer table's EnableContaclessCardReader). Default true. */
  contactless?: boolean;
  /**
   * The tables' selection rules (`tableProductSelector`): the product, the customer's choice on
   * the pinpad (MNU) when several fit, refusals, and who asks for the PIN. Preferred over `resolveProduct`.
   */
  selectProduct?: ProductSelector;
  /** The product of a read without the rules (first candidate of the method); used when `selectProduct` is absent. */
  resolveProduct?: ProductResolver;
  /** Why typed entry cannot work for a method whatever number is typed (`typedEntryRefusal`); undefined = allowed. No function: typed entry refused. */
  typedRefusal?: (method: CardRequest['method']) => string | undefined;
  /** Whether a stripe read asks for the PIN (GPN); default: the selection's password rule, else debit only. */
  stripePin?: (q: ProductQuery) => boolean;
  /** Local date and time for GCX; the system clock by default. */
  now?: () => Date;
  /** Card-wait, PIN-screen, menu and typing timeouts, seconds (default 60). */
  timeoutS?: number;
  /** Told when the customer must act on their phone or show one card only (besides the sale's prompt listener). */
  onPrompt?: (prompt: 'see-phone' | 'one-card') => void;
  /**
   * EMV terminal data (hex TLV) that overrides the AID records in GCX and GOX (SPE_EMVDATA), e.g.
   * `9F350124` (terminal type 24, unattended online only) and a kiosk's `9F33` without signature CVM;
   * a function is asked at each read (the tables in force may change).
   */
  terminalEmvData?: string | (() => string | undefined);
  /**
   * How long FCX may take before it is aborted (CAN), ms; default `timeoutS` (60 s). FCX blocks while
   * a contactless card is asked back for issuer scripts (§3.7.4): a lost answer must not hold the sale
   * nor every later pinpad command.
   */
  finishTimeoutMs?: number;
  /** Where the alarm of a contactless offline approval goes. */
  log?: { warn(obj: object, msg?: string): void };
}
