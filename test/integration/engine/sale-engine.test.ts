import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { OmniSaleAdapter } from '../../../src/acquirer/omni/sale.js';
import { SimulatedCardPort, type SimulatedCardOptions } from '../../../src/adapters/simulated-card.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { systemClock, type Clock } from '../../../src/core/clock.js';
import { HostClock } from '../../../src/core/host-clock.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import type { SaleAuthorizationPort } from '../../../src/engine/ports.js';
import { SaleEngine, type SaleEvent } from '../../../src/engine/sale/engine.js';
import type { SaleRequest } from '../../../src/engine/sale/types.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase, type Db } from '../../../src/store/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';

const tempDir = useTempDirs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clientTimeoutMs: 500, withholdMs: 1000 });
});
afterAll(async () => {
  await h.close();
});

const identity = {
  subordinatedMerchantId: SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
  terminalId: SANDBOX_MERCHANT.terminal.terminalId,
  pinpadSerial: 'VIRT00000001',
  physicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless' as const,
  softDescriptor: 'OMNIPOS',
};

interface Terminal {
  db: Db;
  journal: Journal;
  outbox: Outbox;
  engine: SaleEngine;
  events: SaleEvent[];
  printer: TextReceiptPrinter;
  /** Delivers the outbox until nothing is pending (bounded). */
  settle(): Promise<void>;
}

