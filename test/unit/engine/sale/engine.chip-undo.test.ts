import { describe, expect, it } from 'vitest';
import { SimulatedCardPort } from '../../../../src/adapters/simulated-card.js';
import { TextReceiptPrinter } from '../../../../src/adapters/text-receipt.js';
import { systemClock } from '../../../../src/core/clock.js';
import { createLogger } from '../../../../src/core/log/index.js';
import { encodeTlv, toHex } from '../../../../src/emv/index.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type UndoTask } from '../../../../src/engine/outbox/tasks.js';
import { undoRequestTags } from '../../../../src/engine/sale/chip-tags.js';
import { SaleEngine } from '../../../../src/engine/sale/engine.js';
import { saleTransition } from '../../../../src/engine/sale/machine.js';
import { planRecovery } from '../../../../src/engine/sale/recovery.js';
import type {
  CardSummary,
  HostSaleOutcome,
  SaleContext,
  SaleInput,
  SaleState,
} from '../../../../src/engine/sale/types.js';
import {
  Journal,
  MerchantOrderIds,
  Outbox,
  assertNoCardData,
  openTerminalDatabase,
} from '../../../../src/store/index.js';
import { FakeAcquirer } from '../../../helpers/fake-acquirer.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';
import { TEST_EXPIRY_KEY } from '../../../helpers/store.js';

const tempDir = useTempDirs();

/** A GOX answer's EMV data as a chip read gives it: card data (5A, 57, 5F20, 5F24) beside the transaction's tags. */
const GOX = toHex(
  encodeTlv([
    { tag: '5A', value: '4761739001010010' },
    { tag: '57', value: '4761739001010010D30122011143804489' },
    { tag: '5F20', value: '564953412041435155495245522054455354' },
    { tag: '5F24', value: '301231' },
    { tag: '5F34', value: '01' },
    { tag: '82', value: '5800' },
    { tag: '95', value: '0000008000' },
    { tag: '9A', value: '261122' },
    { tag: '9C', value: '00' },
    { tag: '9F02', value: '000000001010' },
    { tag: '9F10', value: '06011A03A00000' },
    { tag: '9F26', value: 'A1B2C3D4E5F60708' },
    { tag: '9F27', value: '80' },
    { tag: '9F36', value: '0041' },
    { tag: '9F37', value: 'DEADBEEF' },
  ]),
);
const REQUEST_TAGS = {
  '5F34': '01',
  '82': '5800',
  '95': '0000008000',
  '9A': '261122',
  '9C': '00',
  '9F02': '000000001010',
  '9F10': '06011A03A00000',
  '9F26': 'A1B2C3D4E5F60708',
  '9F27': '80',
  '9F36': '0041',
  '9F37': 'DEADBEEF',
};
const AFTER_FCX = {
  '9F26': '1122334455667788',
  '9F27': '00',
  '95': '0000000000',
  '9F10': '06011A03A00000',
  '9F37': 'DEADBEEF',
};

const ctx: SaleContext = {
  now: new Date('2026-11-22T13:00:00Z'),
  attended: true,
  decisionDeadline: (n) => new Date(n.getTime() + 600_000),
};
const chipCard: CardSummary = {
  maskedPan: '476173******0010',
  inputMode: 'Emv',
  chip: true,
  isFallback: false,
  authenticationMethod: 'OnlineAuthentication',
  expiry: '1230',
  panSequenceNumber: '01',
};

function run(state: SaleState, inputs: SaleInput[]): SaleState {
  for (const input of inputs) {
    const step = saleTransition(state, input, ctx);
    if (!step.ok) throw new Error(step.reason);
    state = step.state;
  }
  return state;
}
const start: SaleState = {
  name: 'started',
  data: {
    request: { amount: 1010, method: 'credit', installments: 1, interest: 'ByMerchant', confirmation: 'auto' },
    merchantOrderId: '263260010360003',
  },
};

