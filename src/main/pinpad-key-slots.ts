import type { PinpadInfo } from '../../drivers/pinpad/index.js';
import type { KeySlotsView, KeySlotView } from '../api/index.js';
import type { Logger } from '../core/log/index.js';

/** The pinpad as this reader needs it (the daemon's SecurePinpad). */
export interface KeySlotSource {
  readonly status: string;
  info(): Promise<PinpadInfo>;
  on(event: 'link', listener: (e: { state: string }) => void): unknown;
  off(event: 'link', listener: (e: { state: string }) => void): unknown;
}

/** The pinpad as a sale's PinPadInformation names it: its serial number and its card readers (GIX/GIN). */
export interface PinpadIdentity {
  serialNumber: string;
  contactless: boolean;
}

const slotName = (n: number): string => String(n).padStart(2, '0');

/** The slots worth showing: those holding a key, and the configured one. */
function pick(
  slots: Readonly<Record<string, string>> | undefined,
  configured: number,
  ksn: Readonly<Record<string, string>> = {},
): Record<string, KeySlotView> | null {
  if (!slots) return null;
  const out: Record<string, KeySlotView> = {};
  const want = slotName(configured);
  for (const [slot, v] of Object.entries(slots)) {
    if (v === 'present' || slot === want) out[slot] = { present: v === 'present', ksn: ksn[slot] ?? null };
  }
  if (!(want in out)) out[want] = { present: false, ksn: null };
  return out;
}

/**
 * Reads the pinpad's DUKPT key slots once, while the daemon holds the pinpad (so `omnipos diag`
 * and the technician see them without stopping it): at start when the pinpad is connected, else
 * at its first connection. GIX is not a blocking command: queued before any sale, it interrupts
 * nothing. A failed read is shown with its reason and tried again at the next connection.
 */
export class PinpadKeySlots {
  #view: KeySlotsView;
  #identity: PinpadIdentity | undefined;
  #reading: Promise<void> | undefined;
  #done = false;
  readonly #listener = (e: { state: string }): void => {
    if (e.state === 'connected' || e.state === 'reconnected') void this.read();
  };

  constructor(
    private readonly pinpad: KeySlotSource,
    configured: { pin: number; data: number },
    private readonly now: () => Date,
    private readonly log: Logger,
  ) {
    this.#view = { readAt: null, error: null, configured, pin: null, data: null };
  }

  /** Reads now when connected, and at the first connection otherwise. */
  start(): this {
    this.pinpad.on('link', this.#listener);
    if (this.pinpad.status === 'connected') void this.read();
    return this;
  }

  stop(): Promise<void> {
    this.pinpad.off('link', this.#listener);
    return this.#reading ?? Promise.resolve();
  }

  /** One read (a call during a read shares it); after a successful one, nothing more is asked. */
  read(): Promise<void> {
    if (this.#done) return Promise.resolve();
    this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
    return this.#reading;
  }

  async #read(): Promise<void> {
    const { pin, data } = this.#view.configured;
    try {
      const info = await this.pinpad.info();
      this.#identity = { serialNumber: info.serialNumber, contactless: info.contactless };
      this.#view = {
        readAt: this.now().toISOString(),
        error: null,
        configured: { pin, data },
        pin: pick(info.keys.dukptPin, pin, info.dukptPinKsn),
        data: pick(info.keys.dukptData, data),
      };
      this.#done = true;
      this.pinpad.off('link', this.#listener);
      this.log.info(
        { pin: this.#view.pin?.[slotName(pin)]?.present, data: this.#view.data?.[slotName(data)]?.present },
        'pinpad key slots read',
      );
    } catch (e) {
      this.#view = { ...this.#view, error: (e as Error).message };
      this.log.warn({ err: e }, 'pinpad key slots not read; trying again at the next connection');
    }
  }

  view(): KeySlotsView {
    return this.#view;
  }

  /** What the same answer said of the pinpad itself (undefined until a read succeeded). */
  identity(): PinpadIdentity | undefined {
    return this.#identity;
  }
}
