import { afterAll, beforeAll, expect } from 'vitest';
import { EscPosPrinter } from '../../../drivers/printer/index.js';
import { TcpTransport } from '../../../drivers/transport/index.js';
import { findPrinterModel } from '../../../tables/printers/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { EscPosReceiptPrinter } from '../../../src/adapters/escpos-receipt.js';
import { systemClock } from '../../../src/core/clock.js';
import { OmniposError } from '../../../src/core/errors/index.js';
import type { CardPort } from '../../../src/engine/ports.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import type { MerchantProfile } from '../../../src/engine/qr/code.js';
import { QrEngine, type QrEvent } from '../../../src/engine/qr/engine.js';
import { VoidEngine, type VoidEvent } from '../../../src/engine/void/engine.js';
import { SupervisorGate } from '../../../src/engine/void/supervisor.js';
import { walletCancellations } from '../../../src/acquirer/omni/wallet-cancellations.js';
import { VirtualPrinter, serveVirtualPrinter, type VirtualPrinterServer } from '../../../src/sim/printer/index.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';
import { SANDBOX_PROFILE } from '../../helpers/qr-terminal.js';
import { SUPERVISOR_HASH, SUPERVISOR_TOKEN } from './terminal.js';
import { walletPays as walletPaysAt } from '../../helpers/wallet-pay.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';

// What the wallet QR void tests share (wallet-qr-void.test.ts, wallet-code-end.test.ts): the strict
// sandbox, the virtual printer, and terminals of a QR engine, a void engine and an outbox on one store.
// The state is exported as live bindings, set by the hooks.

const tempDir = useTempDirs();
export let h: Harness;
export let virtual: VirtualPrinter;
let server: VirtualPrinterServer;
let driver: EscPosPrinter;
beforeAll(async () => {
  h = await startHarness();
  virtual = new VirtualPrinter({ model: findPrinterModel('virtual-80')! });
  server = await serveVirtualPrinter(virtual, { port: 0 });
  driver = new EscPosPrinter({
    transport: new TcpTransport({ host: '127.0.0.1', port: server.port }),
    model: virtual.model,
    pollMs: 20,
  });
  await driver.open();
});
afterAll(async () => {
  await driver.close().catch(() => undefined);
  await server.close();
  await h.close();
});

export const MERCHANT: MerchantProfile = SANDBOX_PROFILE;
/** Two days: past the close of any code's day and the visibility window after it. */
export const DAY_MS = 2 * 24 * 3600_000;

/** No card is read for a wallet QR void: a card port that refuses proves it. */
const NO_CARD: CardPort = {
  readCard: () => Promise.reject(new OmniposError('INTERNAL', 'no card is read for a wallet QR void')),
  finishChip: () => Promise.reject(new OmniposError('INTERNAL', 'no chip')),
  end: () => Promise.resolve(),
};

export function terminal(o: { validityMs?: number; dir?: string } = {}) {
  const dir = o.dir ?? tempDir();
  const db = openTerminalDatabase(dir);
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const orderIds = new MerchantOrderIds(db, { ordinal: 3, clock: systemClock });
  const qrEvents: QrEvent[] = [];
  const events: VoidEvent[] = [];
  const port = new OmniDeliveryAdapter(h.acquirer.omni);
  const receipt = new EscPosReceiptPrinter(driver, virtual.model, 'sandbox', log);
  const common = {
    db,
    journal,
    outbox,
    orderIds,
    clock: systemClock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
    receipt,
  };
  const qr = new QrEngine({
    ...common,
    host: port,
    merchant: MERCHANT,
    validityMs: 60_000,
    watchMarginMs: 300,
    pollMs: 40,
    onEvent: (e) => void qrEvents.push(e),
  });
  const voids = new VoidEngine({
    expiryKey: TEST_EXPIRY_KEY,
    ...common,
    card: NO_CARD,
    host: { void: () => Promise.reject(new Error('no card void here')) },
    supervisor: new SupervisorGate({ token: SUPERVISOR_TOKEN, passwordHash: () => SUPERVISOR_HASH }),
    tables: () => undefined,
    wallet: {
      host: walletCancellations(h.acquirer.omni),
      validityMs: o.validityMs ?? 60_000,
      watchMarginMs: 200,
      pollMs: 40,
    },
    onEvent: (e) => void events.push(e),
  });
  // `aheadMs`: the outbox's clock that far ahead (a day later: past the close of the code's day and its window).
  const forwarderAt = (aheadMs: number) =>
    new OutboxForwarder({
      db,
      outbox,
      port,
      wallet: walletCancellations(h.acquirer.omni),
      clock: { now: () => new Date(Date.now() + aheadMs) },
      log,
      onSettled: (t, d) => {
        qr.settled(t, d);
        voids.settled(t, d);
      },
      undoRace: { processingWindowMs: 1000 },
      backoff: { baseMs: 20, maxMs: 100, minMs: 10 },
    });
  const settleAt = async (aheadMs: number, passes = 300): Promise<void> => {
    const forwarder = forwarderAt(aheadMs);
    for (let i = 0; i < passes && outbox.depth().pending > 0; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const settle = () => settleAt(0);
  return { dir, db, journal, outbox, qr, voids, qrEvents, events, settle, settleAt };
}

export const walletPays = (qr: string, card = TEST_CARDS[0]!) => walletPaysAt(h.running.urls.wallet, qr, card);

export async function until<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = find();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A confirmed wallet QR sale of `amount` cents: its journal id and the code that was paid. */
export async function paidSale(t: WalletTerminal, amount: number): Promise<{ id: number; code: string }> {
  const { entry, done } = await t.qr.start({
    amount,
    method: 'credit',
    installments: 1,
    interest: 'ByMerchant',
    confirmation: 'auto',
  });
  const shown = await until(
    () => t.qrEvents.find((e): e is Extract<QrEvent, { type: 'qr' }> => e.type === 'qr' && e.id === entry.id),
    'the sale code',
  );
  expect((await walletPays(shown.qrCode)).code).toBe(0);
  await done;
  await t.settle();
  expect(t.journal.get(entry.id)?.state).toBe('confirmed');
  return { id: entry.id, code: shown.qrCode };
}

export const cancellationShown = (t: WalletTerminal, id: number) =>
  until(
    () => t.events.find((e): e is Extract<VoidEvent, { type: 'qr' }> => e.type === 'qr' && e.id === id),
    'the cancellation code',
  );

export type WalletTerminal = ReturnType<typeof terminal>;
