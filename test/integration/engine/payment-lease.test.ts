import { describe, expect, it } from 'vitest';
import { SimulatedCardPort } from '../../../src/adapters/simulated-card.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import {
  OutboxForwarder,
  PaymentLock,
  QrEngine,
  SaleEngine,
  SupervisorGate,
  VoidEngine,
  type SaleRequest,
} from '../../../src/engine/index.js';
import { parseInitialization, TableSet } from '../../../src/initialization/index.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase } from '../../../src/store/index.js';
import { sandboxAnswer } from '../../helpers/initialization-tables.js';
import { FakeAcquirer } from '../../helpers/fake-acquirer.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';

/**
 * One payment at a time per terminal, through the one lease the daemon hands every engine: the
 * card sale, void and wallet QR engines of one terminal share one PaymentLock (src/main.ts) and
 * nothing else — no engine asks another whether it is busy. Real engines on a real SQLite file;
 * the card reads are simulated (slow, so the other payment comes while one reads), the hosts
 * answer at once.
 */
const tempDir = useTempDirs();
const log = createLogger({ level: 'silent' });
const TOKEN = 'supervisor-token-of-the-payment-lease-test-0123456789';
const tables = new TableSet(parseInitialization(sandboxAnswer()));
const done = { action: 'done' as const, reason: 'done' };

function terminal() {
  const db = openTerminalDatabase(tempDir());
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const orderIds = new MerchantOrderIds(db, { ordinal: 1, clock: systemClock });
  const lock = new PaymentLock();
  const common = {
    db,
    journal,
    outbox,
    orderIds,
    receipt: new TextReceiptPrinter(),
    clock: systemClock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
    lock,
  };
  // The host approves every sale and void, delivers everything asked, shows no wallet payment.
  const host = new FakeAcquirer({ qrProvider: 'terminal' });
  let n = 0;
  host
    .on('sales.authorize')
    .persist()
    .reply(() => ({ kind: 'approved', paymentId: `p-${++n}`, authorizationCode: '123456', nsu: '000001' }));
  host
    .on('voids.void')
    .persist()
    .reply(() => ({ kind: 'approved', voidId: `v-${++n}` }));
  host.deliversEverything(done);
  host.on('qrCodes.issue').persist().reply({ qrCode: 'CODE' });
  const sales = new SaleEngine({
    expiryKey: TEST_EXPIRY_KEY,
    ...common,
    card: new SimulatedCardPort({ delayMs: 300 }),
    host: host.sales,
  });
  const voids = new VoidEngine({
    expiryKey: TEST_EXPIRY_KEY,
    ...common,
    card: new SimulatedCardPort({ delayMs: 300 }),
    host: host.voids,
    supervisor: new SupervisorGate({ token: TOKEN, passwordHash: () => undefined }),
    tables: () => tables,
  });
  const qr = new QrEngine({
    ...common,
    host: host.delivery,
    codes: host.qrCodes,
    validityMs: 60_000,
    watchMarginMs: 500,
    pollMs: 20,
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: host.delivery,
    voids: host.voids,
    clock: systemClock,
    log,
    onSettled: (t, d) => {
      const kind = journal.get(t.journalId ?? -1)?.kind;
      (kind === 'void' ? voids : kind === 'qr' ? qr : sales).settled(t, d);
    },
    undoRace: { processingWindowMs: 300 },
    backoff: { baseMs: 20, maxMs: 100, minMs: 10 },
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 200 && outbox.depth().pending > 0; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const close = (): void => {
    sales.stop();
    voids.stop();
    qr.stop();
    db.close();
  };
  return { db, journal, lock, sales, voids, qr, settle, close };
}

const credit = (amount: number) =>
  ({
    amount,
    method: 'credit',
    installments: 1,
    interest: 'ByMerchant',
    confirmation: 'auto',
  }) satisfies SaleRequest;
const supervisor = { supervisor: { token: TOKEN } };

describe('the payment lease: one lock shared by the sale, void and wallet QR engines', () => {
  it('a card sale while a void reads the card is ENGINE_BUSY, and a void while a card sale reads is too; nothing is journaled for the refused one', async () => {
    const t = terminal();
    const first = await t.sales.start(credit(1000));
    await first.done;
    await t.settle();
    expect(t.journal.get(first.entry.id)?.state).toBe('confirmed');

    // A void holds the terminal while it reads the card: a card sale is refused.
    const v = await t.voids.start(first.entry.id, { ...supervisor, amount: 100 });
    expect(t.lock.holder).toEqual({ kind: 'void', id: v.entry.id });
    expect(t.voids.busy).toBe(true);
    expect(t.sales.busy).toBe(false);
    await expect(t.sales.start(credit(500))).rejects.toMatchObject({
      code: 'ENGINE_BUSY',
      context: { holder: 'void', active: v.entry.id },
    });
    await v.done;
    await t.settle();
    expect(t.journal.get(v.entry.id)?.state).toBe('confirmed');
    expect(t.lock.busy).toBe(false);

    // A card sale holds it: a void is refused (after its supervisor was checked), and so is a wallet QR sale.
    const s = await t.sales.start(credit(700));
    expect(t.sales.busy).toBe(true);
    await expect(t.voids.start(first.entry.id, { ...supervisor, amount: 100 })).rejects.toMatchObject({
      code: 'ENGINE_BUSY',
      context: { holder: 'sale', active: s.entry.id },
    });
    await expect(t.voids.start(first.entry.id, { supervisor: { token: 'wrong' }, amount: 100 })).rejects.toMatchObject({
      code: 'SUPERVISOR_REQUIRED',
    });
    await expect(t.qr.start(credit(300))).rejects.toMatchObject({ code: 'ENGINE_BUSY', context: { holder: 'sale' } });
    await s.done;
    await t.settle();
    expect(t.sales.busy).toBe(false);
    expect(t.journal.list().map((e) => `${e.kind} ${e.state}`)).toEqual([
      'sale confirmed',
      'void confirmed',
      'sale confirmed',
    ]);
    t.close();
  }, 60_000);

  it('a cancel during the card read ends it as a cancel and frees the terminal for the next payment', async () => {
    const t = terminal();
    const s = await t.sales.start(credit(900));
    await t.sales.cancel(s.entry.id, 'ecr');
    await s.done;
    expect(t.journal.get(s.entry.id)).toMatchObject({ state: 'aborted', data: { reason: 'cancelled by ecr' } });
    expect(t.lock.busy).toBe(false);
    const q = await t.qr.start(credit(300));
    expect(t.lock.holder).toEqual({ kind: 'qr', id: q.entry.id });
    await t.qr.cancel(q.entry.id, 'ecr');
    t.close();
  }, 60_000);
});
