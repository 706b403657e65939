import { randomBytes } from 'node:crypto';
import { card, DSP, PinpadError, isPinpadError } from '../../drivers/pinpad/index.js';
import {
  CHIP_TAGS_FIRST as TAGS_FIRST,
  CHIP_TAGS_SECOND as TAGS_SECOND,
  OmniposError,
  isOmniposError,
} from '../core/index.js';
import { decodeTlv, encodeTlv } from '../emv/index.js';
import type { CardPort, CardRequest, EncryptedCard, PromptListener, CardSummary, InputMode } from '../engine/index.js';
import { asOmnipos, fail, gcxWhen, hexOf, sixAndFour, tlvMap, type CardPinpad } from './pinpad-card-kit.js';
import type {
  ProductQuery,
  ProductResolver,
  ProductSelection,
  ProductSelector,
  SelectionFacts,
} from './pinpad-card-products.js';
import { PROMPT_TEXTS, PromptRelay } from './pinpad-card-prompts.js';
import { readTypedCard } from './pinpad-card-typed.js';

export type { CardPinpad } from './pinpad-card-kit.js';
export {
  productResolver,
  tableProductSelector,
  typedEntryRefusal,
  type ProductQuery,
  type ProductResolver,
  type ProductSelector,
  type ProductSelection,
} from './pinpad-card-products.js';

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

const INPUT: Record<card.GcxResult['cardType'], { mode: InputMode; entry: ProductQuery['entry'] }> = {
  stripe: { mode: 'MagStripe', entry: 'magstripe' },
  chip: { mode: 'Emv', entry: 'emv' },
  'contactless-stripe': { mode: 'ContactlessMagStripe', entry: 'contactlessMagstripe' },
  'contactless-chip': { mode: 'ContactlessEmv', entry: 'contactlessEmv' },
};

