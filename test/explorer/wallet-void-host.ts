import type { WalletCancellationPort } from '../../src/engine/ports.js';
import type { Stage } from './card-host.js';

/**
 * Where the terminal learns that the customer's wallet applied a cancellation code: the sale's query
 * lists the void under the sale with the code's 62.05 as its `MerchantVoidId` (the sandbox's contract,
 * a homologation question), applied when its `CancellationStatus` is 1 or 3 (pt:8111); the query host
 * may show it late (host-model.ts, late visibility). Answered from the model with no choice: the
 * in-process watch polls in real time, and a replayed timeline must make the same choices.
 */
export function walletPort(stage: Stage): WalletCancellationPort {
  return {
    applied(paymentId, merchantVoidId) {
      const v = stage.host.voids.find(
        (x) =>
          x.paymentId === paymentId &&
          x.merchantVoidId === merchantVoidId &&
          (x.cancellation === 1 || x.cancellation === 3) &&
          stage.host.visible(x, stage.now()),
      );
      return Promise.resolve(v ? { voidId: v.voidId } : undefined);
    },
  };
}
