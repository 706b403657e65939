import { randomBytes } from 'node:crypto';
import { card, isPinpadError, type CommandSpec, type RunOptions } from '../../drivers/pinpad/index.js';
import { OmniposError } from '../core/errors/index.js';
import { decodeTlv, encodeTlv } from '../emv/index.js';
import type { CardPort, CardRequest, EncryptedCard } from '../engine/ports.js';
import type { CardSummary, InputMode } from '../engine/sale/types.js';
import { candidateProducts, paymentTypeOf, type TableSet } from '../initialization/index.js';

/** Anything that runs the driver's command specs (Pinpad or SecurePinpad). */
export interface CardPinpad {
  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res>;
}

/** What the product tables need to know of a read (never the full PAN: the first 8 digits). */
export interface ProductQuery {
  entry: 'magstripe' | 'emv' | 'contactlessMagstripe' | 'contactlessEmv';
  digits: string;
  aid?: string;
  serviceCode?: string;
  fallback: boolean;
  method: CardRequest['method'];
}

export type ProductResolver = (q: ProductQuery) => { productId: number; brandId?: number; issuerId?: number } | undefined;

export interface PinpadCardOptions {
  pinpad: CardPinpad;
  /** The acquirer's table index (TAB_ACQ), configuration `pinpad.acquirerIndex`. */
  acquirerIndex: number;
  /** DUKPT key slots (configuration `pinpad.pinKeySlot`, `pinpad.dataKeySlot`). */
  pinKeySlot: number;
  dataKeySlot: number;
  /** Offer contactless (the Acquirer table's EnableContaclessCardReader). Default true. */
  contactless?: boolean;
  /** The product of a read; `productResolver(tableSet)` answers from the initialization tables. */
  resolveProduct?: ProductResolver;
  /** Whether a stripe read asks for the PIN (GPN); default: debit only. */
  stripePin?: (q: ProductQuery) => boolean;
  /** Local date and time for GCX; the system clock by default. */
  now?: () => Date;
  /** Card-wait and PIN-screen timeouts, seconds (default 60). */
  timeoutS?: number;
  /** Told when the customer must act on their phone or show one card only. */
  onPrompt?: (prompt: 'see-phone' | 'one-card') => void;
  /**
   * EMV terminal data (hex TLV) that overrides the AID records in GCX and GOX (SPE_EMVDATA), e.g.
   * `9F350125` (terminal type 25, unattended) and a kiosk's `9F33` without signature CVM.
   */
  terminalEmvData?: string;
  /** Where the alarm of a contactless offline approval goes. */
  log?: { warn(obj: object, msg?: string): void };
}

/** The first tag list (GOX): what the sale's EmvData carries (the Emv table's TagsFirst of the sandbox). */
const TAGS_FIRST = ['5F2A', '5F34', '82', '84', '95', '9A', '9C', '9F02', '9F03', '9F09', '9F10', '9F1A', '9F1E', '9F26', '9F27', '9F33', '9F34', '9F35', '9F36', '9F37', '9F41', '9F53'];
/** The second tag list (FCX): what confirmation and undo carry. */
const TAGS_SECOND = ['95', '9B', '9F26', '9F27', '9F10', '9F36', '9F37', '8A', '9F5B'];

const INPUT: Record<card.GcxResult['cardType'], { mode: InputMode; entry: ProductQuery['entry'] }> = {
  stripe: { mode: 'MagStripe', entry: 'magstripe' },
  chip: { mode: 'Emv', entry: 'emv' },
  'contactless-stripe': { mode: 'ContactlessMagStripe', entry: 'contactlessMagstripe' },
  'contactless-chip': { mode: 'ContactlessEmv', entry: 'contactlessEmv' },
};

/** Driver errors carry the catalogue's codes (PINPAD_*): rethrown as OmniposError with the same code and context. */
function asOmnipos(e: unknown): unknown {
  if (isPinpadError(e)) return new OmniposError(e.code, e.message, e.context);
  return e;
}

function fail(message: string, context: Record<string, unknown> = {}): OmniposError {
  return new OmniposError('PINPAD_STATUS', message, context);
}

