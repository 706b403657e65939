import { describe, expect, it } from 'vitest';
import {
  ECOMMERCE_PIX_STATES,
  ECOMMERCE_QR_SALE_STATES,
  OMNI_SALE_STATES,
  ecommerceQrSaleState,
  omniSaleState,
  pixChargeStatus,
} from '../../../../src/acquirer/omni/states.js';
import { attemptPix, type PixTask } from '../../../../src/engine/outbox/pix.js';
import { attemptUndo } from '../../../../src/engine/outbox/undo-race.js';
import { attemptVoidUndo } from '../../../../src/engine/outbox/void.js';
import { attemptWatch } from '../../../../src/engine/outbox/watch.js';
import type { AcquirerDeliveryPort, Delivery, HostSaleState, SaleQuery } from '../../../../src/engine/ports.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';

/**
 * The host's numbers → the engine's words (src/acquirer/omni/states.ts), row by row from the
 * manual, and proof that the engine decides exactly as it did when it read the numbers itself:
 * each `old*` function below is the decision as src/engine/outbox/*.ts and the QR and Pix watches
 * had it in numbers (main at 3d808a9), run against the engine fed the mapped word, over every
 * Status × ConfirmationStatus the manual names and a few it does not.
 *
 * The manual (developercielo.github.io, _i18n/pt/_posts/api-ecommerce-cielo/):
 * - 2019-07-10-cielo-conecta.md:2513 `Payment.ConfirmationStatus` "0 = Pendente 1 = Confirmado 2 = Desfeito"
 * - 2019-07-10-cielo-conecta.md:2515 `Payment.Status` "0 = Não Finalizado 1 = Autorizado 2 = Pago 3 = Negado
 *   10 = Cancelado 13 = Abortado"
 * - 2003-03-03-cielo-ecommerce.md:7371–7379 "Status transacional": 0 NotFinished, 1 Authorized,
 *   2 PaymentConfirmed, 3 Denied, 10 Voided, 11 Refunded, 12 Pending, 13 Aborted, 20 Scheduled
 * - 2003-03-03-cielo-ecommerce.md:1783–1789 the Pix life cycle: "12 - Pendente", "2 - Pago", "11 - Estornado"
 */

const STATUSES = [undefined, 0, 1, 2, 3, 10, 11, 12, 13, 20, 99] as const;
const CONFIRMATIONS = [undefined, 0, 1, 2, 3] as const;
const PAIRS = STATUSES.flatMap((status) => CONFIRMATIONS.map((confirmationStatus) => ({ status, confirmationStatus })));
/** The visibility rule's options (a found sale is decided without them). */
const VISIBILITY = { processingWindowMs: 60_000 };
const label = (p: { status?: number | undefined; confirmationStatus?: number | undefined }) =>
  `Status ${String(p.status)}, ConfirmationStatus ${String(p.confirmationStatus)}`;

describe('the terminal sale (physicalSales): Status × ConfirmationStatus → the engine word', () => {
  it.each<[number | undefined, number | undefined, HostSaleState, string]>([
    [0, 0, 'pending', 'conecta:2515 "0 = Não Finalizado"'],
    [1, 0, 'pending', 'conecta:2515 "1 = Autorizado": not captured, still undoable'],
    [2, 0, 'approved', 'conecta:2515 "2 = Pago", conecta:2513 "0 = Pendente"'],
    [2, undefined, 'approved', 'paid, no confirmation field: not confirmed'],
    [2, 1, 'confirmed', 'conecta:2513 "1 = Confirmado"'],
    [2, 2, 'undone', 'conecta:2513 "2 = Desfeito"'],
    [3, 0, 'declined', 'conecta:2515 "3 = Negado"'],
    [3, 1, 'declined', 'denied whatever the confirmation says: nothing charged'],
    [13, 0, 'declined', 'conecta:2515 "13 = Abortado": nothing charged'],
    [10, 1, 'cancelled', 'conecta:2515 "10 = Cancelado": a confirmed sale later voided'],
    [10, 2, 'cancelled', 'voided comes before undone: both charge nothing'],
    [undefined, 1, 'confirmed', 'confirmed without a Status'],
    [undefined, 0, 'unknown', 'no Status: nothing to read'],
    [11, 0, 'unknown', 'not a terminal sale Status in the manual'],
    [12, undefined, 'unknown', 'not a terminal sale Status in the manual'],
  ])('Status %s, ConfirmationStatus %s → %s (%s)', (status, confirmationStatus, state) => {
    expect(omniSaleState({ status, confirmationStatus })).toBe(state);
  });

  it('every row cites a line of the manual', () => {
    for (const table of [OMNI_SALE_STATES, ECOMMERCE_QR_SALE_STATES, ECOMMERCE_PIX_STATES])
      for (const row of table) expect(row.source).toMatch(/cielo-(conecta|ecommerce)\.md:\d+/);
  });
});

