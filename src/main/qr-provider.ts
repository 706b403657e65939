import type { Acquirer } from '../acquirer/index.js';
import { EcommerceQrAdapter, routeQrDelivery } from '../acquirer/omni/ecommerce-qr.js';
import type { Config } from '../config/index.js';
import { OmniposError } from '../core/errors/index.js';
import type { AcquirerDeliveryPort } from '../engine/ports.js';
import type { QrCodePort } from '../engine/qr/code-port.js';
import type { Db, Journal } from '../store/index.js';

export interface QrProvider {
  /** The engine's code adapter when it is not the terminal's own (qr.provider: ecommerce). */
  codes: QrCodePort | undefined;
  /** The outbox's and the QR engine's delivery port: e-commerce QR sales to the e-commerce API, the rest to `card`. */
  delivery: AcquirerDeliveryPort;
}

/**
 * The wallet QR adapter the configuration chooses (qr.provider). With e-commerce credentials the
 * e-commerce QR sales in the journal (marked `provider: ecommerce`) are always routed to that API,
 * so sales made before a configuration change are still settled where they live.
 */
export function qrProvider(
  config: Config,
  acquirer: Acquirer,
  db: Db,
  journal: Journal,
  card: AcquirerDeliveryPort,
): QrProvider {
  // Outside the sandbox the host pays only codes it registered: the e-commerce QR sale, unless the
  // configuration says explicitly that this acquirer registers the terminal's own codes.
  const wanted = config.values.qr.provider ?? (config.values.environment === 'sandbox' ? 'terminal' : 'ecommerce');
  if (!acquirer.ecommerce) {
    if (wanted === 'ecommerce') {
      throw new OmniposError(
        'CONFIG_INVALID',
        'qr.provider: ecommerce needs the e-commerce credentials (acquirer.merchantId and acquirer.merchantKeyFile)',
        { path: 'qr.provider' },
      );
    }
    return { codes: undefined, delivery: card };
  }
  const ecommerceRow = (merchantOrderId: string): Record<string, unknown> | undefined => {
    const e = journal.byMerchantOrderId(merchantOrderId);
    return e?.kind === 'qr' && e.data.provider === 'ecommerce' ? e.data : undefined;
  };
  const byPayment = db.prepare(
    "SELECT 1 FROM journal WHERE kind = 'qr' AND json_extract(data, '$.provider') = 'ecommerce' AND json_extract(data, '$.paymentId') = ? LIMIT 1",
  );
  const adapter = new EcommerceQrAdapter(acquirer.ecommerce, (id) => {
    const p = ecommerceRow(id)?.paymentId;
    return typeof p === 'string' ? p : undefined;
  });
  return {
    codes: wanted === 'ecommerce' ? adapter : undefined,
    delivery: routeQrDelivery(card, adapter, {
      order: (id) => ecommerceRow(id) !== undefined,
      payment: (id) => byPayment.get(id) !== undefined,
    }),
  };
}
