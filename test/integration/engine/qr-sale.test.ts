import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/adapters/acquirer-delivery.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { runCli } from '../../../src/cli/run.js';
import { systemClock } from '../../../src/core/clock.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import { QrEngine, type QrEvent } from '../../../src/engine/qr/engine.js';
import type { QrSaleRequest } from '../../../src/engine/qr/types.js';
import { parsePadraoq } from '../../../src/qr/index.js';
import { Journal, MerchantOrderIds, Outbox } from '../../../src/store/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { useTempStores } from '../../helpers/store.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';

const tempDir = useTempDirs();
const tempStore = useTempStores();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function terminal() {
  const db = tempStore();
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const events: QrEvent[] = [];
  const port = new OmniDeliveryAdapter(h.acquirer.omni);
  const m = SANDBOX_MERCHANT.merchant;
  const engine = new QrEngine({
    db,
    journal,
    outbox,
    orderIds: new MerchantOrderIds(db, { ordinal: 1, clock: systemClock }),
    host: port,
    receipt: new TextReceiptPrinter(),
    merchant: {
      merchantNumber: m.merchantNumber,
      terminalId: SANDBOX_MERCHANT.terminal.terminalId,
      nationalId: m.nationalId,
      mcc: m.mcc,
      name: m.name,
      city: m.city,
      postalCode: m.postalCode,
      deviceType: 'P',
    },
    clock: systemClock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
    validityMs: 60_000,
    watchMarginMs: 500,
    pollMs: 40,
    onEvent: (e) => void events.push(e),
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port,
    clock: systemClock,
    log,
    onSettled: (t, d) => engine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
    backoff: { baseMs: 20, maxMs: 100, minMs: 10 },
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 300 && outbox.depth().pending > 0; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { db, journal, outbox, engine, events, settle };
}

async function walletPays(qr: string): Promise<{ code: number; out: string; err: string }> {
  const card = TEST_CARDS[0]!;
  let out = '';
  let err = '';
  const code = await runCli(
    [
      'wallet',
      'pay',
      qr,
      '--card',
      card.pan,
      '--cvv',
      '123',
      '--exp',
      `${card.expiry.slice(2)}${card.expiry.slice(0, 2)}`,
      '--name',
      'TESTE CARTAO',
      '--document',
      '52998224725',
    ],
    {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { OMNIPOS_STATE_DIR: tempDir(), OMNIPOS_ACQUIRER__WALLET_URL: h.running.urls.wallet },
    },
  );
  return { code, out, err };
}

const qrEvent = async (events: QrEvent[]): Promise<Extract<QrEvent, { type: 'qr' }>> => {
  for (let i = 0; i < 1000; i++) {
    const e = events.find((x) => x.type === 'qr');
    if (e) return e;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no QR shown');
};

const sale = (amount: number): QrSaleRequest => ({
  amount,
  method: 'credit',
  installments: 1,
  interest: 'ByMerchant',
  confirmation: 'auto',
});

describe('wallet QR sales against the sandbox (the wallet pays through the wallet API)', () => {
  it('shows a current-model code naming the sale, sees it paid, prints and confirms it', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(sale(3210));
    const shown = await qrEvent(t.events);
    const parsed = parsePadraoq(shown.qrCode);
    expect(parsed.model).toBe('current');
    expect(parsed.qrcode_data.additional_data_field.reference_label).toBe(entry.merchantOrderId);
    expect(parsed.qrcode_data.transaction_amount).toBe('32.10');
    const paid = await walletPays(shown.qrCode);
    expect(paid.err).toBe('');
    expect(paid.code).toBe(0);
    await done;
    await t.settle();
    expect(t.journal.transitions(entry.id).map((x) => x.to)).toEqual([
      'started',
      'showing',
      'approved',
      'printing',
      'confirming',
      'confirmed',
    ]);
    const row = (await h.ledger()).sales.find((s) => s.merchantOrderId === entry.merchantOrderId);
    expect(row).toMatchObject({ confirmationStatus: 1, charged: 3210 });
    t.db.close();
  });

  it('a payment made after the cashier cancelled (and after the first query) is undone, never kept, with an alarm', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(sale(3310));
    const shown = await qrEvent(t.events);
    await new Promise((r) => setTimeout(r, 100));
    await t.engine.cancel(entry.id, 'ecr');
    await done;
    expect(t.journal.get(entry.id)?.state).toBe('cancelling');
    expect((await walletPays(shown.qrCode)).code).toBe(0);
    await t.settle();
    expect(t.journal.get(entry.id)?.state).toBe('undone');
    expect(t.events.some((e) => e.type === 'alarm' && e.code === 'QR_LATE_PAYMENT')).toBe(true);
    expect((await h.ledger()).sales.find((s) => s.merchantOrderId === entry.merchantOrderId)).toMatchObject({
      charged: 0,
      confirmationStatus: 2,
    });
    t.db.close();
  });

  it('a cancelled code nobody pays ends cancelled once its validity and the margin have passed', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(sale(3410));
    await qrEvent(t.events);
    await t.engine.cancel(entry.id, 'customer');
    await done;
    // The watch lasts until the code's validity (60 s here) plus the margin: move the task past it.
    const task = t.outbox.open()[0]!;
    t.outbox.updatePayload(task.id, { ...task.payload, until: new Date(Date.now() - 1).toISOString() });
    await t.settle();
    expect(t.journal.get(entry.id)?.state).toBe('cancelled');
    t.db.close();
  });
});