describe('chip undos carry EmvData on every path (issue 17)', () => {
  it("the request tags kept for an undo are the transaction's, never card data, and the store accepts them", () => {
    const tags = undoRequestTags(GOX);
    expect(tags).toEqual(REQUEST_TAGS);
    expect(() => assertNoCardData({ emv: tags }, 'journal.data')).not.toThrow();
    expect(undoRequestTags('not hex')).toBeUndefined();
    expect(undoRequestTags(undefined)).toBeUndefined();
  });

  it('the request tags are journaled with the card read, before the sale leaves', () => {
    const s = run(start, [{ kind: 'card-read', card: chipCard, emv: REQUEST_TAGS }]);
    expect(s.data.emv).toEqual(REQUEST_TAGS);
    const step = saleTransition(s, { kind: 'authorize' }, ctx);
    expect(step.ok && step.state.data.emv).toEqual(REQUEST_TAGS);
  });

  it.each<[string, HostSaleOutcome]>([
    ['timeout', { kind: 'unknown', reason: 'timeout' }],
    ['anomaly (Status 1)', { kind: 'anomaly', paymentId: 'p-1', reason: 'authorized-not-captured' }],
  ])('%s: the undo leaves with the request tags; the tags after FCX replace them', (_l, outcome) => {
    const undoing = run(start, [
      { kind: 'card-read', card: chipCard, emv: REQUEST_TAGS },
      { kind: 'authorize' },
      { kind: 'host-answer', outcome },
    ]);
    expect(undoing).toMatchObject({ name: 'undoing', data: { emv: REQUEST_TAGS } });
    const step = saleTransition(undoing, { kind: 'chip-data', emv: AFTER_FCX }, ctx);
    expect(step.ok).toBe(true);
    if (!step.ok) return;
    expect(step.state).toMatchObject({ name: 'undoing', data: { emv: AFTER_FCX } });
    expect(step.effects).toEqual([{ kind: 'outbox.undo-emv' }]);
  });

  it('card declined after approval: the undo carries the tags after FCX', () => {
    const s = run(start, [
      { kind: 'card-read', card: chipCard, emv: REQUEST_TAGS },
      { kind: 'authorize' },
      { kind: 'host-answer', outcome: { kind: 'approved', paymentId: 'p-2' } },
      { kind: 'chip-finished', card: 'declined', emv: AFTER_FCX },
    ]);
    expect(s).toMatchObject({ name: 'undoing', data: { emv: AFTER_FCX } });
  });

  it.each(['authorizing', 'finishing-chip'] as const)(
    'crash recovery from %s: the undo has the journaled request tags',
    (name) => {
      const s = run(start, [
        { kind: 'card-read', card: chipCard, emv: REQUEST_TAGS },
        { kind: 'authorize' },
        ...(name === 'finishing-chip'
          ? [{ kind: 'host-answer', outcome: { kind: 'approved', paymentId: 'p-3' } } as SaleInput]
          : []),
      ]);
      expect(s.name).toBe(name);
      const plan = planRecovery(s, ctx);
      expect(plan).toMatchObject({ kind: 'transition', to: 'undoing' });
      expect(s.data.emv).toEqual(REQUEST_TAGS);
    },
  );

  it("through the engine and a real journal: the pending undo task's payload follows the card (timeout, then FCX)", async () => {
    const db = openTerminalDatabase(tempDir());
    const journal = new Journal(db);
    const outbox = new Outbox(db);
    const clock = systemClock;
    let seenAtSend: Record<string, unknown> | undefined;
    const acquirer = new FakeAcquirer();
    acquirer.on('sales.authorize').reply((order) => {
      // What the journal holds at the moment the sale leaves.
      seenAtSend = journal.byMerchantOrderId(order.merchantOrderId)?.data;
      return { kind: 'unknown', reason: 'timeout' };
    });
    const host = acquirer.sales;
    const card = new SimulatedCardPort();
    const engine = new SaleEngine({
      expiryKey: TEST_EXPIRY_KEY,
      db,
      journal,
      outbox,
      orderIds: new MerchantOrderIds(db, { ordinal: 1, clock }),
      card,
      host,
      receipt: new TextReceiptPrinter(),
      clock,
      log: createLogger({ level: 'silent' }),
      attended: true,
      ecrDecisionMs: 60_000,
      closeMarginMs: 60_000,
    });
    const { entry, done } = await engine.start({
      amount: 1010,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: 'auto',
    });
    await done;
    for (
      let i = 0;
      i < 50 &&
      journal.get(entry.id)?.data.emv &&
      (outbox.byKey(idempotencyKey('undo', entry.merchantOrderId))?.payload as UndoTask | undefined)?.emv?.['9F27'] !==
        '00';
      i++
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const task = outbox.byKey(idempotencyKey('undo', entry.merchantOrderId));
    expect(task?.operation).toBe(OUTBOX_OPERATIONS.undo);
    // The simulated card's request tags went with the sale; after FCX (no communication) its tags replace them.
    expect((task?.payload as unknown as UndoTask).emv).toMatchObject({ '9F27': '00', '95': '0000000000' });
    expect(journal.get(entry.id)).toMatchObject({ state: 'undoing', data: { emv: { '9F27': '00' } } });
    const transitions = journal.transitions(entry.id).map((t) => t.to);
    expect(transitions).toContain('card-read');
    // Journaled before the sale left: the card's request tags (ARQC, 9F27 80), no card data.
    expect(seenAtSend?.emv).toMatchObject({ '9F27': '80', '9F26': expect.any(String) });
    expect(() => assertNoCardData(seenAtSend, 'journal.data')).not.toThrow();
    db.close();
  });
});
