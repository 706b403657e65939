import type { AcquirerDeliveryPort, SaleQuery } from '../../src/engine/ports.js';
import type { MerchantProfile } from '../../src/engine/qr/code.js';
import { deliveryPort, type Stage } from './card-host.js';
import { saleWords } from './host-model.js';

/** What the terminal's QR codes say of the merchant (test values, not a real merchant). */
export const EXPLORER_MERCHANT: MerchantProfile = {
  merchantNumber: '1020304050607080',
  terminalId: '42004201',
  mcc: '5411',
  name: 'EXPLORER',
  city: 'SAO PAULO',
  deviceType: 'P',
};

/**
 * The QR engine's own look for the payment while its code shows (a poll in real time): the query by
 * order id answered from the model with no choice (a failed poll only polls again; the outbox's
 * queries, after the code, explore their failures), so that a replayed timeline makes the same choices.
 */
export function qrPollPort(stage: Stage): AcquirerDeliveryPort {
  return {
    ...deliveryPort(stage),
    queryByOrderId(orderId): Promise<SaleQuery> {
      const s = stage.host.salesByOrder(orderId, stage.now()).find((x) => x.terminal === 'ours');
      return Promise.resolve(
        s ? { kind: 'found', paymentId: s.paymentId, state: saleWords(s) } : { kind: 'not-found' },
      );
    },
  };
}
