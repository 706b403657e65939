import type { AcquirerDeliveryPort, QrCodePort } from '../../src/engine/ports.js';
import type { Stage } from './card-host.js';
import type { HostSale } from './host-model.js';
import { ecommerceQrDelivery } from './rules-under-test.js';

/**
 * The e-commerce QR code sale (ecom 2460-2600): created with `Capture: true`, `Status` 12 until a
 * wallet pays it (2), voided by `PUT …/void` (10). How long the code stays payable at the host is
 * unpublished (qr 355): here, until it is voided — a wallet may pay it at any time before that.
 */
export function qrCodes(stage: Stage): QrCodePort {
  return {
    provider: 'ecommerce',
    issue(order) {
      const now = stage.now();
      const sale: HostSale = {
        merchantOrderId: order.merchantOrderId,
        paymentId: stage.host.id('qr'),
        amount: order.request.amount,
        terminal: 'ours',
        status: 12,
        confirmation: 0,
        visibleAt: now,
        takenAt: now,
        ecommerce: true,
      };
      stage.host.sales.push(sale);
      stage.say(`e-commerce QR sale ${order.merchantOrderId} ${order.request.amount} created (Status 12)`);
      return Promise.resolve({ qrCode: '00020101021226', paymentId: sale.paymentId });
    },
  };
}

/** A wallet pays the e-commerce QR sale of `sale` (12 → 2). */
export function walletPays(stage: Stage, sale: HostSale): void {
  if (sale.status !== 12) return;
  sale.status = 2;
  stage.say(`a wallet pays the e-commerce QR sale ${sale.merchantOrderId} (Status 2)`);
}

/** The e-commerce QR sales still payable at the host. */
export function payable(stage: Stage): HostSale[] {
  return stage.host.sales.filter((s) => s.ecommerce === true && s.status === 12);
}

/** The outbox's and the QR engine's requests on e-commerce QR sales (the code under test decides them). */
export function qrDelivery(stage: Stage): AcquirerDeliveryPort {
  const { host } = stage;
  return ecommerceQrDelivery(
    {
      status: (id) => host.saleByPayment(id)?.status,
      void: (id) => {
        const s = host.saleByPayment(id);
        if (!s) return undefined;
        if (s.status === 2 || s.status === 12) {
          s.status = 10;
          stage.say(`e-commerce QR sale ${s.merchantOrderId} voided at the host (Status 10)`);
        }
        return s.status;
      },
    },
    (orderId) => host.sales.find((s) => s.ecommerce === true && s.merchantOrderId === orderId)?.paymentId,
  );
}

/** One delivery port for the outbox: e-commerce QR sales to theirs, every other sale to the card's. */
export function routed(card: AcquirerDeliveryPort, qr: AcquirerDeliveryPort, stage: Stage): AcquirerDeliveryPort {
  const isQrOrder = (id: string): boolean => stage.host.sales.some((s) => s.ecommerce && s.merchantOrderId === id);
  const isQrPayment = (id: string): boolean => stage.host.saleByPayment(id)?.ecommerce === true;
  return {
    confirm: (id, emv) => (isQrPayment(id) ? qr : card).confirm(id, emv),
    undo: (id, emv) => (isQrPayment(id) ? qr : card).undo(id, emv),
    undoByOrderId: (id, emv) => (isQrOrder(id) ? qr : card).undoByOrderId(id, emv),
    queryByOrderId: (id, expected) => (isQrOrder(id) ? qr : card).queryByOrderId(id, expected),
    // The port's optional void of a code's pending sale (absent on ports that hold nothing for a code).
    cancelPending: (id) =>
      isQrOrder(id) && qr.cancelPending
        ? qr.cancelPending(id)
        : Promise.resolve({ action: 'done', reason: 'the host holds nothing payable for this code' }),
  };
}
