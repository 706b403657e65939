import type { PaymentMethod, Cents } from '../core/index.js';
import type { Environment } from '../config/index.js';

/** One row of the omni answer's `ReceiptInformation`. */
export interface ReceiptInformationRow {
  readonly Field: string;
  readonly Label: string;
  readonly Content: string;
}

/** One row of the omni answer's `PrintMessage`. */
export interface PrintMessageRow {
  readonly Position: string;
  readonly Message: string;
}

/** Characters per line the receipt is laid out for (58 mm, 80 mm at 42 and at 48 columns). */
export type ReceiptColumns = 32 | 42 | 48;
export const RECEIPT_COLUMNS: readonly ReceiptColumns[] = [32, 42, 48];

export type ReceiptCopy = 'customer' | 'merchant';
export type ReceiptKind = 'sale' | 'void';

/** Everything a card receipt is made of: the host's rows plus what the terminal knows. */
export interface ReceiptSource {
  readonly kind: ReceiptKind;
  readonly environment: Environment;
  /** Card products, or a wallet's payment of the terminal's QR code, or Pix. */
  readonly paymentType: PaymentMethod;
  readonly amount: Cents;
  /** 1 = à vista. */
  readonly installments: number;
  readonly interest?: 'ByMerchant' | 'ByIssuer';
  readonly receiptInformation: readonly ReceiptInformationRow[];
  readonly printMessages?: readonly PrintMessageRow[];
  readonly merchantOrderId: string;
  /** Used when the host's rows lack them. */
  readonly authorizationCode?: string;
  readonly nsu?: string;
  /** As the pinpad gave it (first 8, last 4 at most); printed as first 6 and last 4 at most. */
  readonly maskedPan?: string;
  readonly brand?: string;
  /** How the cardholder was verified: a signature line on the merchant copy only for `signature`. */
  readonly cvm?: 'pin' | 'signature' | 'none';
  /**
   * A sale without the card present: marked "VENDA DIGITADA", its mode "CARTÃO NÃO PRESENTE" (the
   * card's expiry and security code are never in a source); `preAuthorization`: titled PRÉ-AUTORIZAÇÃO.
   */
  readonly cardNotPresent?: { readonly preAuthorization: boolean };
  /** A link to the receipt's digital copy, printed as a QR code at the end (kiosks, screens). */
  readonly digitalCopy?: string;
  /** A reprint: marked "SEGUNDA VIA (2a VIA)" under the copy's name. */
  readonly reprint?: boolean;
  /** A void's: the sale it gives money back for, printed under "VENDA ORIGINAL". */
  readonly original?: { readonly merchantOrderId: string; readonly nsu?: string; readonly authorizationCode?: string };
  /** When the row lacks DATE/HOUR. */
  readonly at?: { readonly date: string; readonly time: string };
}

export type Align = 'left' | 'center' | 'right';

/**
 * The receipt as a printer-neutral document. Same shape as drivers/printer's `PrintDocument`
 * (src/ may not import drivers/; test/unit/receipt/document-shape.test.ts keeps them equal), so
 * `encodeDocument(receiptDocument(...), model)` gives the bytes.
 */
export type ReceiptOp =
  | {
      readonly op: 'text';
      readonly text: string;
      readonly align?: Align;
      readonly bold?: boolean;
      readonly underline?: boolean;
      readonly width?: 1 | 2;
      readonly height?: 1 | 2;
    }
  | { readonly op: 'feed'; readonly lines: number }
  | { readonly op: 'qr'; readonly data: string; readonly size?: number; readonly ecc?: 'L' | 'M' | 'Q' | 'H' }
  | { readonly op: 'cut'; readonly kind?: 'partial' | 'full' };

export type ReceiptDocument = readonly ReceiptOp[];
