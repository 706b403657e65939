import type {
  AcquirerDeliveryPort,
  Delivery,
  SaleAuthorizationPort,
  SaleOrder,
  SaleQuery,
} from '../../src/engine/ports.js';
import type { HostSaleOutcome } from '../../src/engine/sale/types.js';
import { saleWords, type HostModel, type HostSale } from './host-model.js';
import { decide, type HostAnswer } from './rules-under-test.js';

/** What a port of the model needs of the timeline it runs in. */
export interface Stage {
  readonly host: HostModel;
  now(): number;
  /** A choice point (option 0 is the default). */
  choose<T extends string>(label: string, options: readonly T[]): T;
  /** Tells one step of the timeline. */
  say(line: string): void;
  /** The terminal is SIGKILLed while this call is out: the call never returns. */
  kill(): Promise<never>;
}

/** How a request travels: answered, or the documented ways it can fail (the host took it or not). */
export const TRANSPORT = [
  'answered',
  'timeout, the host took it',
  'timeout, the host did not take it',
  'HTTP 500, the host took it',
  'HTTP 200 with an empty body, the host took it',
  'killed while out, the host took it',
  'killed before it left (just after the journal step)',
] as const;
type Transport = (typeof TRANSPORT)[number];

export const took = (t: Transport): boolean =>
  t !== 'timeout, the host did not take it' && t !== 'killed before it left (just after the journal step)';
export const killedOut = (t: Transport): boolean => t.startsWith('killed');

/** The answer the terminal sees for a request that `t` says was not answered as the manual shows. */
export function lost(t: Transport): HostAnswer {
  if (t === 'HTTP 500, the host took it')
    return { kind: 'answer', status: 500, body: { Code: 0, Message: 'Internal error' } };
  // An answer that cannot be classified: the rule is to query, never to guess.
  if (t === 'HTTP 200 with an empty body, the host took it') return { kind: 'answer', status: 200, body: {} };
  return { kind: 'transport', failure: 'timeout' };
}

/** The manual's 404 for a sale it does not know (a published not-found code). */
const NOT_FOUND: HostAnswer = { kind: 'answer', status: 404, body: [{ Code: 303, Message: 'Transaction not found' }] };

/** The confirm and undo answers' body: the manual's fields (pt 7370, 7606). */
function body(s: HostSale): HostAnswer {
  return {
    kind: 'answer',
    status: 200,
    body: { ConfirmationStatus: s.confirmation, Status: s.status, ReturnCode: 0 },
  };
}

const SALE_ANSWERS = [
  'Status 2 (Pago)',
  'timeout, the host took it (shown late)',
  'timeout, the host took it (shown at once)',
  'timeout, the host did not take it',
  'Status 3 (Negado)',
  'Status 1 (Autorizado, capture asked)',
  'Status 13 (Abortado)',
  'Status 0 (Não Finalizado), finished approved later',
  'HTTP 400 (refused)',
  'HTTP 500, the host took it',
  'killed while out, the host took it',
  'killed before it left (just after the journal step)',
] as const;

/** The card sale's request (pt "Pagamento"): what the host did, told in the engine's words. */
export function salePort(stage: Stage): SaleAuthorizationPort {
  return {
    async authorize(order: SaleOrder): Promise<HostSaleOutcome> {
      // The host keeps order ids per OAuth client (docs/decisions.md, MerchantOrderId): another terminal's
      // sale under the same id (issue 29, defect 9) may sit beside ours.
      const twin = stage.choose('another terminal under the same order id', [
        'no',
        'yes, its sale is Status 2',
      ] as const);
      if (twin !== 'no') {
        stage.host.sales.push({
          merchantOrderId: order.merchantOrderId,
          paymentId: stage.host.id('other'),
          amount: order.request.amount + 1,
          terminal: 'other',
          status: 2,
          confirmation: 0,
          visibleAt: stage.now(),
          takenAt: stage.now(),
        });
        stage.say(`another terminal sold under order id ${order.merchantOrderId}`);
      }
      const a = stage.choose('sale answer', SALE_ANSWERS);
      stage.say(`sale ${order.merchantOrderId} ${order.request.amount} → ${a}`);
      const now = stage.now();
      const take = (status: HostSale['status'], late = false): HostSale => {
        const s: HostSale = {
          merchantOrderId: order.merchantOrderId,
          paymentId: stage.host.id('pay'),
          amount: order.request.amount,
          terminal: 'ours',
          status,
          confirmation: 0,
          visibleAt: late ? stage.host.latestVisible(now) : now,
          takenAt: now,
        };
        stage.host.sales.push(s);
        return s;
      };
      switch (a) {
        case 'Status 2 (Pago)':
          return { kind: 'approved', paymentId: take(2).paymentId, authorizationCode: '123456' };
        case 'timeout, the host took it (shown late)':
          take(2, true);
          return { kind: 'unknown', reason: 'timeout' };
        case 'timeout, the host took it (shown at once)':
          take(2);
          return { kind: 'unknown', reason: 'timeout' };
        case 'timeout, the host did not take it':
          return { kind: 'unknown', reason: 'timeout' };
        case 'Status 3 (Negado)':
          return { kind: 'declined', paymentId: take(3).paymentId, returnCode: '05' };
        case 'Status 1 (Autorizado, capture asked)':
          return { kind: 'anomaly', paymentId: take(1).paymentId, reason: 'authorized-not-captured' };
        case 'Status 13 (Abortado)':
          return { kind: 'declined', paymentId: take(13).paymentId };
        case 'Status 0 (Não Finalizado), finished approved later':
          return { kind: 'unknown', reason: 'Status 0', paymentId: take(2).paymentId };
        case 'HTTP 400 (refused)':
          return { kind: 'refused', status: 400 };
        case 'HTTP 500, the host took it':
          take(2);
          return { kind: 'unknown', reason: 'HTTP 500' };
        case 'killed while out, the host took it':
          take(2);
          return stage.kill();
        case 'killed before it left (just after the journal step)':
          return stage.kill();
      }
    },
  };
}