/** The first 6 and last 4 digits, the rest masked (CardSummary; the pinpad gives 8 + 4). */
function sixAndFour(masked: string): string {
  return masked.length <= 10 ? masked : masked.slice(0, 6) + '*'.repeat(masked.length - 10) + masked.slice(-4);
}

function tlvMap(b: Uint8Array | undefined): Record<string, string> {
  if (!b || b.length === 0) return {};
  try {
    return Object.fromEntries(decodeTlv(b).map((o) => [o.tag, Buffer.from(o.value).toString('hex').toUpperCase()]));
  } catch {
    return {};
  }
}

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

/** Resolves the product from the initialization tables (the first candidate of the sale's payment type). */
export function productResolver(set: TableSet): ProductResolver {
  const want = { credit: 'PhysicalCreditCard', debit: 'PhysicalDebitCard', voucher: 'PhysicalVoucherCard' } as const;
  return (q) => {
    const d = candidateProducts(set, { entry: q.entry, digits: q.digits, ...(q.aid ? { aid: q.aid } : {}), ...(q.serviceCode ? { serviceCode: q.serviceCode } : {}), fallback: q.fallback });
    if (!d.ok) return undefined;
    const c = d.candidates.find((x) => paymentTypeOf(x.product) === want[q.method]) ?? undefined;
    if (!c) return undefined;
    return { productId: c.product.ProductId, brandId: Number(c.product.BrandId), ...(c.issuer ? { issuerId: c.issuer.IssuerId } : {}) };
  };
}

/**
 * The engine's CardPort on the ABECS driver: GCX (contactless rules; a chip that fails falls back
 * to the stripe), then for stripe GPN (when asked) before GTK, for chip GTK then GOX with PIN
 * method 3 and no offline approval; FCX with the host's answer; RMC. The terminal holds only the
 * masked PAN, the encrypted track 2 with its IV and KSN, and the PIN block with its KSN.
 */
export class PinpadCardPort implements CardPort {
  readonly #o: PinpadCardOptions;
  #chipOpen = false;

  constructor(options: PinpadCardOptions) {
    this.#o = options;
  }

  #acq(): string {
    return String(this.#o.acquirerIndex).padStart(2, '0');
  }