describe('the e-commerce QR code sale and the Pix charge: Status → the engine word', () => {
  it.each<[number, HostSaleState]>([
    [10, 'undone'],
    [2, 'approved'],
    [3, 'declined'],
    [13, 'declined'],
    [0, 'pending'],
    [1, 'pending'],
    [11, 'cancelled'],
    [20, 'pending'],
  ])('QR code sale Status %i → %s', (status, state) => expect(ecommerceQrSaleState(status)).toBe(state));

  it.each([
    [12, 'pending'],
    [2, 'paid'],
    [10, 'cancelled'],
    [11, 'refunded'],
    [0, 'pending'],
    [1, 'pending'],
    [3, 'unknown'],
    [13, 'cancelled'],
    [20, 'unknown'],
  ] as const)('Pix Status %i → %s', (status, word) => expect(pixChargeStatus(status)).toBe(word));
});

/* --------------------------------------------- the decisions, as they were in numbers */

type Nums = { status?: number | undefined; confirmationStatus?: number | undefined };
const OLD_NOTHING_CHARGED = [3, 10, 13];

/** attemptWatch before: undone or final with nothing charged → done; confirmed → needs-refund; else undo. */
function oldWatch(q: Nums): 'done' | 'needs-refund' | 'undo' {
  if (q.confirmationStatus === 2 || OLD_NOTHING_CHARGED.includes(q.status ?? -1)) return 'done';
  if (q.confirmationStatus === 1) return 'needs-refund';
  return 'undo';
}

/** attemptUndo's query branch before (racing, its undo answered retry). */
function oldRace(q: Nums): 'done' | 'needs-refund' | 'retry' {
  if (q.confirmationStatus === 2) return 'done';
  if (q.status !== undefined && OLD_NOTHING_CHARGED.includes(q.status)) return 'done';
  if (q.confirmationStatus === 1) return 'needs-refund';
  return 'retry';
}

/** The QR watch's "paid" before (src/engine/qr/engine.ts). */
const oldQrPaid = (q: Nums): boolean => q.status === 2 && q.confirmationStatus !== 2;

/** attemptVoidUndo past the close before: the sale's Status 10 → the void stood; any Status → dead letter. */
function oldVoidStood(status: number | undefined): Delivery['action'] {
  if (status === 10) return 'needs-refund';
  if (status !== undefined) return 'dead-letter';
  return 'retry';
}

/** A host whose query shows `q`; an undo by PaymentId answers `undo`, one by order id decides nothing. */
function port(q: SaleQuery, undo: Delivery = { action: 'done', reason: 'undone' }): AcquirerDeliveryPort {
  const host = new FakeAcquirer();
  host.on('delivery.queryByOrderId').persist().reply(q);
  host.on('delivery.undo').persist().reply(undo);
  host.on('delivery.undoByOrderId').persist().reply({ action: 'retry', reason: 'HTTP 500' });
  return host.delivery;
}

/** A void host past the close whose query reads the sale as `state`; an undo by MerchantVoidId decides nothing. */
function voidPort(state: HostSaleState | undefined): FakeAcquirer['voids'] {
  const host = new FakeAcquirer({ saleState: true });
  host.on('voids.undoVoidByMerchantVoidId').persist().reply({ action: 'retry', reason: 'HTTP 400' });
  host.on('voids.saleState').persist().reply(state);
  return host.voids;
}

const found = (n: Nums): SaleQuery => ({ kind: 'found', paymentId: 'p-1', state: omniSaleState(n) });

