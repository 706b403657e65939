import { closeAfter } from './closes.js';
import type { HostSaleState } from '../../src/engine/ports.js';

/**
 * The acquirer's host as its public manual describes it (DeveloperCielo/developercielo.github.io at
 * a5c3ddc0a; "pt" = `_i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md`, "ecom" =
 * `_i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md`), written from those pages and
 * docs/decisions.md's stated assumptions, never from our client (src/acquirer) or sandbox (src/sandbox).
 *
 * - A card sale has `Status` 0 Não Finalizado, 1 Autorizado, 2 Pago, 3 Negado, 10 Cancelado,
 *   13 Abortado and `ConfirmationStatus` 0 Pendente, 1 Confirmado, 2 Desfeito (pt 7385-7386).
 * - A void has `CancellationStatus` 0 Não Finalizado, 1 Autorizado, 2 Negado, 3 Confirmado,
 *   4 Desfeito (pt 8619); a voided sale shows `Status` 10 (pt 8077-8079).
 * - A Pix charge is 12 Pendente, 2 Pago, and stays 2 while its refund ("devolução", not instant,
 *   "podendo ser acatada ou não", ecom 1930) is pending, 11 Estornado once done (ecom 1781-1790).
 * - The daily close (docs/decisions.md, "The daily close", a homologation question): every sale
 *   and void still pending at 00:00 America/Sao_Paulo is confirmed.
 * - Late visibility (docs/decisions.md, homologation question 3, unpublished): a request the host
 *   took may not show at the query host yet; it shows at the latest `lagMs` after the close of the
 *   day it was taken in (the bound a rule "never final before the close, and a window counted from
 *   the close after it" must cover). Until then queries and undos by order id do not find it.
 */

export interface HostSale {
  merchantOrderId: string;
  paymentId: string;
  amount: number;
  /** Which terminal sent it: a second terminal may use the same order id (issue 29, defect 9). */
  terminal: 'ours' | 'other';
  status: 0 | 1 | 2 | 3 | 10 | 12 | 13;
  /** An e-commerce QR code sale (ecom 2460-2600): Capture true, 12 until a wallet pays it, no confirmation. */
  ecommerce?: boolean;
  confirmation: 0 | 1 | 2;
  /** When the query host shows it (ms); before then it is not found. */
  visibleAt: number;
  takenAt: number;
}

export interface HostVoid {
  paymentId: string;
  merchantVoidId: string;
  voidId: string;
  amount: number;
  cancellation: 0 | 1 | 2 | 3 | 4;
  visibleAt: number;
  takenAt: number;
}

export interface HostPix {
  paymentId: string;
  merchantOrderId: string;
  amount: number;
  status: 12 | 2 | 10 | 11;
  /** Refunds the provider took (each `PUT …/void` it accepted): pending until done. */
  refunds: { state: 'pending' | 'done'; askedAt: number }[];
}

export class HostModel {
  readonly sales: HostSale[] = [];
  readonly voids: HostVoid[] = [];
  readonly pix: HostPix[] = [];
  /** Closes already applied (ms). */
  #closedUpTo = 0;
  #ids = 0;

  constructor(
    readonly lagMs: number,
    start: number,
  ) {
    this.#closedUpTo = start;
  }

  id(prefix: string): string {
    return `${prefix}-${++this.#ids}`;
  }

  /** When something taken at `at` shows at the latest. */
  latestVisible(at: number): number {
    return closeAfter(at) + this.lagMs;
  }

  /** The host's clock moved to `now`: every close passed confirms what is pending (sales and voids). */
  advance(now: number): string[] {
    const told: string[] = [];
    for (;;) {
      const close = closeAfter(this.#closedUpTo);
      if (close > now) break;
      this.#closedUpTo = close;
      for (const s of this.sales) {
        if (s.status === 2 && s.confirmation === 0 && s.takenAt < close && !s.ecommerce) {
          s.confirmation = 1;
          told.push(`host close ${new Date(close).toISOString()}: sale ${s.merchantOrderId} confirmed`);
        }
      }
      for (const v of this.voids) {
        if (v.cancellation === 1 && v.takenAt < close) {
          v.cancellation = 3;
          told.push(`host close ${new Date(close).toISOString()}: void ${v.merchantVoidId} confirmed`);
        }
      }
    }
    return told;
  }

  visible(x: { visibleAt: number }, now: number): boolean {
    return now >= x.visibleAt;
  }

  saleByPayment(paymentId: string): HostSale | undefined {
    return this.sales.find((s) => s.paymentId === paymentId);
  }

  /** The sales the query host shows for an order id now. */
  salesByOrder(merchantOrderId: string, now: number): HostSale[] {
    return this.sales.filter((s) => s.merchantOrderId === merchantOrderId && this.visible(s, now));
  }

  /** Something taken but not shown yet. */
  hidden(now: number): (HostSale | HostVoid)[] {
    return [...this.sales, ...this.voids].filter((x) => !this.visible(x, now));
  }

  /** What the sale holds of the customer's money: charged (paid, not undone, not cancelled). */
  charged(s: HostSale): boolean {
    return (s.status === 2 && s.confirmation !== 2) || s.status === 1;
  }

  /** Voids standing (approved or confirmed) on a sale: each gives money back. */
  refundsOf(paymentId: string): number {
    return this.voids.filter((v) => v.paymentId === paymentId && (v.cancellation === 1 || v.cancellation === 3)).length;
  }

  /** A state fingerprint for deduplication: everything but absolute times. */
  fingerprint(now: number): string {
    const sales = this.sales.map(
      (s) => `${s.merchantOrderId}/${s.terminal}/${s.status}/${s.confirmation}/${this.visible(s, now) ? 'v' : 'h'}`,
    );
    const voids = this.voids.map((v) => `${v.merchantVoidId}/${v.cancellation}/${this.visible(v, now) ? 'v' : 'h'}`);
    const pix = this.pix.map((p) => `${p.merchantOrderId}/${p.status}/${p.refunds.map((r) => r.state).join('+')}`);
    return [sales.join(','), voids.join(','), pix.join(',')].join(';');
  }
}

/**
 * A sale as the query shows it, in the engine's words (src/engine/ports.ts `HostSaleState`): the
 * statuses of pt 7385-7386 read as the port defines them.
 */
export function saleWords(s: HostSale): HostSaleState {
  switch (s.status) {
    case 0:
    case 1:
      return 'pending';
    case 2:
      return s.confirmation === 0 ? 'approved' : s.confirmation === 1 ? 'confirmed' : 'undone';
    case 3:
    case 13:
      return 'declined';
    case 10:
      return 'cancelled';
    case 12:
      return 'pending';
  }
}
