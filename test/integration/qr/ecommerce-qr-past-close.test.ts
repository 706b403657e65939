import { walletPays as walletPaysWith } from '../../helpers/wallet-pay.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { createAcquirer, type Acquirer } from '../../../src/acquirer/index.js';
import { loadConfig } from '../../../src/config/index.js';
import { systemClock } from '../../../src/core/clock.js';
import { HostClock } from '../../../src/core/host-clock.js';
import { nextDailyClose } from '../../../src/engine/daily-close.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import { QrEngine, type QrEvent } from '../../../src/engine/qr/engine.js';
import { qrProvider } from '../../../src/factory/index.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase } from '../../../src/store/index.js';
import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';
import { ownerDeps, qrSaleRequest, shownCode } from '../../helpers/qr-terminal.js';
import { sandboxSettings } from '../../../src/sandbox/index.js';

/**
 * An undo of a paid e-commerce QR sale first tried after the daily close (docs/decisions.md, "The e-commerce
 * QR sale"). The terminal's business time is a HostClock taught by the sandbox's Date headers; the
 * sandbox's clock control moves the host past 00:00 America/Sao_Paulo.
 */
const tempDir = useTempDirs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function terminal() {
  const stateDir = tempDir();
  const clock = new HostClock(systemClock);
  const acquirer: Acquirer = createAcquirer({
    settings: { ...sandboxSettings(h.running), clientId: SANDBOX_CREDENTIALS.clientId, timeoutMs: 5000 },
    clientSecret: { reveal: () => SANDBOX_CREDENTIALS.clientSecret },
    ecommerce: {
      merchantId: SANDBOX_CREDENTIALS.merchantId,
      merchantKey: { reveal: () => SANDBOX_CREDENTIALS.merchantKey },
    },
    environment: 'sandbox',
    clock,
    log,
    onHostDate: (date) => void clock.observe(date),
  });
  const config = loadConfig({
    env: { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: stateDir, OMNIPOS_QR__PROVIDER: 'ecommerce' },
  });
  const db = openTerminalDatabase(stateDir);
  const journal = new Journal(db);
  const provider = qrProvider(config, acquirer, db, journal, new OmniDeliveryAdapter(acquirer.omni));
  const events: QrEvent[] = [];
  const outbox = new Outbox(db);
  const engine = new QrEngine({
    ...ownerDeps(db, 7),
    journal,
    outbox,
    orderIds: new MerchantOrderIds(db, { ordinal: 7, clock }),
    clock,
    host: provider.delivery,
    ...(provider.codes ? { codes: provider.codes } : {}),
    onEvent: (e) => void events.push(e),
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: provider.delivery,
    clock,
    log,
    onSettled: (t, d) => engine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
  });
  return {
    clock,
    acquirer,
    db,
    journal,
    outbox,
    engine,
    events,
    forwarder,
    async close() {
      engine.stop();
      await acquirer.close();
      db.close();
    },
  };
}

/** The customer's wallet pays `qr` with the first test card (test/helpers/wallet-pay.ts); its exit code. */
async function walletPays(qr: string): Promise<number> {
  return (await walletPaysWith(h.running.urls.wallet, qr)).code;
}

/** A paid e-commerce QR sale awaiting the cash register, then undone by it: the undo is in the outbox, not yet tried. */
async function paidThenUndone(t: ReturnType<typeof terminal>, amount: number) {
  const { entry, done } = await t.engine.start({ ...qrSaleRequest(amount), confirmation: 'ecr' });
  expect(await walletPays(shownCode(t.events))).toBe(0);
  await done;
  for (let i = 0; i < 200 && t.journal.get(entry.id)?.state !== 'awaiting-decision'; i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(t.journal.get(entry.id)?.state).toBe('awaiting-decision');
  await t.engine.decide(entry.id, 'undo', 'ecr');
  expect(t.journal.get(entry.id)?.state).toBe('undoing');
  const paymentId = (t.journal.get(entry.id)!.data as { paymentId: string }).paymentId;
  return { id: entry.id, paymentId };
}

describe('undo of a paid e-commerce QR sale and the daily close (qr.provider: ecommerce, against the sandbox)', () => {
  it('before the close the undo voids it (status 10)', async () => {
    const t = terminal();
    const { id, paymentId } = await paidThenUndone(t, 5610);
    await t.forwarder.runOnce();
    expect(t.journal.get(id)?.state).toBe('undone');
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === paymentId)).toMatchObject({
      status: 10,
      charged: 0,
    });
    await t.close();
  });

  it('first tried after the close: queried, still paid (captured) → needs-refund with the NEEDS_REFUND alarm, and nothing is voided', async () => {
    const t = terminal();
    const { id, paymentId } = await paidThenUndone(t, 5710);
    const task = t.outbox.due(new Date(Date.now() + 3_600_000))[0]!;
    expect(task.operation).toBe('sale.undo');
    // The host's clock passes 00:00 Sao Paulo of the undo's day; the next answer's Date header tells the terminal.
    const close = nextDailyClose(new Date(task.createdAt));
    const moved = await h.control('POST', '/sandbox/clock', { now: new Date(close.getTime() + 60_000).toISOString() });
    expect(moved.status).toBe(200);
    await t.acquirer.tokens.refresh('transactional');
    expect(t.clock.now().getTime()).toBeGreaterThanOrEqual(close.getTime());
    await t.forwarder.runOnce();
    expect(t.journal.get(id)?.state).toBe('needs-refund');
    expect(t.outbox.depth().pending).toBe(0);
    expect(t.events.some((e) => e.type === 'alarm' && e.code === 'NEEDS_REFUND')).toBe(true);
    const last = t.journal.transitions(id).at(-1)!;
    expect(last.to).toBe('needs-refund');
    // Still charged at the host: no void was sent past the close.
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === paymentId)).toMatchObject({
      status: 2,
      charged: 5710,
    });
    await t.close();
  });
});
