import { randomBytes } from 'node:crypto';
import {
  deriveTdesKeys,
  dukptEncryptData,
  encryptPin,
  maskPan,
  nextCounter,
  toHex,
  withCounter,
} from '../crypto/index.js';
import type { CardPort, CardRequest, EncryptedCard, CardSummary, InputMode } from '../engine/index.js';
import { SANDBOX_KEYS } from '../../tables/sandbox-keys.js';
import { TEST_CARDS, type TestCard } from '../../tables/test-cards.js';

export interface SimulatedCardOptions {
  /** Which test card the customer presents (by the PAN's last digit). Default 0 (approved). */
  lastDigit?: number;
  inputMode?: Extract<InputMode, 'Emv' | 'MagStripe' | 'ContactlessEmv'>;
  /** What the PIN pad types: the card's right PIN by default. */
  pin?: string;
  /** The card's own decision after an online approval (a card can still decline). */
  cardDecision?: 'approved' | 'declined';
  /** Pretend the customer takes this long, ms. */
  delayMs?: number;
}

/** A plausible ARQC request (no card data: 9F26, 9F27, 9F10, 9F37, 95, 9F36, 82). */
const EMV_REQUEST = '9F2608A1B2C3D4E5F607089F2701809F100706011A039000009F3704DEADBEEF950500000000009F3602004182025800';

/**
 * Stands in for the pinpad's card commands until the virtual pinpad speaks them: it produces
 * exactly what a pinpad hands the terminal — a masked PAN, the track 2 under the DUKPT data key
 * in CBC with an IV, the PIN block under the DUKPT PIN key — from a test card and the sandbox's
 * keys. Sandbox only: the keys are the public test BDK.
 */
export class SimulatedCardPort implements CardPort {
  readonly #o: SimulatedCardOptions;
  #counter = 0;

  constructor(options: SimulatedCardOptions = {}) {
    this.#o = options;
  }

  #card(): TestCard {
    const digit = this.#o.lastDigit ?? 0;
    const card = TEST_CARDS.find((c) => c.lastDigitOutcome === digit);
    if (!card) throw new Error(`no test card ending in ${digit}`);
    return card;
  }

  #ksn(initial: string): string {
    this.#counter = nextCounter(this.#counter) ?? 1;
    return withCounter(initial, this.#counter).hex;
  }

  async readCard(_request: CardRequest, signal: AbortSignal): Promise<{ summary: CardSummary; card: EncryptedCard }> {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, this.#o.delayMs ?? 0);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          reject(signal.reason as Error);
        },
        { once: true },
      );
    });
    const c = this.#card();
    const inputMode = this.#o.inputMode ?? 'Emv';
    const chip = inputMode !== 'MagStripe';
    const dataKsn = this.#ksn(SANDBOX_KEYS.dataInitialKsn);
    const iv = toHex(randomBytes(8));
    const data = toHex(dukptEncryptData({ bdk: SANDBOX_KEYS.bdk }, dataKsn, Buffer.from(c.track2, 'ascii'), { iv }));
    const pinKsn = this.#ksn(SANDBOX_KEYS.pinInitialKsn);
    const pin = encryptPin({
      format: 0,
      pin: this.#o.pin ?? c.pin,
      pan: c.pan,
      key: deriveTdesKeys(SANDBOX_KEYS.bdk, pinKsn).pinKey,
    });
    const summary: CardSummary = {
      maskedPan: maskPan(c.pan),
      inputMode,
      chip,
      isFallback: false,
      authenticationMethod: 'OnlineAuthentication',
      productId: c.productId,
      brandId: c.brandId,
      issuerId: c.issuerId,
      expiry: `${c.expiry.slice(2)}${c.expiry.slice(0, 2)}`,
      ...(chip ? { panSequenceNumber: c.panSequenceNumber } : {}),
    };
    const card: EncryptedCard = {
      kind: 'track2',
      data,
      ksn: dataKsn,
      iv,
      isTlv: false,
      pinBlock: { block: toHex(pin.encryptedPinBlock), ksn: pinKsn },
      ...(chip ? { emvData: EMV_REQUEST } : {}),
    };
    return { summary, card };
  }

  finishChip(decision: 'approved' | 'declined' | 'no-communication' | 'aborted'): ReturnType<CardPort['finishChip']> {
    const approved = decision === 'approved' && (this.#o.cardDecision ?? 'approved') === 'approved';
    const emv = {
      '9F26': '1122334455667788',
      '9F27': approved ? '40' : '00',
      '95': '0000000000',
      '9F10': '06011A03A00000',
      '9F37': 'DEADBEEF',
    };
    return Promise.resolve({ card: approved ? 'approved' : 'declined', emv });
  }

  end(): Promise<void> {
    return Promise.resolve();
  }
}
