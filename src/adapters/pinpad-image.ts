import { DEX, DSP, card, type CommandSpec } from '../../drivers/pinpad/index.js';
import type { Logger } from '../core/log/index.js';
import { formatBRL } from '../core/index.js';
import type { QrDisplayCaption, QrDisplayPort } from '../engine/index.js';
import { renderQrPng } from '../qr/index.js';

/** What this adapter needs of the pinpad driver. */
export interface PinpadRunner {
  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req): Promise<Res>;
}

export interface PinpadQrDisplayOptions {
  /** Widest image the display takes, pixels (the code is scaled down to fit; default 240). */
  maxWidth?: number;
  /** The multimedia file name the image is loaded under (SPE_MFNAME, exactly 8 letters or digits; default QRCODE01). */
  fileName?: string;
}

/**
 * The QR code on the pinpad's display (ABECS §3.4): rendered as a PNG (the `qrcode` matrix,
 * scaled to the display) and loaded with MLI/MLR/MLE, then shown with DSI. A pinpad that cannot
 * (no multimedia support: ERR/010, an unknown command, a file error) shows a text instead: DEX,
 * or DSP on a classic pinpad. Only non-blocking commands are sent, one at a time.
 */
export class PinpadQrDisplay implements QrDisplayPort {
  readonly #pinpad: PinpadRunner;
  readonly #log: Logger;
  readonly #maxWidth: number;
  readonly #name: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(pinpad: PinpadRunner, log: Logger, options: PinpadQrDisplayOptions = {}) {
    this.#pinpad = pinpad;
    this.#log = log;
    this.#maxWidth = options.maxWidth ?? 240;
    this.#name = options.fileName ?? 'QRCODE01';
  }

  show(qrCode: string, caption: QrDisplayCaption): Promise<'image' | 'text'> {
    return this.#serial(async () => {
      try {
        const png = await renderQrPng(qrCode, { maxWidth: this.#maxWidth, ecc: 'M' });
        await card.showImage(this.#pinpad, { name: this.#name, type: 'png', data: png });
        return 'image' as const;
      } catch (e) {
        this.#log.info({ err: e }, 'the pinpad did not show the QR image; showing text');
      }
      const what = caption.kind === 'pix' ? 'PIX' : 'QR CODE';
      await this.#text(`${formatBRL(caption.amount)}\nPAGUE COM ${what}\nNA TELA DO CAIXA`, [
        `${what} ${formatBRL(caption.amount)}`,
        'VEJA A TELA',
      ]);
      return 'text' as const;
    });
  }

  clear(): Promise<void> {
    return this.#serial(() => this.#text('', ['', '']));
  }

  async #text(dex: string, dsp: [string, string]): Promise<void> {
    try {
      await this.#pinpad.run(DEX, { text: dex, options: { horizontal: 'center', vertical: 'center', kind: 'info' } });
    } catch {
      await this.#pinpad.run(DSP, dsp.map((l) => l.slice(0, 16)) as [string, string]);
    }
  }

  #serial<T>(f: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(f, f);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
