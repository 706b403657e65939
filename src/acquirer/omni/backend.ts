import type { AcquirerBackend, AcquirerDeliveryPort, QrCodePort } from '../../engine/index.js';
import type { Acquirer } from '../create.js';
import type { EcommerceClient } from '../ecommerce-client.js';
import { OmniDeliveryAdapter } from './delivery.js';
import { EcommerceQrAdapter, routeQrDelivery } from './ecommerce-qr.js';
import { EcommercePixAdapter } from './pix.js';
import { OmniSaleAdapter, type TerminalIdentity } from './sale.js';
import { OmniVoidAdapter } from './voids.js';
import { walletCancellations } from './wallet-cancellations.js';

/**
 * Where this terminal's e-commerce QR code sales are (the journal knows: src/factory/qr-provider.ts),
 * so their confirmations, undos and queries go to the e-commerce API and every other to the omni one.
 */
export interface EcommerceQrSales {
  /** The PaymentId the e-commerce API gave the QR code sale of this order id, if it is one. */
  readonly paymentIdOf: (merchantOrderId: string) => string | undefined;
  readonly ownsOrder: (merchantOrderId: string) => boolean;
  readonly ownsPayment: (paymentId: string) => boolean;
}

export interface OmniBackendOptions {
  /** The acquirer's clients (src/acquirer/index.ts `createAcquirer`). */
  acquirer: Acquirer;
  /** The terminal as a sale names it (read at each sale: the pinpad's serial comes later). */
  terminal: TerminalIdentity;
  /** Told the `InitializationVersion` every sale answer carries. */
  onTablesVersion?: (version: string) => void;
  /**
   * Wallet QR codes: `terminal` (the terminal builds them; the wallet's payment is a terminal
   * sale) or `ecommerce` (the e-commerce API's QR code sale, which needs its credentials).
   */
  qrProvider: 'terminal' | 'ecommerce';
  /** With e-commerce credentials: the QR code sales made there, routed there whatever `qrProvider` says now. */
  ecommerceQrSales?: EcommerceQrSales;
}

/**
 * The omni backend: the acquirer's terminal API (`physicalSales`) for card sales, their delivery
 * and voids, and its initialization; the e-commerce API for Pix and (when chosen) wallet QR code
 * sales. Every host number is read here and below (outcomes.ts, states.ts), never in the engine.
 */
export function omniBackend(o: OmniBackendOptions): AcquirerBackend {
  const { omni, ecommerce } = o.acquirer;
  const card: AcquirerDeliveryPort = new OmniDeliveryAdapter(omni, {
    terminalId: o.terminal.terminalId,
    subordinatedMerchantId: o.terminal.subordinatedMerchantId,
  });
  const qr = omniQrRouting(card, ecommerce, o.ecommerceQrSales, o.qrProvider);
  return {
    kind: 'omni',
    sales: new OmniSaleAdapter(omni, o.terminal, o.onTablesVersion),
    delivery: qr.delivery,
    voids: new OmniVoidAdapter(omni),
    walletCancellations: walletCancellations(omni),
    qrCodes: qr.codes,
    pix: ecommerce ? new EcommercePixAdapter(ecommerce) : undefined,
    initialization: {
      download: () => omni.initialization(o.terminal.subordinatedMerchantId, o.terminal.terminalId),
    },
    probe: (timeoutMs) => o.acquirer.tokens.refresh('transactional', timeoutMs),
  };
}

/**
 * The wallet QR codes and the delivery port: with the e-commerce client and its QR code sales,
 * requests about those go to the e-commerce API (`routeQrDelivery`) and the codes come from it when
 * `provider` is `ecommerce`; otherwise everything goes to `card` and the terminal builds its codes.
 */
export function omniQrRouting(
  card: AcquirerDeliveryPort,
  ecommerce: EcommerceClient | undefined,
  sales: EcommerceQrSales | undefined,
  provider: 'terminal' | 'ecommerce',
): { delivery: AcquirerDeliveryPort; codes: QrCodePort | undefined } {
  if (!ecommerce || !sales) return { delivery: card, codes: undefined };
  const adapter = new EcommerceQrAdapter(ecommerce, sales.paymentIdOf);
  return {
    delivery: routeQrDelivery(card, adapter, { order: sales.ownsOrder, payment: sales.ownsPayment }),
    codes: provider === 'ecommerce' ? adapter : undefined,
  };
}
