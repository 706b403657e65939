import type {
  Delivery,
  HostSaleState,
  PixCreatePort,
  PixStatusQuery,
  VoidDeliveryPort,
  VoidHostPort,
  VoidOrder,
  VoidUndoDelivery,
} from '../../src/engine/ports.js';
import type { HostVoidOutcome } from '../../src/engine/void/types.js';
import { TRANSPORT, killedOut, lost, took, type Stage } from './card-host.js';
import { saleWords, type HostVoid } from './host-model.js';
import { decide, type HostAnswer } from './rules-under-test.js';

const VOID_ANSWERS = [
  'CancellationStatus 1 (Autorizado)',
  'timeout, the host took it (shown late)',
  'timeout, the host took it (shown at once)',
  'timeout, the host did not take it',
  'CancellationStatus 2 (Negado)',
  'HTTP 400 (refused)',
  'HTTP 500, the host took it',
  'killed while out, the host took it',
  'killed before it left (just after the journal step)',
] as const;

/** The void's answers' body: the manual's fields (pt 7968, 8597). */
function voidBody(v: HostVoid): HostAnswer {
  return { kind: 'answer', status: 200, body: { VoidId: v.voidId, CancellationStatus: v.cancellation, ReturnCode: 0 } };
}
const NOT_FOUND: HostAnswer = { kind: 'answer', status: 404, body: [{ Code: 303, Message: 'Transaction not found' }] };

/**
 * Card voids (pt "Cancelamento"): the create, its confirmation and its undos. A void taken leaves the
 * sale at `Status` 10 (pt 8077-8079) until it is undone (`CancellationStatus` 4, pt 8597-8619).
 */
export function voidPort(stage: Stage): VoidHostPort & VoidDeliveryPort {
  const { host } = stage;
  const byId = (voidId: string): HostVoid | undefined => host.voids.find((v) => v.voidId === voidId);
  const shown = (paymentId: string, merchantVoidId: string): HostVoid | undefined =>
    host.voids.find(
      (v) => v.paymentId === paymentId && v.merchantVoidId === merchantVoidId && host.visible(v, stage.now()),
    );
  const apply = (v: HostVoid, to: 3 | 4): void => {
    if (v.cancellation !== 1) return;
    v.cancellation = to;
    const sale = host.saleByPayment(v.paymentId);
    if (sale && to === 4) sale.status = 2;
  };
  const send = async (
    what: string,
    op: 'void-confirm' | 'void-undo',
    v: HostVoid | undefined,
  ): Promise<VoidUndoDelivery> => {
    const t = stage.choose(`${what}: transport`, TRANSPORT);
    if (v && took(t)) apply(v, op === 'void-confirm' ? 3 : 4);
    const answer: HostAnswer = t === 'answered' ? (v ? voidBody(v) : NOT_FOUND) : lost(t);
    stage.say(`${what} → ${t}${answer.kind === 'answer' ? ` ${answer.status} ${JSON.stringify(answer.body)}` : ''}`);
    if (killedOut(t)) return stage.kill();
    const d: Delivery = decide(op, answer);
    const notFound = t === 'answered' && !v;
    stage.say(`  the terminal decides ${d.action}${notFound ? ' (not found)' : ''} (${d.reason})`);
    return notFound ? { ...d, notFound } : d;
  };
  return {
    void(order: VoidOrder): Promise<HostVoidOutcome> {
      const a = stage.choose('void answer', VOID_ANSWERS);
      stage.say(`void ${order.merchantVoidId} of ${order.sale.paymentId} ${order.amount} → ${a}`);
      const now = stage.now();
      const take = (late = false): HostVoid => {
        const v: HostVoid = {
          paymentId: order.sale.paymentId,
          merchantVoidId: order.merchantVoidId,
          voidId: host.id('void'),
          amount: order.amount,
          cancellation: 1,
          visibleAt: late ? host.latestVisible(now) : now,
          takenAt: now,
        };
        host.voids.push(v);
        const sale = host.saleByPayment(v.paymentId);
        if (sale) sale.status = 10;
        return v;
      };
      switch (a) {
        case 'CancellationStatus 1 (Autorizado)':
          return Promise.resolve({ kind: 'approved', voidId: take().voidId });
        case 'timeout, the host took it (shown late)':
          take(true);
          return Promise.resolve({ kind: 'unknown', reason: 'timeout' });
        case 'timeout, the host took it (shown at once)':
          take();
          return Promise.resolve({ kind: 'unknown', reason: 'timeout' });
        case 'timeout, the host did not take it':
          return Promise.resolve({ kind: 'unknown', reason: 'timeout' });
        case 'CancellationStatus 2 (Negado)':
          return Promise.resolve({ kind: 'declined', returnCode: '57' });
        case 'HTTP 400 (refused)':
          return Promise.resolve({ kind: 'refused', status: 400 });
        case 'HTTP 500, the host took it':
          take();
          return Promise.resolve({ kind: 'unknown', reason: 'HTTP 500' });
        case 'killed while out, the host took it':
          take();
          return stage.kill();
        case 'killed before it left (just after the journal step)':
          return stage.kill();
      }
    },
    confirmVoid: (paymentId, voidId) => send(`void confirmation ${voidId}`, 'void-confirm', byId(voidId)),
    undoVoid: (paymentId, voidId) => {
      const v = byId(voidId);
      return send(`void undo ${voidId}`, 'void-undo', v && host.visible(v, stage.now()) ? v : undefined);
    },
    undoVoidByMerchantVoidId: (paymentId, merchantVoidId) =>
      send(`void undo by MerchantVoidId ${merchantVoidId}`, 'void-undo', shown(paymentId, merchantVoidId)),
    saleState(paymentId): Promise<HostSaleState | undefined> {
      const s = host.saleByPayment(paymentId);
      return Promise.resolve(s ? saleWords(s) : undefined);
    },
  };
}

