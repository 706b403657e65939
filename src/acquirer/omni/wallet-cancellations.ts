import type { WalletCancellationPort } from '../../engine/index.js';
import type { OmniClient } from './client.js';

/**
 * Whether the wallet applied a cancellation code: the sale's query lists the voids the wallet
 * applied under `Payment.Voids` (the sandbox's contract, a homologation question), applied when
 * its `CancellationStatus` is 1 (authorized) or 3 (confirmed) (cielo-conecta.md:8111 "1 =
 * Autorizado … 3 = Confirmado").
 */
export function walletCancellations(omni: Pick<OmniClient, 'getSale'>): WalletCancellationPort {
  return {
    async applied(paymentId, merchantVoidId) {
      const sale = await omni.getSale(paymentId);
      const voids = (sale.Payment as { Voids?: unknown }).Voids;
      if (!Array.isArray(voids)) return undefined;
      const hit = (voids as { MerchantVoidId?: unknown; VoidId?: unknown; CancellationStatus?: unknown }[]).find(
        (v) =>
          String(v.MerchantVoidId) === merchantVoidId &&
          typeof v.VoidId === 'string' &&
          (v.CancellationStatus === 1 || v.CancellationStatus === 3),
      );
      return hit ? { voidId: hit.VoidId as string } : undefined;
    },
  };
}