describe('the engine decides on the words exactly as it did on the numbers', () => {
  it.each(PAIRS)('attemptWatch: %o', async (n) => {
    const d = (
      await attemptWatch(
        port(found(n)),
        { merchantOrderId: 'o-1', until: '2026-11-25T12:00:00Z' },
        new Date(),
        VISIBILITY,
      )
    ).delivery;
    const was = oldWatch(n);
    expect(was === 'undo' ? (d.late ? 'undo' : d.action) : d.action).toBe(was);
  });

  it.each(PAIRS)('attemptUndo (racing, the undo decided nothing): %o', async (n) => {
    const task = { merchantOrderId: 'o-1', sentAt: '2026-11-22T13:00:00.000Z' };
    const r = await attemptUndo(port(found(n)), task, new Date('2026-11-22T13:10:00Z'), { processingWindowMs: 60_000 });
    expect(r.delivery.action).toBe(oldRace(n));
  });

  it.each(PAIRS)('attemptUndo (past the close, pending → undo by PaymentId): %o', async (n) => {
    const task = { merchantOrderId: 'o-1', sentAt: '2026-11-22T13:00:00.000Z', paymentId: 'p-1' };
    const r = await attemptUndo(
      port(found(n), { action: 'retry', reason: 'HTTP 500' }),
      task,
      new Date('2026-11-23T03:30:00Z'),
      { processingWindowMs: 60_000 },
    );
    expect(r.delivery.action).toBe(oldRace(n));
  });

  it.each(STATUSES.flatMap((status) => CONFIRMATIONS.map((confirmationStatus) => ({ status, confirmationStatus }))))(
    'attemptVoidUndo past the close (the omni adapter reads no Status as nothing): %o',
    async (n) => {
      // OmniVoidAdapter.saleState: undefined when the query shows no Status, else the table's word.
      const state = n.status === undefined ? undefined : omniSaleState(n);
      const r = await attemptVoidUndo(
        voidPort(state),
        { merchantVoidId: 'v-1', paymentId: 'p-1', sentAt: '2026-11-22T13:00:00.000Z' },
        new Date('2026-11-23T03:30:00Z'),
        { processingWindowMs: 60_000 },
      );
      expect(r.delivery.action).toBe(oldVoidStood(n.status));
    },
  );

  it("the QR watch's paid: the same on every pair but a confirmation without a paid Status", () => {
    const differ = PAIRS.filter((n) => {
      const s = omniSaleState(n);
      return (s === 'approved' || s === 'confirmed') !== oldQrPaid(n);
    });
    // ConfirmationStatus 1 beside a Status that is not Pago (0, 1, 11, 12, 20, none): the manual shows no such sale;
    // confirmed money is now read as paid (then confirmed, done) where the numbers ignored it until the code expired
    // and the watch task's needs-refund. Every other pair decides as before.
    expect(differ.map(label)).toEqual(
      PAIRS.filter((n) => n.confirmationStatus === 1 && ![2, 3, 10, 13].includes(n.status ?? -1)).map(label),
    );
  });

  it('the e-commerce QR sale: the same decisions as when 10 read as ConfirmationStatus 2 and 2 as captured', async () => {
    for (let status = 0; status <= 20; status++) {
      if (status === 12) continue; // not found, before and now
      if (status === 11) continue; // issue 29: 11 Refunded (ecommerce:7376) is nothing charged, no longer unknown
      const was: Nums = status === 10 ? { status, confirmationStatus: 2 } : { status };
      const q: SaleQuery = { kind: 'found', paymentId: 'p-1', state: ecommerceQrSaleState(status) };
      const d = (
        await attemptWatch(port(q), { merchantOrderId: 'o-1', until: '2026-11-25T12:00:00Z' }, new Date(), VISIBILITY)
      ).delivery;
      const old = oldWatch(was);
      expect([status, old === 'undo' ? (d.late ? 'undo' : d.action) : d.action]).toEqual([status, old]);
      expect([status, q.state === 'approved' || q.state === 'confirmed']).toEqual([status, oldQrPaid(was)]);
    }
  });
});

/** attemptPix before, in numbers: the action and whether it voided (with issue 29's changes marked). */
function oldPix(status: number, task: PixTask, op: 'cancel' | 'refund', past: boolean): [Delivery['action'], boolean] {
  switch (status) {
    case 11:
      return ['done', false];
    case 13: // Aborted, "Pagamento cancelado" (ecommerce:7378): decided as 10, no longer unknown
    case 10:
      // Issue 29: voided after a refund was asked is the money given back (done).
      return [op === 'refund' || past || task.refundAsked ? 'done' : 'retry', false];
    case 0: // NotFinished and Authorized (ecommerce:7371-7372): decided as 12, not paid yet, no longer unknown
    case 1:
    case 12:
      if (task.refundAsked) return ['retry', false];
      return ['retry', true];
    case 2:
      // Issue 29 defect 3: a refund asked is never asked again while the charge shows 2 (ecommerce:1788).
      return ['retry', !task.refundAsked];
    default:
      return ['retry', false];
  }
}

describe('attemptPix decides on the words exactly as it did on the numbers', () => {
  const cases = [0, 1, 2, 3, 10, 11, 12, 13, 20].flatMap((status) =>
    (['cancel', 'refund'] as const).flatMap((op) =>
      [false, true].flatMap((refundAsked) => [false, true].map((past) => ({ status, op, refundAsked, past }))),
    ),
  );
  it.each(cases)('%o', async ({ status, op, refundAsked, past }) => {
    const task: PixTask = {
      merchantOrderId: 'o-1',
      paymentId: 'p-1',
      until: '2026-11-25T12:00:00.000Z',
      ...(refundAsked ? { refundAsked } : {}),
    };
    const host = new FakeAcquirer();
    host
      .on('pix.status')
      .persist()
      .reply({ kind: 'found', status: pixChargeStatus(status), detail: String(status) });
    host.on('pix.void').persist().reply({ kind: 'accepted' });
    const r = await attemptPix(host.pix!, task, op, new Date(past ? '2026-11-25T12:00:01Z' : '2026-11-25T11:59:00Z'));
    expect([r.delivery.action, host.calledWith('pix.void').length > 0]).toEqual(oldPix(status, task, op, past));
  });
});
