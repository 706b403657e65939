import type { CardNotPresentBackend, CnpDeliveryPort, CnpSaleOutcome } from '../../src/engine/cnp-ports.js';
import type { Delivery, HostSaleState, SaleQuery } from '../../src/engine/ports.js';
import { TRANSPORT, killedOut, took, type Stage } from './card-host.js';
import type { HostSale } from './host-model.js';

/**
 * The card-not-present sale on the e-commerce card API (ecom, "Cartão de crédito"; statuses at
 * ecom:7370-7380: 1 Authorized, 2 PaymentConfirmed, 3 Denied, 10 Voided, 13 Aborted), as the manual
 * describes it, in the engine's words (src/engine/cnp-ports.ts): a sale sent with `Capture: true` is
 * 2 and final, with no confirmation of its own (the host's close confirms nothing of it); undone by
 * its void (`PUT /1/sales/{PaymentId}/void`, ecom:6203; by order id, the newest sale under it,
 * ecom:6207-6209), after which it is 10. Its query by order id (ecom:5484) may lag (host-model.ts).
 */
const CNP_ANSWERS = [
  'Status 2 (captured)',
  'timeout, the host took it (shown late)',
  'timeout, the host took it (shown at once)',
  'timeout, the host did not take it',
  'Status 3 (Denied)',
  'HTTP 400 (refused)',
  'HTTP 500, the host took it',
  'killed while out, the host took it',
  'killed before it left (just after the journal step)',
] as const;

/** A sale of the e-commerce card API in the engine's words. */
function shown(s: HostSale): { state: HostSaleState; captured: boolean } {
  if (s.status === 2) return { state: 'approved', captured: true };
  if (s.status === 1 || s.status === 0 || s.status === 12) return { state: 'pending', captured: false };
  if (s.status === 10) return { state: 'cancelled', captured: false };
  return { state: 'declined', captured: false };
}

/** The card-not-present backend: the sale request only (the undo race's requests are the delivery port's). */
export function cnpBackend(stage: Stage): CardNotPresentBackend {
  const { host } = stage;
  const unused = (what: string) => (): never => {
    throw new Error(`the explorer's card-not-present host has no ${what}`);
  };
  return {
    kind: 'explorer',
    schedulesRecurrences: false,
    tokenPerCard: false,
    // The page's rules for captures and voids (ecom:6072, 6078-6080, 6285, 6313-6330); the explorer walks
    // sales and their undo race, not captures.
    rules: {
      captureDeadlineDays: 15,
      partialCaptureOnce: true,
      partialVoidNeedsCapture: true,
      partialVoidLeavesCaptured: true,
      sources: {
        captureDeadline: 'ecom:6072',
        partialCapture: 'ecom:6078-6080',
        partialVoid: 'ecom:6285',
        partialVoidLeaves: 'ecom:6313-6330',
      },
    },
    sale(request): Promise<CnpSaleOutcome> {
      const a = stage.choose('card-not-present sale answer', CNP_ANSWERS);
      stage.say(`card-not-present sale ${request.merchantOrderId} ${request.amountCents} → ${a}`);
      const now = stage.now();
      const take = (status: HostSale['status'], late = false): HostSale => {
        const s: HostSale = {
          merchantOrderId: request.merchantOrderId,
          paymentId: host.id('cnp'),
          amount: request.amountCents,
          terminal: 'ours',
          status,
          confirmation: 0,
          ecommerce: true,
          visibleAt: late ? host.latestVisible(now) : now,
          takenAt: now,
        };
        host.sales.push(s);
        return s;
      };
      switch (a) {
        case 'Status 2 (captured)':
          return Promise.resolve({
            answer: 'approved',
            paymentId: take(2).paymentId,
            state: 'approved',
            detail: 'Status 2',
          });
        case 'timeout, the host took it (shown late)':
          take(2, true);
          return Promise.resolve({ answer: 'unknown', detail: 'timeout' });
        case 'timeout, the host took it (shown at once)':
          take(2);
          return Promise.resolve({ answer: 'unknown', detail: 'timeout' });
        case 'timeout, the host did not take it':
          return Promise.resolve({ answer: 'unknown', detail: 'timeout' });
        case 'Status 3 (Denied)':
          return Promise.resolve({ answer: 'declined', paymentId: take(3).paymentId, detail: 'Status 3' });
        case 'HTTP 400 (refused)':
          return Promise.resolve({ answer: 'refused', detail: 'HTTP 400' });
        case 'HTTP 500, the host took it':
          take(2);
          return Promise.resolve({ answer: 'unknown', detail: 'HTTP 500' });
        case 'killed while out, the host took it':
          take(2);
          return stage.kill();
        case 'killed before it left (just after the journal step)':
          return stage.kill();
      }
    },
    capture: unused('capture'),
    void: unused('void outside the undo race'),
    query: unused('query by PaymentId'),
    queryByOrderId: unused('query outside the undo race'),
    cardProduct: unused('BIN lookup'),
    saveCard: unused('saved cards'),
    saleByToken: unused('sales by saved card'),
    recurrence: unused('recurrences'),
  };
}

/** The undo race's requests on the e-commerce card API: the void (by PaymentId, by order id) and the query. */
export function cnpDelivery(stage: Stage): CnpDeliveryPort {
  const { host } = stage;
  const newest = (orderId: string): HostSale | undefined =>
    host
      .salesByOrder(orderId, stage.now())
      .filter((s) => s.ecommerce === true)
      .at(-1);
  const voidOf = async (what: string, find: () => HostSale | undefined): Promise<Delivery> => {
    const t = stage.choose(`${what}: transport`, TRANSPORT);
    const s = find();
    if (s && took(t) && (s.status === 1 || s.status === 2)) s.status = 10;
    stage.say(`${what} → ${t}${s ? ` (the host shows Status ${s.status})` : ' (not found)'}`);
    if (killedOut(t)) return stage.kill();
    // Only a 2xx body showing the sale voided decides (src/acquirer/ecommerce/delivery.ts); else the query does.
    const d: Delivery =
      t === 'answered' && s?.status === 10
        ? { action: 'done', reason: 'voided (Status 10)' }
        : { action: 'retry', reason: t === 'answered' ? 'not voided' : t };
    stage.say(`  the terminal decides ${d.action} (${d.reason})`);
    return d;
  };
  return {
    confirm: () => Promise.resolve({ action: 'done', reason: 'captured at once: nothing to confirm' }),
    capture: (): never => {
      throw new Error("the explorer's card-not-present host walks no capture");
    },
    query: (): never => {
      throw new Error("the explorer's card-not-present host has no query by PaymentId");
    },
    undo: (paymentId) => voidOf(`void ${paymentId}`, () => host.saleByPayment(paymentId)),
    undoByOrderId: (orderId) => voidOf(`void by order id ${orderId}`, () => newest(orderId)),
    queryByOrderId(orderId): Promise<SaleQuery> {
      const t = stage.choose(`query ${orderId}: transport`, ['answered', 'timeout', 'HTTP 500'] as const);
      if (t !== 'answered') {
        stage.say(`query ${orderId} → ${t}`);
        return Promise.resolve({ kind: 'unknown', reason: t });
      }
      const s = newest(orderId);
      const q: SaleQuery = s
        ? { kind: 'found', paymentId: s.paymentId, ...shown(s), detail: `Status ${s.status}` }
        : { kind: 'not-found' };
      stage.say(`query ${orderId} → ${q.kind === 'found' ? `${q.state} (${q.detail ?? ''})` : 'not found'}`);
      return Promise.resolve(q);
    },
  };
}
