import { describe, expect, it } from 'vitest';
import { SimulatedCardPort } from '../../../src/adapters/simulated-card.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { PaymentLock } from '../../../src/engine/payment-lock.js';
import { QrEngine } from '../../../src/engine/qr/engine.js';
import { SaleEngine } from '../../../src/engine/sale/engine.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase } from '../../../src/store/index.js';
import { FakeAcquirer } from '../../helpers/fake-acquirer.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';

const tempDir = useTempDirs();
const log = createLogger({ level: 'silent' });

/** A card sale engine and a wallet QR engine of one terminal, sharing its database (and the lock, when given). */
function terminal(lock?: PaymentLock) {
  const db = openTerminalDatabase(tempDir());
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const orderIds = new MerchantOrderIds(db, { ordinal: 1, clock: systemClock });
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
    ...(lock ? { lock } : {}),
  };
  // The host approves every card sale, shows no wallet payment, and the terminal makes its own codes.
  const host = new FakeAcquirer({ qrProvider: 'terminal' });
  host
    .on('sales.authorize')
    .persist()
    .reply({ kind: 'approved', paymentId: 'p-1', authorizationCode: '123456', nsu: '000001' });
  for (const undo of ['delivery.confirm', 'delivery.undo', 'delivery.undoByOrderId'] as const)
    host.on(undo).persist().reply({ action: 'done', reason: 'x' });
  host.on('delivery.queryByOrderId').persist().reply({ kind: 'not-found' });
  host.on('qrCodes.issue').persist().reply({ qrCode: 'CODE' });
  const sales = new SaleEngine({
    expiryKey: TEST_EXPIRY_KEY,
    ...common,
    card: new SimulatedCardPort({ delayMs: 300 }),
    host: host.sales,
  });
  const qr = new QrEngine({
    ...common,
    host: host.delivery,
    codes: host.qrCodes,
    validityMs: 60_000,
    watchMarginMs: 500,
    pollMs: 20,
  });
  return { db, journal, sales, qr };
}

const card = {
  amount: 1010,
  method: 'credit' as const,
  installments: 1,
  interest: 'ByMerchant' as const,
  confirmation: 'auto' as const,
};

describe('one payment at a time per terminal (issue 17)', () => {
  it('a wallet QR sale while a card sale is in progress is ENGINE_BUSY, and nothing is journaled for it', async () => {
    const t = terminal(new PaymentLock());
    const { done } = await t.sales.start(card);
    await expect(t.qr.start(card)).rejects.toMatchObject({ code: 'ENGINE_BUSY' });
    await done;
    expect(t.journal.list().map((e) => e.kind)).toEqual(['sale']);
    t.db.close();
  });

  it('a card sale while a wallet QR code is showing is ENGINE_BUSY; once the QR sale is over, it goes', async () => {
    const t = terminal(new PaymentLock());
    const { entry, done } = await t.qr.start(card);
    for (let i = 0; i < 100 && t.journal.get(entry.id)?.state !== 'showing'; i++)
      await new Promise((r) => setTimeout(r, 10));
    await expect(t.sales.start(card)).rejects.toMatchObject({ code: 'ENGINE_BUSY' });
    await t.qr.cancel(entry.id, 'ecr');
    await done;
    const next = await t.sales.start(card);
    await next.done;
    expect(t.journal.get(next.entry.id)?.state).not.toBe('started');
    t.db.close();
  });

  it('the lock: the holder is named, a failed start releases it, done releases it', async () => {
    const lock = new PaymentLock();
    await expect(lock.hold('sale', () => Promise.reject(new Error('no card')))).rejects.toThrow('no card');
    expect(lock.busy).toBe(false);
    let finish!: () => void;
    const started = await lock.hold('pix', (attach) => {
      attach(7);
      return Promise.resolve({ done: new Promise<void>((r) => (finish = r)) });
    });
    expect(lock.holder).toEqual({ kind: 'pix', id: 7 });
    expect(() => lock.assertFree()).toThrow(/busy with another payment \(pix 7\)/);
    finish();
    await started.done;
    await Promise.resolve();
    expect(lock.busy).toBe(false);
  });
});