/** What the host makes of a confirm (pt 7590-7630) or an undo (pt 7331-7380) of sale `s`. */
function settle(op: 'confirm' | 'undo', s: HostSale): void {
  if (s.status !== 2 && s.status !== 1 && s.status !== 0) return;
  if (op === 'confirm' && s.status === 2 && s.confirmation === 0) s.confirmation = 1;
  if (op === 'undo' && s.confirmation === 0) {
    s.status = 2;
    s.confirmation = 2;
  }
}

const CONFIRM_DIALECTS = [
  'as it stands',
  'the host had aborted it (Status 13)',
  'the host had cancelled it (Status 10)',
];

/** The outbox's requests on card sales: confirm, undo, undo by order id, query by order id. */
export function deliveryPort(stage: Stage): AcquirerDeliveryPort {
  const { host } = stage;
  const send = async (
    what: string,
    op: 'confirm' | 'undo',
    find: () => HostSale | undefined,
    before?: (s: HostSale) => void,
  ): Promise<Delivery> => {
    const t = stage.choose(`${what}: transport`, TRANSPORT);
    const s = find();
    if (s && took(t)) {
      before?.(s);
      settle(op, s);
    }
    const answer = t === 'answered' ? (s ? body(s) : NOT_FOUND) : lost(t);
    stage.say(`${what} → ${t}${t === 'answered' ? ` ${JSON.stringify((answer as { body: unknown }).body)}` : ''}`);
    if (killedOut(t)) return stage.kill();
    const d = decide(op, answer);
    stage.say(`  the terminal decides ${d.action} (${d.reason})`);
    return d;
  };
  const ours = (orderId: string): HostSale | undefined =>
    host.salesByOrder(orderId, stage.now()).find((s) => s.terminal === 'ours');
  return {
    confirm(paymentId) {
      const s = host.saleByPayment(paymentId);
      const dialect =
        s?.status === 2 && s.confirmation === 0 ? stage.choose('before the confirm', CONFIRM_DIALECTS) : '';
      return send(
        `confirm ${paymentId}`,
        'confirm',
        () => s,
        (x) => {
          if (dialect === 'the host had aborted it (Status 13)') x.status = 13;
          if (dialect === 'the host had cancelled it (Status 10)') x.status = 10;
          if (dialect) stage.say(`host: ${dialect}`);
        },
      );
    },
    undo(paymentId) {
      return send(`undo ${paymentId}`, 'undo', () => host.saleByPayment(paymentId));
    },
    undoByOrderId(orderId) {
      // `DELETE …/orderId/{MerchantOrderId}` names no terminal: the host undoes what it holds under the id.
      const all = (): HostSale | undefined => host.salesByOrder(orderId, stage.now())[0];
      return send(`undo by order id ${orderId}`, 'undo', all, (s) => {
        for (const x of host.salesByOrder(orderId, stage.now())) if (x !== s) settle('undo', x);
      });
    },
    queryByOrderId(orderId, expected): Promise<SaleQuery> {
      const t = stage.choose(`query ${orderId}: transport`, ['answered', 'timeout', 'HTTP 500'] as const);
      if (t !== 'answered') {
        stage.say(`query ${orderId} → ${t}`);
        return Promise.resolve({ kind: 'unknown', reason: t });
      }
      const s = ours(orderId);
      const other = host.salesByOrder(orderId, stage.now()).find((x) => x.terminal === 'other');
      // With what it sent, a backend tells another terminal's sale from ours (the port's `expected`).
      if (!s && other && expected) {
        stage.say(`query ${orderId} → another terminal's sale only: not ours`);
        return Promise.resolve({ kind: 'not-ours', reason: 'a sale under this order id that is not ours' });
      }
      const shown = s ?? other;
      const q: SaleQuery = shown
        ? {
            kind: 'found',
            paymentId: shown.paymentId,
            state: saleWords(shown),
            detail: `Status ${shown.status}/${shown.confirmation}`,
          }
        : { kind: 'not-found' };
      stage.say(`query ${orderId} → ${q.kind === 'found' ? `${q.state} (${q.detail ?? ''})` : 'not found'}`);
      return Promise.resolve(q);
    },
  };
}
