import type { TableSet } from '../../initialization/index.js';
import type { ExpiryKey, MerchantOrderIds } from '../../store/index.js';
import type { OwnerDeps } from '../machine-owner.js';
import type { CardPort, VoidHostPort } from '../ports.js';
import type { SupervisorGate } from './supervisor.js';
import type { VoidStateName, VoidStatus } from './types.js';
import type { WalletVoidOptions } from './wallet.js';

/** What the VoidEngine tells (the API's event stream) and what it is built from. */

export type VoidEvent =
  | {
      type: 'state';
      id: number;
      merchantOrderId: string;
      state: VoidStateName;
      status: VoidStatus;
      input: string;
      kind: 'void';
      saleId: number;
    }
  | { type: 'alarm'; id: number; code: string; message: string }
  | { type: 'receipt-question'; id: number }
  /** A wallet QR void: show this cancellation code to the customer (screen, pinpad). */
  | { type: 'qr'; id: number; qrCode: string; expiresAt: string; kind: 'void-cancellation' };

export interface VoidEngineDeps extends OwnerDeps {
  /** The never-repeating generator `MerchantVoidId`s come from (the sales' one). */
  orderIds: MerchantOrderIds;
  /** The card port that reads with the refund transaction type. */
  card: CardPort;
  host: VoidHostPort;
  /** The terminal's key for the card's expiry: the void's card matches the sale's by its keyed hash. */
  expiryKey: ExpiryKey;
  supervisor: SupervisorGate;
  /** The initialization tables in force (the issuers' limits, the cancellation parameters). */
  tables: () => TableSet | undefined;
  /** The outbox can refund Pix sales (the e-commerce credentials are configured). */
  pixRefunds?: boolean;
  /** Voids of wallet QR sales by cancellation code (absent: refused). */
  wallet?: WalletVoidOptions;
  onEvent?: (event: VoidEvent) => void;
}