  #when(): { date: string; time: string } {
    const d = this.#o.now?.() ?? new Date();
    const p = (n: number): string => String(n).padStart(2, '0');
    return { date: `${p(d.getFullYear() % 100)}${p(d.getMonth() + 1)}${p(d.getDate())}`, time: `${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}` };
  }

  async readCard(request: CardRequest, signal: AbortSignal): Promise<{ summary: CardSummary; card: EncryptedCard }> {
    try {
      return await this.#read(request, signal);
    } catch (e) {
      throw asOmnipos(e);
    }
  }

  async #read(request: CardRequest, signal: AbortSignal): Promise<{ summary: CardSummary; card: EncryptedCard }> {
    const p = this.#o.pinpad;
    const timeoutS = this.#o.timeoutS ?? 60;
    const terminalEmv = this.#o.terminalEmvData ? Buffer.from(this.#o.terminalEmvData, 'hex') : undefined;
    const gcx = { amount: request.amount, ...this.#when(), acquirer: this.#acq(), contactless: this.#o.contactless ?? true, timeoutS, tags: ['84', '9F06', '5F28'], ...(terminalEmv ? { emvData: terminalEmv } : {}) };
    let read: card.GcxResult;
    let fallback = false;
    try {
      read = await card.readCardWithRules(p, gcx, { signal, ...(this.#o.onPrompt ? { onPrompt: this.#o.onPrompt } : {}) });
    } catch (e) {
      if (!(isPinpadError(e) && e.code === 'PINPAD_STATUS' && e.context.status === 76)) throw e;
      // ST_ERRFALLBACK: the customer swipes the same card (the tables' AllowFallbackWhenChipReadingFails decides at the host's product)
      read = await p.run(card.GCX, { ...gcx, contactless: false }, { signal });
      fallback = read.cardType === 'stripe';
    }
    if (read.cardType === 'stripe' && read.iccStatus === 'fallback') fallback = true;
    const { mode, entry } = INPUT[read.cardType];
    const chip = read.cardType === 'chip' || read.cardType === 'contactless-chip';
    const masked = read.maskedPan ?? '';
    const aid = tlvMap(read.emvData)['84'] ?? tlvMap(read.emvData)['9F06'];
    const query: ProductQuery = { entry, digits: masked.slice(0, 8), ...(aid ? { aid } : {}), ...(read.serviceCode ? { serviceCode: read.serviceCode } : {}), fallback, method: request.method };
    const product = this.#o.resolveProduct?.(query);
    const iv = randomBytes(8);
    let pinBlock: EncryptedCard['pinBlock'];
    let emvData: string | undefined;
    let auth: CardSummary['authenticationMethod'] = 'NoPassword';
    let enc: card.GtkResult;
    if (!chip) {
      if ((this.#o.stripePin ?? ((q) => q.method === 'debit'))(query)) {
        pinBlock = await p.run(card.GPN, { keyIndex: this.#o.pinKeySlot, message: ['DIGITE A SENHA', ''] }, { signal });
        auth = 'OnlineAuthentication';
      }
      enc = await p.run(card.GTK, { keyIndex: this.#o.dataKeySlot, iv, pan: false }, { signal });
    } else {
      enc = await p.run(card.GTK, { keyIndex: this.#o.dataKeySlot, iv }, { signal });
      const acquirer = read.aidTables.find((a) => a.acquirer === this.#acq())?.acquirer ?? read.aidTables[0]?.acquirer ?? this.#acq();
      this.#chipOpen = true;
      // terminal risk management with zeros: the Emv table's floor limits are 0 (DESIGN.md: no offline approval)
      const risk = { floorLimit: 0, targetPercent: 0, threshold: 0, maxTargetPercent: 0 };
      const gox = await p.run(
        card.GOX,
        { acquirer, amount: request.amount, pinKeyIndex: this.#o.pinKeySlot, noOfflineApproval: true, risk, tags: TAGS_FIRST, timeoutS, ...(terminalEmv ? { emvData: terminalEmv } : {}) },
        { signal },
      );
      const outcome = card.goxOutcome(read, gox);
      if (outcome === 'insert-card') {
        this.#o.log?.warn({ alarm: 'contactless-offline-approval', maskedPan: sixAndFour(masked) }, 'a contactless card approved offline; the read is refused and the customer asked to insert the card');
        throw fail('the contactless card approved offline: insert the card', { reason: 'contactless-offline-approval' });
      }
      if (outcome === 'card-fault') throw fail('the chip approved offline although GOX forbade it', { reason: 'offline-approval' });
      if (outcome === 'declined') throw fail('the card declined', { reason: 'card-declined' });
      if (gox.pinBlock) pinBlock = gox.pinBlock;
      auth = gox.pin === 'online' ? 'OnlineAuthentication' : gox.pin === 'offline-verified' ? 'OfflineAuthentication' : 'NoPassword';
      emvData = gox.emvData ? hexOf(gox.emvData) : undefined;
    }
    const t2 = card.acquirerTrackData(enc);
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
      data: t2.TrackTwoData,
      ksn: t2.EncryptedCardData.TrackTwoDataKSN,
      iv: t2.EncryptedCardData.InitializationVector,
      isTlv: false,
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
    try {
      const r = await this.#o.pinpad.run(card.FCX, {
        outcome,
        ...(outcome !== 'no-communication' ? { arc: arc ?? (outcome === 'approved' ? '00' : '05') } : {}),
        ...(hostTlv ? { emvData: hostTlv } : {}),
        tags: TAGS_SECOND,
      });
      const emv = tlvMap(r.emvData);
      if (r.issuerScriptResults) emv['9F5B'] = hexOf(r.issuerScriptResults);
      return { card: r.decision, emv };
    } catch (e) {
      return { card: 'failed', reason: (e as Error).message };
    }
  }

  async end(message: string): Promise<void> {
    this.#chipOpen = false;
    const text = message.slice(0, 32);
    try {
      await this.#o.pinpad.run(card.RMC, text.length > 16 && !text.includes('\n') ? text : ([text.split('\n')[0]!.slice(0, 16), (text.split('\n')[1] ?? '').slice(0, 16)] as const));
    } catch (e) {
      throw asOmnipos(e);
    }
  }
}