function terminal(
  o: {
    dir?: string;
    card?: SimulatedCardOptions;
    host?: SaleAuthorizationPort;
    ecrDecisionMs?: number;
    clock?: Clock;
  } = {},
): Terminal {
  const db = openTerminalDatabase(o.dir ?? tempDir());
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const events: SaleEvent[] = [];
  const printer = new TextReceiptPrinter();
  const engine = new SaleEngine({
    expiryKey: TEST_EXPIRY_KEY,
    db,
    journal,
    outbox,
    orderIds: new MerchantOrderIds(db, { ordinal: 1, clock: systemClock }),
    card: new SimulatedCardPort(o.card),
    host: o.host ?? new OmniSaleAdapter(h.acquirer.omni, identity),
    receipt: printer,
    clock: o.clock ?? systemClock,
    log,
    attended: true,
    ecrDecisionMs: o.ecrDecisionMs ?? 60_000,
    closeMarginMs: 60_000,
    onEvent: (e) => void events.push(e),
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: new OmniDeliveryAdapter(h.acquirer.omni),
    clock: o.clock ?? systemClock,
    log,
    onSettled: (t, d) => engine.settled(t, d),
    undoRace: { processingWindowMs: 1500 },
    backoff: { baseMs: 20, maxMs: 100, minMs: 10 },
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 200 && outbox.depth().pending > 0; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { db, journal, outbox, engine, events, printer, settle };
}

const credit = (amount: number, confirmation: 'auto' | 'ecr' = 'auto'): SaleRequest => ({
  amount,
  method: 'credit',
  installments: 1,
  interest: 'ByMerchant',
  confirmation,
});

async function ledgerRow(merchantOrderId: string) {
  return (await h.ledger()).sales.find((s) => s.merchantOrderId === merchantOrderId);
}

describe('card sales through the engine, the strict sandbox and a real SQLite journal', () => {
  it('chip credit approved, receipt printed, confirmed once: the host shows it confirmed', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(credit(1010));
    await done;
    await t.settle();
    const final = t.journal.get(entry.id)!;
    expect(final.state).toBe('confirmed');
    expect(t.journal.transitions(entry.id).map((x) => x.to)).toEqual([
      'started',
      'card-read',
      'authorizing',
      'finishing-chip',
      'approved',
      'printing',
      'confirming',
      'confirmed',
    ]);
    expect(await ledgerRow(entry.merchantOrderId)).toMatchObject({ confirmationStatus: 1, charged: 1010 });
    expect(t.printer.printed[0]?.join('\n')).toContain(`PEDIDO ${entry.merchantOrderId}`);
    expect(
      t.events
        .filter((e) => e.type === 'state')
        .map((e) => (e as { status: string }).status)
        .at(-1),
    ).toBe('confirmed');
    t.db.close();
  });

  it('declined by the issuer (cents 11): declined, nothing to confirm, nothing charged', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(credit(1011));
    await done;
    expect(t.journal.get(entry.id)?.state).toBe('declined');
    expect(t.outbox.depth().pending).toBe(0);
    expect((await ledgerRow(entry.merchantOrderId))?.charged ?? 0).toBe(0);
    t.db.close();
  });

  it('the host withholds its answer (cents 12): the chip is told "no communication", the sale is undone by order id, nothing stays charged', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(credit(1012));
    await done;
    expect(t.journal.get(entry.id)?.state).toBe('undoing');
    await new Promise((r) => setTimeout(r, 1000));
    await t.settle();
    expect(t.journal.get(entry.id)?.state).toBe('undone');
    expect((await ledgerRow(entry.merchantOrderId))?.charged ?? 0).toBe(0);
    t.db.close();
  });

  it('the card declines after the host approved: undone with the card data', async () => {
    const t = terminal({ card: { cardDecision: 'declined' } });
    const { entry, done } = await t.engine.start(credit(1010));
    await done;
    await t.settle();
    expect(t.journal.get(entry.id)).toMatchObject({
      state: 'undone',
      data: { reason: 'card declined after the host approved' },
    });
    expect(await ledgerRow(entry.merchantOrderId)).toMatchObject({ charged: 0, confirmationStatus: 2 });
    t.db.close();
  });

  it('confirmation by the cash register: approved waits; the ECR confirms; one at a time holds the pinpad', async () => {
    const t = terminal({ card: { delayMs: 100 } });
    const { entry, done } = await t.engine.start(credit(1010, 'ecr'));
    await expect(t.engine.start(credit(500))).rejects.toMatchObject({ code: 'ENGINE_BUSY' });
    await done;
    expect(t.journal.get(entry.id)?.state).toBe('awaiting-decision');
    await t.engine.decide(entry.id, 'confirm');
    await t.settle();
    expect(t.journal.get(entry.id)?.state).toBe('confirmed');
    expect(await ledgerRow(entry.merchantOrderId)).toMatchObject({ confirmationStatus: 1 });
    t.db.close();
  });

  it('an ECR that never decides: the deadline undoes the sale', async () => {
    const t = terminal({ ecrDecisionMs: 200 });
    const { entry, done } = await t.engine.start(credit(1010, 'ecr'));
    await done;
    await new Promise((r) => setTimeout(r, 400));
    await t.settle();
    expect(t.journal.get(entry.id)).toMatchObject({
      state: 'undone',
      data: { reason: 'no decision before the deadline' },
    });
    expect(await ledgerRow(entry.merchantOrderId)).toMatchObject({ charged: 0 });
    t.db.close();
  });

  // Issue 29, a loose end: a deadline whose apply failed (the journal could not commit) was never tried again.
  it('a deadline undo whose journal write fails once is tried again, and the sale is undone', async () => {
    const t = terminal({ ecrDecisionMs: 200 });
    const { entry, done } = await t.engine.start(credit(1010, 'ecr'));
    await done;
    const transition = t.journal.transition.bind(t.journal);
    let failed = 0;
    t.journal.transition = (...args: Parameters<typeof transition>) => {
      if (failed++ === 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      return transition(...args);
    };
    for (let i = 0; i < 100 && t.journal.get(entry.id)?.state !== 'undoing'; i++)
      await new Promise((r) => setTimeout(r, 100));
    await t.settle();
    expect(failed).toBeGreaterThan(1);
    expect(t.journal.get(entry.id)).toMatchObject({
      state: 'undone',
      data: { reason: 'no decision before the deadline' },
    });
    t.db.close();
  });

  it('the clock learns the host is hours ahead while a sale awaits the decision: the deadline passes on the host clock, not hours later', async () => {
    // The daemon's clock follows the host's Date header (HostClock); the deadline was armed an hour out.
    const clock = new HostClock(systemClock);
    const t = terminal({ ecrDecisionMs: 3_600_000, clock });
    const { entry, done } = await t.engine.start(credit(1010, 'ecr'));
    await done;
    expect(t.journal.get(entry.id)?.state).toBe('awaiting-decision');
    expect(clock.observe(new Date(Date.now() + 2 * 3_600_000))).toBe(true);
    for (let i = 0; i < 300 && t.journal.get(entry.id)?.state === 'awaiting-decision'; i++)
      await new Promise((r) => setTimeout(r, 50));
    await t.settle();
    expect(t.journal.get(entry.id)).toMatchObject({
      state: 'undone',
      data: { reason: 'no decision before the deadline' },
    });
    expect(await ledgerRow(entry.merchantOrderId)).toMatchObject({ charged: 0 });
    t.db.close();
  });

  it('a cancel while the card is being read leaves nothing behind', async () => {
    const t = terminal({ card: { delayMs: 5000 } });
    const { entry, done } = await t.engine.start(credit(1010));
    await t.engine.cancel(entry.id, 'ecr');
    await done;
    expect(t.journal.get(entry.id)).toMatchObject({ state: 'aborted', data: { reason: 'cancelled by ecr' } });
    expect(await ledgerRow(entry.merchantOrderId)).toBeUndefined();
    t.db.close();
  });

  it('killed while the sale request was out: recovery undoes it by order id and nothing stays charged', async () => {
    const dir = tempDir();
    // The request reaches the host, then the terminal "dies": the answer is never applied.
    const real = new OmniSaleAdapter(h.acquirer.omni, identity);
    const dying: SaleAuthorizationPort = {
      authorize: async (order) => {
        await real.authorize(order);
        return new Promise(() => undefined);
      },
    };
    const before = terminal({ dir, host: dying });
    const { entry } = await before.engine.start(credit(1010));
    for (let i = 0; i < 100 && !(await ledgerRow(entry.merchantOrderId)); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(before.journal.get(entry.id)?.state).toBe('authorizing');
    expect(await ledgerRow(entry.merchantOrderId)).toMatchObject({ charged: 1010 });
    before.engine.stop();
    before.db.close();

    const after = terminal({ dir });
    expect(after.engine.recover()).toEqual([{ id: entry.id, from: 'authorizing', plan: 'undoing' }]);
    await after.settle();
    expect(after.journal.get(entry.id)?.state).toBe('undone');
    expect(await ledgerRow(entry.merchantOrderId)).toMatchObject({ charged: 0, confirmationStatus: 2 });
    expect((await h.ledger()).problems.filter((p) => p.merchantOrderId === entry.merchantOrderId)).toEqual([]);
    after.db.close();
  });

  it('an undo that reaches the host after its daily close confirmed the sale becomes needs-refund, with an alarm', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(credit(1010, 'ecr'));
    await done;
    expect(t.journal.get(entry.id)?.state).toBe('awaiting-decision');
    expect((await h.control('POST', '/sandbox/close-day')).status).toBe(200);
    await t.engine.decide(entry.id, 'undo');
    await t.settle();
    expect(t.journal.get(entry.id)?.state).toBe('needs-refund');
    expect(t.events.some((e) => e.type === 'alarm' && e.code === 'NEEDS_REFUND')).toBe(true);
    expect(await ledgerRow(entry.merchantOrderId)).toMatchObject({ confirmationStatus: 1, charged: 1010 });
    t.db.close();
  });
});
