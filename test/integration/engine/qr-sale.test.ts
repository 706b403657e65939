import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QrEvent } from '../../../src/engine/qr/engine.js';
import type { QrSaleRequest } from '../../../src/engine/qr/types.js';
import { parsePadraoq } from '../../../src/qr/index.js';
import { nextDailyClose } from '../../../src/engine/daily-close.js';
import { DEFAULT_VISIBILITY_WINDOW_MS } from '../../../src/engine/rules/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { qrSaleRequest, qrTerminal } from '../../helpers/qr-terminal.js';
import { walletPays as payWithWallet } from '../../helpers/wallet-pay.js';

const tempDir = useTempDirs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function terminal() {
  return qrTerminal(h, tempDir(), { ordinal: 1 });
}

const walletPays = (qr: string) => payWithWallet(h.running.urls.wallet, qr);

const qrEvent = async (events: QrEvent[]): Promise<Extract<QrEvent, { type: 'qr' }>> => {
  for (let i = 0; i < 1000; i++) {
    const e = events.find((x) => x.type === 'qr');
    if (e) return e;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no QR shown');
};

const sale = (amount: number): QrSaleRequest => qrSaleRequest(amount);

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

  it("a cancelled code nobody pays ends cancelled only past the close of its day and the window after it (the host's close)", async () => {
    const clock = new FakeClock(new Date().toISOString());
    const t = qrTerminal(h, tempDir(), { ordinal: 1, outboxClock: clock });
    const { entry, done } = await t.engine.start(sale(3410));
    await qrEvent(t.events);
    await t.engine.cancel(entry.id, 'customer');
    await done;
    const task = t.outbox.open()[0]!;
    const until = String(task.payload.until);
    // Past the code's validity (60 s here) and its margin, before the close: awaiting the host's close.
    clock.set(new Date(Date.parse(until) + 1).toISOString());
    await t.runOnce();
    expect(t.journal.get(entry.id)?.state).toBe('cancelling');
    expect(t.outbox.open()[0]?.lastError).toMatch(/awaiting the host's close/);
    // Past the close of that day and the window after it (15 min): two agreeing "not found" end it.
    clock.set(new Date(nextDailyClose(new Date(until)).getTime() + DEFAULT_VISIBILITY_WINDOW_MS).toISOString());
    for (let i = 0; i < 5 && t.outbox.open().length > 0; i++) {
      const next = Date.parse(t.outbox.open()[0]!.nextTryAt);
      if (next > clock.now().getTime()) clock.set(new Date(next).toISOString());
      await t.runOnce();
    }
    expect(t.journal.get(entry.id)?.state).toBe('cancelled');
    t.db.close();
  });
});
