import type { ReceiptPort, ReceiptSubject } from '../engine/index.js';

/**
 * The minimal virtual printer: the receipt as text lines, kept in memory (and handed to a
 * listener), always `printed`. The ESC/POS printer and its virtual twin replace it.
 */
export class TextReceiptPrinter implements ReceiptPort {
  readonly printed: string[][] = [];
  readonly #onPrint: ((lines: string[]) => void) | undefined;
  readonly #banner: string | undefined;

  constructor(options: { onPrint?: (lines: string[]) => void; testBanner?: string } = {}) {
    this.#onPrint = options.onPrint;
    this.#banner = options.testBanner;
  }

  print(sale: ReceiptSubject): Promise<'printed'> {
    const lines = [
      ...(this.#banner ? [this.#banner] : []),
      ...(sale.hostReceipt?.fields ?? []).map((f) => `${f.label}: ${f.content}`),
      `PEDIDO ${sale.merchantOrderId}`,
      ...(sale.authorizationCode ? [`AUT ${sale.authorizationCode}`] : []),
      ...(sale.hostReceipt?.messages ?? []).map((m) => m.message),
    ];
    this.printed.push(lines);
    this.#onPrint?.(lines);
    return Promise.resolve('printed');
  }
}
