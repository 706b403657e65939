import { randomBytes } from 'node:crypto';
import { card, DSP, PinpadError, isPinpadError } from '../../drivers/pinpad/index.js';
import { CHIP_TAGS_FIRST as TAGS_FIRST, OmniposError, isOmniposError, withDeadline } from '../core/index.js';
import type { CardPort, CardRequest, EncryptedCard, PromptListener, CardSummary, InputMode } from '../engine/index.js';
import { type ChipFinish, finishChipOnPinpad } from './pinpad-card-finish.js';
import {
  asOmnipos,
  type CardPinpad,
  fail,
  gcxDeadlineMs,
  gcxWhen,
  hexOf,
  pinDeadlineMs,
  removeCardDeadlineMs,
  sixAndFour,
  tlvMap,
} from './pinpad-card-kit.js';
import type { PinpadCardOptions } from './pinpad-card-options.js';
import type { ProductQuery, SelectionFacts } from './pinpad-card-products.js';
import { PROMPT_TEXTS, PromptRelay } from './pinpad-card-prompts.js';
import { chooseProduct, type Product } from './pinpad-card-select.js';
import { typedCardRead } from './pinpad-card-typed.js';

export type { CardPinpad } from './pinpad-card-kit.js';
export type { PinpadCardOptions } from './pinpad-card-options.js';
export { productResolver, tableProductSelector, typedEntryRefusal } from './pinpad-card-products.js';

const INPUT: Record<card.GcxResult['cardType'], { mode: InputMode; entry: ProductQuery['entry'] }> = {
  stripe: { mode: 'MagStripe', entry: 'magstripe' },
  chip: { mode: 'Emv', entry: 'emv' },
  'contactless-stripe': { mode: 'ContactlessMagStripe', entry: 'contactlessMagstripe' },
  'contactless-chip': { mode: 'ContactlessEmv', entry: 'contactlessEmv' },
};

/** GCX's own deadline (gcxDeadlineMs): an answer lost on the wire is aborted (CAN) at it, as FCX's is. */
const gcxDeadline = (signal: AbortSignal, timeoutS: number): AbortSignal =>
  withDeadline(signal, gcxDeadlineMs(timeoutS));

/** The fallback GCX (ST_ERRFALLBACK): the customer swipes the same card, within its own deadline. */
const swipeAgain = (
  p: CardPinpad,
  gcx: Parameters<typeof card.readCardWithRules>[1],
  signal: AbortSignal,
  timeoutS: number,
): ReturnType<typeof card.readCardWithRules> =>
  p.run(
    card.GCX,
    { ...gcx, contactless: false, message: PROMPT_TEXTS.swipeCard },
    { signal: gcxDeadline(signal, timeoutS) },
  );

/**
 * The engine's CardPort on the ABECS driver: GCX (contactless rules; a chip that fails falls back
 * to the stripe), the tables' product — asking the customer with MNU when several fit — then for
 * stripe GPN (when the tables ask) before GTK, for chip GTK then GOX with PIN method 3 and no
 * offline approval; typed entry with GCD and EBX where the tables allow; FCX with the host's
 * answer; RMC. The terminal holds only the masked PAN, the encrypted track 2 (and track 1 for a
 * stripe card that has one; or the typed number) with its IV and KSN, and the PIN block with its KSN. Every prompt goes to the call's listener.
 */
export class PinpadCardPort implements CardPort {
  readonly #o: PinpadCardOptions;
  #chipOpen = false;
  /** A contact chip is in the reader: the closing message waits for it to leave (RMC). */
  #inserted = false;
  /** The open chip transaction is a contactless card's (FCX's outcome rule of §3.7.4 note 2). */
  #tapped = false;

  constructor(options: PinpadCardOptions) {
    this.#o = options;
  }

  #acq(): string {
    return String(this.#o.acquirerIndex).padStart(2, '0');
  }