type Product =
  | Extract<ProductSelection, { kind: 'product' }>
  | { kind: 'legacy'; productId: number; brandId?: number; issuerId?: number }
  | undefined;

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
          ? await this.#typed(request, signal, relay)
          : await this.#read(request, signal, relay);
      relay.show('processing', PROMPT_TEXTS.processing);
      if (!read.summary.chip) await this.#o.pinpad.run(DSP, PROMPT_TEXTS.processing, { signal }).catch(() => undefined);
      return read;
    } catch (e) {
      throw asOmnipos(e, signal);
    }
  }

  /** The tables' answer for a read: asks the customer (MNU) when several products fit; throws a refusal. */
  async #product(
    query: ProductQuery,
    facts: SelectionFacts,
    signal: AbortSignal,
    relay: PromptRelay,
  ): Promise<Product> {
    const select = this.#o.selectProduct;
    if (!select) {
      const r = this.#o.resolveProduct?.(query);
      return r ? { kind: 'legacy', ...r } : undefined;
    }
    let s = select(query, facts);
    if (s.kind === 'choose') {
      const options = s.options;
      relay.show('choose-product', PROMPT_TEXTS.chooseProduct);
      const n = await relay.during('choose-product', () =>
        this.#o.pinpad.run(
          card.MNU,
          {
            title: PROMPT_TEXTS.chooseProduct,
            options: options.map((x) => x.label.slice(0, 24)),
            timeoutS: this.#o.timeoutS ?? 60,
          },
          { signal },
        ),
      );
      s = select(query, { ...facts, productId: options[n - 1]!.productId });
    }
    if (s.kind === 'refused') throw new OmniposError('INIT_CARD_REFUSED', s.message, { reason: s.reason });
    if (s.kind === 'choose')
      throw new OmniposError('INIT_CARD_REFUSED', 'the product chosen on the pinpad does not fit the card', {
        reason: 'product-choice',
      });
    return s;
  }

  async #typed(
    request: CardRequest,
    signal: AbortSignal,
    relay: PromptRelay,
  ): Promise<{ summary: CardSummary; card: EncryptedCard }> {
    const chosen: { product?: Product } = {};
    const facts = (masked: string, expiry: string, luhnValid: boolean): SelectionFacts => ({
      amount: request.amount,
      installments: request.installments ?? 1,
      interest: request.interest ?? 'ByMerchant',
      maskedPan: masked,
      expiry,
      luhnValid,
    });
    const typed = await readTypedCard(this.#o.pinpad, {
      dataKeySlot: this.#o.dataKeySlot,
      timeoutS: this.#o.timeoutS ?? 60,
      signal,
      relay,
      accept: (masked, expiry, luhnValid) => {
        const s = this.#o.selectProduct?.(
          { entry: 'typed', digits: masked.slice(0, 8), fallback: false, method: request.method },
          facts(masked, expiry, luhnValid),
        );
        if (!s || s.kind === 'refused')
          throw new OmniposError('INIT_CARD_REFUSED', s?.message ?? 'no product rules for typed cards', {
            reason: s?.reason ?? 'typing-not-allowed',
          });
        // A typed number offers no menu on the pinpad: several products for it is a refusal, not a guess.
        if (s.kind === 'choose')
          throw new OmniposError('INIT_CARD_REFUSED', 'several products fit this typed card; read the card instead', {
            reason: 'product-choice',
          });
        chosen.product = s;
      },
    });
    const p = chosen.product;
    const summary: CardSummary = {
      maskedPan: sixAndFour(typed.masked),
      inputMode: 'Typed',
      chip: false,
      isFallback: false,
      authenticationMethod: 'NoPassword',
      ...(p ? { productId: p.productId } : {}),
      ...(p?.brandId !== undefined ? { brandId: p.brandId } : {}),
      ...(p?.issuerId !== undefined ? { issuerId: p.issuerId } : {}),
      expiry: `${typed.expiry.slice(2)}${typed.expiry.slice(0, 2)}`,
    };
    return { summary, card: typed.encrypted };
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
          signal,
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
      read = await relay.during('insert-card', () =>
        p.run(card.GCX, { ...gcx, contactless: false, message: PROMPT_TEXTS.swipeCard }, { signal }),
      );
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
      product = await this.#product(query, facts, signal, relay);
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
        relay.show('enter-pin', PROMPT_TEXTS.enterPin);
        pinBlock = await relay.during('enter-pin', () =>
          p.run(card.GPN, { keyIndex: this.#o.pinKeySlot, message: [PROMPT_TEXTS.enterPin, ''] }, { signal }),
        );
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
          { signal },
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

  async finishChip(
    decision: 'approved' | 'declined' | 'no-communication' | 'aborted',
    host: { authorizationCode?: string; emvResponse?: string },
  ): Promise<{ card: 'approved' | 'declined' | 'failed'; emv?: Record<string, string>; reason?: string }> {
    if (!this.#chipOpen) return { card: 'failed', reason: 'no chip transaction is open' };
    this.#chipOpen = false;
    let arc: string | undefined;
    let hostTlv: Uint8Array | undefined;
    if (host.emvResponse) {
      try {
        const objs = decodeTlv(host.emvResponse);
        const a = objs.find((o) => o.tag === '8A');
        if (a) arc = Buffer.from(a.value).toString('latin1');
        const rest = objs.filter((o) => o.tag !== '8A').map((o) => ({ tag: o.tag, value: Uint8Array.from(o.value) }));
        if (rest.length) hostTlv = encodeTlv(rest);
      } catch {
        // an answer the card cannot use: FCX without it
      }
    }
    const outcome = decision === 'approved' ? 'approved' : decision === 'declined' ? 'declined' : 'no-communication';
    const signal = AbortSignal.timeout(this.#o.finishTimeoutMs ?? (this.#o.timeoutS ?? 60) * 1000);
    try {
      const r = await this.#o.pinpad.run(
        card.FCX,
        {
          outcome,
          ...(outcome !== 'no-communication' ? { arc: arc ?? (outcome === 'approved' ? '00' : '05') } : {}),
          ...(hostTlv ? { emvData: hostTlv } : {}),
          tags: TAGS_SECOND,
        },
        { signal },
      );
      const emv = tlvMap(r.emvData);
      if (r.issuerScriptResults) emv['9F5B'] = hexOf(r.issuerScriptResults);
      return { card: r.decision, emv };
    } catch (e) {
      const reason = signal.aborted
        ? `FCX took longer than its deadline (${(e as Error).message})`
        : (e as Error).message;
      // §3.7.4 note 2: a contactless card has left; its FCX cancelled or failed, the host's answer
      // stands (the pinpad returns only EOT, no PP_FCXRES). A contact chip's failure is the card's.
      if (this.#tapped) return { card: outcome === 'approved' ? 'approved' : 'declined', emv: {}, reason };
      return { card: 'failed', reason };
    }
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
      const signal = AbortSignal.timeout((this.#o.timeoutS ?? 60) * 1000);
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