/** A Pix refund the provider took is done within this (an assumption: the manual gives no bound). */
const REFUND_WITHIN_MS = 30 * 60_000;

const PIX_REFUND_ANSWERS = [
  'accepted: the refund is pending (Status stays 2)',
  'refused by the provider (2xx, ReasonCode not 0)',
  'timeout, the provider took it',
  'timeout, the provider did not take it',
  'killed while out, the provider took it',
  'killed before it left (just after the journal step)',
] as const;

const PIX_CREATE_ANSWERS = [
  'created (Status 12, with its code)',
  'timeout, the provider made the charge',
  'timeout, the provider made nothing',
  'HTTP 400 (refused)',
  'killed while out, the provider made the charge',
  'killed before it left (just after the journal step)',
] as const;

/**
 * What the Pix create's answer `a` tells the terminal (ecom 1792-1923: `Status` 12 with its
 * `QrCodeString`, 1875); `make` makes the charge at the provider. A charge whose code the terminal
 * never showed stays 12, unpaid: "a disponibilização deste código é de responsabilidade do lojista"
 * (1920), so nobody has it.
 */
function pixCreated(
  stage: Stage,
  a: (typeof PIX_CREATE_ANSWERS)[number],
  make: () => string,
): ReturnType<PixCreatePort['create']> {
  switch (a) {
    case 'created (Status 12, with its code)':
      return Promise.resolve({ kind: 'created', paymentId: make(), qrCode: '00020101021226' });
    case 'timeout, the provider made the charge':
      make();
      return Promise.resolve({ kind: 'unknown', reason: 'timeout' });
    case 'timeout, the provider made nothing':
      return Promise.resolve({ kind: 'unknown', reason: 'timeout' });
    case 'HTTP 400 (refused)':
      return Promise.resolve({ kind: 'failed', reason: 'HTTP 400' });
    case 'killed while out, the provider made the charge':
      make();
      return stage.kill();
    case 'killed before it left (just after the journal step)':
      return stage.kill();
  }
}

/**
 * Pix (ecom 1779-1790, 1924-1966): a charge is 12 until paid, 2 once paid and while a refund is
 * pending ("a devolução não é uma operação instantânea, podendo ser acatada ou não"), 11 once the
 * refund is done. Every `PUT …/void` the provider accepts is one refund.
 */
export function pixPort(stage: Stage, o: { paidByChoice?: boolean } = {}): PixCreatePort {
  const { host } = stage;
  const find = (paymentId: string) => host.pix.find((p) => p.paymentId === paymentId);
  return {
    create(order) {
      const a = o.paidByChoice ? stage.choose('Pix create answer', PIX_CREATE_ANSWERS) : PIX_CREATE_ANSWERS[0];
      const make = (): string => {
        const paymentId = host.id('pix');
        host.pix.push({
          paymentId,
          merchantOrderId: order.merchantOrderId,
          amount: order.amount,
          status: 12,
          refunds: [],
        });
        return paymentId;
      };
      stage.say(`Pix ${order.merchantOrderId} ${order.amount} → ${a}`);
      return pixCreated(stage, a, make);
    },
    status(paymentId): Promise<PixStatusQuery> {
      const p = find(paymentId);
      if (!p) return Promise.resolve({ kind: 'unknown', reason: 'no such charge' });
      if (p.status === 12 && !o.paidByChoice) {
        p.status = 2;
        stage.say(`the payer pays Pix ${p.merchantOrderId} (Status 2)`);
      }
      if (p.status === 2 && p.refunds.some((r) => r.state === 'pending')) {
        // Not instant (ecom 1930); how long it takes is unpublished: here, within REFUND_WITHIN_MS.
        const overdue = p.refunds.some((r) => stage.now() - r.askedAt >= REFUND_WITHIN_MS);
        const done = overdue
          ? 'done'
          : stage.choose(`Pix ${p.merchantOrderId} refund`, ['still pending', 'done'] as const);
        if (done === 'done') {
          for (const r of p.refunds) r.state = 'done';
          p.status = 11;
        }
      }
      const status = p.status === 2 ? 'paid' : p.status === 11 ? 'refunded' : p.status === 10 ? 'cancelled' : 'pending';
      stage.say(`Pix status ${p.merchantOrderId} → Status ${p.status} (${status})`);
      return Promise.resolve({ kind: 'found', status, detail: `Status ${p.status}` });
    },
    void(paymentId) {
      const p = find(paymentId);
      const a = stage.choose('Pix refund answer', PIX_REFUND_ANSWERS);
      stage.say(`Pix refund ${p?.merchantOrderId ?? paymentId} → ${a}`);
      const taken =
        a !== 'timeout, the provider did not take it' && a !== 'refused by the provider (2xx, ReasonCode not 0)';
      if (p && p.status === 2 && taken) p.refunds.push({ state: 'pending', askedAt: stage.now() });
      if (p && p.status === 12) p.status = 10;
      if (a.startsWith('killed')) return stage.kill();
      if (a.startsWith('timeout')) return Promise.resolve({ kind: 'unknown', reason: 'timeout' });
      // "A devolução ocorrerá somente se houver saldo" (ecom 1946-1948): a refusal names its reason.
      if (a === 'refused by the provider (2xx, ReasonCode not 0)')
        return Promise.resolve({ kind: 'refused', reason: 'Lojista com saldo insuficiente para devolução' });
      return Promise.resolve({ kind: 'accepted' });
    },
  };
}