  accepts(request: CardRequest): void {
    if (request.entry !== 'typed') return;
    const why = this.#o.typedRefusal ? this.#o.typedRefusal(request.method) : 'this terminal takes no typed cards';
    if (why)
      throw new OmniposError('INIT_CARD_REFUSED', `typed entry: ${why}`, {
        reason: 'typing-not-allowed',
        method: request.method,
      });
  }

  async readCard(
    request: CardRequest,
    signal: AbortSignal,
    onPrompt?: PromptListener,
  ): Promise<{ summary: CardSummary; card: EncryptedCard }> {
    const relay = new PromptRelay(this.#o.pinpad, onPrompt);
    try {
      this.accepts(request);
      const read =
        request.entry === 'typed'
          ? await typedCardRead(this.#o, request, signal, relay)
          : await this.#read(request, signal, relay);
      relay.show('processing', PROMPT_TEXTS.processing);
      if (!read.summary.chip) await this.#o.pinpad.run(DSP, PROMPT_TEXTS.processing, { signal }).catch(() => undefined);
      return read;
    } catch (e) {
      throw asOmnipos(e, signal);
    }
  }

  /**
   * One card read. A contactless read the terminal cannot take — a card that approved offline, or
   * a card whose products the tables do not take contactless — is read again once with
   * contactless off, the customer asked to insert the card (docs/pinpad.md: no offline approval).
   */
  async #read(
    request: CardRequest,
    signal: AbortSignal,
    relay: PromptRelay,
    again?: { message: string },
  ): Promise<{ summary: CardSummary; card: EncryptedCard }> {
    const p = this.#o.pinpad;
    const timeoutS = this.#o.timeoutS ?? 60;
    const ted = typeof this.#o.terminalEmvData === 'function' ? this.#o.terminalEmvData() : this.#o.terminalEmvData;
    const terminalEmv = ted ? Buffer.from(ted, 'hex') : undefined;
    const contactless = again ? false : (this.#o.contactless ?? true);
    const message = again?.message ?? (contactless ? PROMPT_TEXTS.insertCardContactless : PROMPT_TEXTS.insertCard);
    const gcx = {
      amount: request.amount,
      ...gcxWhen(this.#o.now?.() ?? new Date()),
      acquirer: this.#acq(),
      contactless,
      timeoutS,
      message,
      tags: ['84', '9F06', '5F28'],
      ...(terminalEmv ? { emvData: terminalEmv } : {}),
    };
    let read: card.GcxResult;
    let fallback = false;
    this.#inserted = false;
    relay.show('insert-card', message);
    try {
      read = await relay.during('insert-card', () =>
        card.readCardWithRules(p, gcx, {
          signal: gcxDeadline(signal, timeoutS),
          onPrompt: (x) => {
            this.#o.onPrompt?.(x);
            relay.show(x, x === 'see-phone' ? PROMPT_TEXTS.seePhone : PROMPT_TEXTS.oneCard);
          },
        }),
      );
    } catch (e) {
      if (!(isPinpadError(e) && e.code === 'PINPAD_STATUS' && e.context.status === 76)) throw e;
      // ST_ERRFALLBACK: the customer swipes the same card (the tables' AllowFallbackWhenChipReadingFails decides at the product)
      relay.show('insert-card', PROMPT_TEXTS.swipeCard);
      read = await relay.during('insert-card', () => swipeAgain(p, gcx, signal, timeoutS));
      fallback = read.cardType === 'stripe';
    }
    if (read.cardType === 'stripe' && read.iccStatus === 'fallback') fallback = true;
    const { mode, entry } = INPUT[read.cardType];
    const chip = read.cardType === 'chip' || read.cardType === 'contactless-chip';
    this.#inserted = read.cardType === 'chip';
    this.#tapped = read.cardType === 'contactless-chip';
    const masked = read.maskedPan ?? '';
    const aid = tlvMap(read.emvData)['84'] ?? tlvMap(read.emvData)['9F06'];
    const query: ProductQuery = {
      entry,
      digits: masked.slice(0, 8),
      ...(aid ? { aid } : {}),
      ...(read.serviceCode ? { serviceCode: read.serviceCode } : {}),
      fallback,
      method: request.method,
    };
    const facts: SelectionFacts = {
      amount: request.amount,
      installments: request.installments ?? 1,
      interest: request.interest ?? 'ByMerchant',
      maskedPan: masked,
      ...(!chip && read.expiry ? { expiry: read.expiry } : {}),
    };
    let product: Product;
    try {
      product = await chooseProduct(this.#o, query, facts, signal, relay);
    } catch (e) {
      if (
        !again &&
        contactless &&
        (entry === 'contactlessEmv' || entry === 'contactlessMagstripe') &&
        isOmniposError(e, 'INIT_CARD_REFUSED') &&
        e.context.reason === 'contactless-not-allowed'
      ) {
        return this.#read(request, signal, relay, { message: PROMPT_TEXTS.insertCard });
      }
      throw e;
    }
    const iv = randomBytes(8);
    let pinBlock: EncryptedCard['pinBlock'];
    let emvData: string | undefined;
    let auth: CardSummary['authenticationMethod'] = 'NoPassword';
    let enc: card.GtkResult;
    if (!chip) {
      const askPin = this.#o.stripePin
        ? this.#o.stripePin(query)
        : product?.kind === 'product'
          ? product.password === 'required'
          : query.method === 'debit';
      if (askPin) {
        pinBlock = await this.#stripePin(relay, signal, timeoutS);
        auth = 'OnlineAuthentication';
      }
      // Track 1 too: the stripe sale sends TrackOneData (Conecta pt page line 3370). GTK returns PP_TRACK1 only
      // "se disponível no pinpad e requerida em SPE_TRACKS" (ABECS 2.20 §GTK), so asking costs nothing when the
      // card has none (a contactless card in stripe mode gives no PP_TRK1INC at GCX, yet may carry it).
      enc = await p.run(card.GTK, { keyIndex: this.#o.dataKeySlot, iv, pan: false, track1: true }, { signal });
    } else {
      enc = await p.run(card.GTK, { keyIndex: this.#o.dataKeySlot, iv }, { signal });
      const acquirer =
        read.aidTables.find((a) => a.acquirer === this.#acq())?.acquirer ?? read.aidTables[0]?.acquirer ?? this.#acq();
      this.#chipOpen = true;
      // terminal risk management with zeros: the Emv table's floor limits are 0 (docs/pinpad.md: no offline approval)
      const risk = { floorLimit: 0, targetPercent: 0, threshold: 0, maxTargetPercent: 0 };
      // GOX shows the PIN screen only when the card's CVM asks for it: its notifications say so.
      const gox = await relay.during('enter-pin', () =>
        p.run(
          card.GOX,
          {
            acquirer,
            amount: request.amount,
            pinKeyIndex: this.#o.pinKeySlot,
            noOfflineApproval: true,
            risk,
            tags: TAGS_FIRST,
            timeoutS,
            message: PROMPT_TEXTS.enterPin,
            ...(terminalEmv ? { emvData: terminalEmv } : {}),
          },
          { signal: withDeadline(signal, pinDeadlineMs(timeoutS)) }, // the card's processing, a PIN if its CVM asks
        ),
      );
      const outcome = card.goxOutcome(read, gox);
      if (outcome === 'insert-card') {
        this.#o.log?.warn(
          { alarm: 'contactless-offline-approval', maskedPan: sixAndFour(masked) },
          'a contactless card approved offline; the read is refused and the customer asked to insert the card',
        );
        this.#chipOpen = false;
        if (!again) return this.#read(request, signal, relay, { message: PROMPT_TEXTS.insertChip });
        throw fail('the contactless card approved offline: insert the card', {
          reason: 'contactless-offline-approval',
        });
      }
      if (outcome === 'card-fault')
        throw fail('the chip approved offline although GOX forbade it', { reason: 'offline-approval' });
      if (outcome === 'declined') throw fail('the card declined', { reason: 'card-declined' });
      if (gox.pinBlock) pinBlock = gox.pinBlock;
      auth =
        gox.pin === 'online'
          ? 'OnlineAuthentication'
          : gox.pin === 'offline-verified'
            ? 'OfflineAuthentication'
            : 'NoPassword';
      emvData = gox.emvData ? hexOf(gox.emvData) : undefined;
    }
    // GTK's track 2 as the engine holds card data (EncryptedCard); the host's shapes are its backend's (src/acquirer).
    if (!enc.track2)
      throw new PinpadError('PINPAD_PROTOCOL', 'GTK: no track 2 came back (the card has none, or it was not read)', {
        where: 'GTK',
        field: 'PP_TRACK2',
      });
    const summary: CardSummary = {
      maskedPan: sixAndFour(masked),
      inputMode: mode,
      chip,
      isFallback: fallback,
      authenticationMethod: auth,
      ...(product ? { productId: product.productId } : {}),
      ...(product?.brandId !== undefined ? { brandId: product.brandId } : {}),
      ...(product?.issuerId !== undefined ? { issuerId: product.issuerId } : {}),
      ...(read.expiry ? { expiry: `${read.expiry.slice(2, 4)}${read.expiry.slice(0, 2)}` } : {}),
      ...(chip && read.panSequenceNumber ? { panSequenceNumber: read.panSequenceNumber } : {}),
    };
    const encrypted: EncryptedCard = {
      kind: 'track2',
      data: enc.track2.data,
      ksn: enc.track2.ksn,
      iv: enc.iv,
      isTlv: false,
      ...(!chip && enc.track1 ? { track1: { data: enc.track1.data, ksn: enc.track1.ksn } } : {}),
      ...(pinBlock ? { pinBlock } : {}),
      ...(emvData ? { emvData } : {}),
    };
    return { summary, card: encrypted };
  }

  /** A stripe card's PIN (GPN), within a PIN's deadline. */
  #stripePin(relay: PromptRelay, signal: AbortSignal, timeoutS: number): Promise<card.PinBlockResult> {
    relay.show('enter-pin', PROMPT_TEXTS.enterPin);
    const message = [PROMPT_TEXTS.enterPin, ''] as const;
    return relay.during('enter-pin', () =>
      this.#o.pinpad.run(
        card.GPN,
        { keyIndex: this.#o.pinKeySlot, message },
        { signal: withDeadline(signal, pinDeadlineMs(timeoutS)) },
      ),
    );
  }

  async finishChip(
    decision: 'approved' | 'declined' | 'no-communication' | 'aborted',
    host: { authorizationCode?: string; emvResponse?: string },
  ): Promise<ChipFinish> {
    if (!this.#chipOpen) return { card: 'failed', reason: 'no chip transaction is open' };
    this.#chipOpen = false;
    return finishChipOnPinpad(this.#o, () => this.#tapped, decision, host);
  }

  async end(message: string, onPrompt?: PromptListener): Promise<void> {
    this.#chipOpen = false;
    const text = message.slice(0, 32);
    const relay = new PromptRelay(this.#o.pinpad, onPrompt);
    relay.show('message', text);
    if (this.#inserted) relay.show('remove-card', 'RETIRE O CARTAO');
    this.#inserted = false;
    try {
      // RMC blocks while the card is in: a customer who leaves it gets the message, the sale goes on after `timeoutS`
      const signal = withDeadline(undefined, removeCardDeadlineMs(this.#o.timeoutS ?? 60));
      await relay.during('remove-card', () =>
        this.#o.pinpad.run(
          card.RMC,
          text.length > 16 && !text.includes('\n')
            ? text
            : ([text.split('\n')[0]!.slice(0, 16), (text.split('\n')[1] ?? '').slice(0, 16)] as const),
          { signal },
        ),
      );
    } catch (e) {
      throw asOmnipos(e);
    }
  }
}
