import { type Acquirer, omniQrRouting, type EcommerceQrSales } from '../acquirer/index.js';
import type { Config } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import type { AcquirerDeliveryPort, QrCodePort } from '../engine/index.js';
import type { Db, Journal } from '../store/index.js';

/**
 * The wallet QR provider the configuration chooses (qr.provider). Outside the sandbox the host
 * pays only codes it registered: the e-commerce QR sale, unless the configuration says explicitly
 * that this acquirer registers the terminal's own codes. Without the e-commerce credentials
 * `ecommerce` is refused (CONFIG_INVALID, naming the keys).
 */
export function wantedQrProvider(config: Config, acquirer: Pick<Acquirer, 'ecommerce'>): 'terminal' | 'ecommerce' {
  const wanted = config.values.qr.provider ?? (config.values.environment === 'sandbox' ? 'terminal' : 'ecommerce');
  if (wanted === 'ecommerce' && !acquirer.ecommerce) {
    throw new OmniposError(
      'CONFIG_INVALID',
      'qr.provider: ecommerce needs the e-commerce credentials (acquirer.omni.merchantId and acquirer.omni.merchantKeyFile)',
      { path: 'qr.provider' },
    );
  }
  return wanted;
}

/**
 * The e-commerce QR sales in the journal (marked `provider: ecommerce`): with e-commerce
 * credentials they are always routed to that API, so sales made before a configuration change
 * are still settled where they live.
 */
export function ecommerceQrSales(db: Db, journal: Journal): EcommerceQrSales {
  const ecommerceRow = (merchantOrderId: string): Record<string, unknown> | undefined => {
    const e = journal.byMerchantOrderId(merchantOrderId);
    return e?.kind === 'qr' && e.data.provider === 'ecommerce' ? e.data : undefined;
  };
  const byPayment = db.prepare(
    "SELECT 1 FROM journal WHERE kind = 'qr' AND json_extract(data, '$.provider') = 'ecommerce' AND json_extract(data, '$.paymentId') = ? LIMIT 1",
  );
  return {
    paymentIdOf: (id) => {
      const p = ecommerceRow(id)?.paymentId;
      return typeof p === 'string' ? p : undefined;
    },
    ownsOrder: (id) => ecommerceRow(id) !== undefined,
    ownsPayment: (id) => byPayment.get(id) !== undefined,
  };
}

export interface QrProvider {
  /** The engine's code adapter when it is not the terminal's own (qr.provider: ecommerce). */
  codes: QrCodePort | undefined;
  /** The outbox's and the QR engine's delivery port: e-commerce QR sales to the e-commerce API, the rest to `card`. */
  delivery: AcquirerDeliveryPort;
}

/** The omni backend's wallet QR routing on its own, over a given card delivery port (tests compose it so). */
export function qrProvider(
  config: Config,
  acquirer: Acquirer,
  db: Db,
  journal: Journal,
  card: AcquirerDeliveryPort,
): QrProvider {
  const wanted = wantedQrProvider(config, acquirer);
  return omniQrRouting(
    card,
    acquirer.ecommerce,
    acquirer.ecommerce ? ecommerceQrSales(db, journal) : undefined,
    wanted,
  );
}
