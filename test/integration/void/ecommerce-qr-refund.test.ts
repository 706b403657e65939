import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { EcommercePixAdapter } from '../../../src/acquirer/omni/pix.js';
import { OmniVoidAdapter } from '../../../src/acquirer/omni/voids.js';
import { SimulatedCardPort } from '../../../src/adapters/simulated-card.js';
import { loadConfig } from '../../../src/config/index.js';
import { systemClock } from '../../../src/core/clock.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import { VoidEngine, type VoidEvent } from '../../../src/engine/void/engine.js';
import { SupervisorGate } from '../../../src/engine/void/supervisor.js';
import { qrProvider } from '../../../src/factory/index.js';
import { Journal, openTerminalDatabase } from '../../../src/store/index.js';
import { walletPays } from '../../helpers/wallet-pay.js';
import { ownerDeps, qrSaleRequest, qrTerminal, shownCode } from '../../helpers/qr-terminal.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { SUPERVISOR_HASH, SUPERVISOR_TOKEN } from './terminal.js';

/*
 * A paid e-commerce QR sale (qr.provider: ecommerce) is given back from the terminal as the manual
 * allows: `PUT /1/sales/{PaymentId}/void` (ecom:1952-1966 of the e-commerce page), through the same
 * void engine, supervisor, remaining-amount ledger and rulebook (`pix.refund` tables) as a Pix
 * refund; the host then shows the sale voided (10). On 4ef2f17 the void engine refused it
 * (VOID_NOT_ALLOWED, "made by the ecommerce API").
 */

const tempDir = useTempDirs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const byToken = { supervisor: { token: SUPERVISOR_TOKEN } };

/** A terminal selling e-commerce QR codes, with the void engine and one outbox forwarder for both. */
function terminal() {
  const stateDir = tempDir();
  const config = loadConfig({
    env: { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: stateDir, OMNIPOS_QR__PROVIDER: 'ecommerce' },
  });
  const db = openTerminalDatabase(stateDir);
  const provider = qrProvider(config, h.acquirer, db, new Journal(db), new OmniDeliveryAdapter(h.acquirer.omni));
  const qr = qrTerminal(h, stateDir, {
    db,
    ordinal: 4,
    host: provider.delivery,
    ...(provider.codes ? { codes: provider.codes } : {}),
  });
  const events: VoidEvent[] = [];
  const voidHost = new OmniVoidAdapter(h.acquirer.omni);
  const deps = ownerDeps(db, 4);
  const voids = new VoidEngine({
    expiryKey: TEST_EXPIRY_KEY,
    ...deps,
    journal: qr.journal,
    outbox: qr.outbox,
    card: new SimulatedCardPort(),
    host: voidHost,
    supervisor: new SupervisorGate({ token: SUPERVISOR_TOKEN, passwordHash: () => SUPERVISOR_HASH }),
    tables: () => undefined,
    pixRefunds: true,
    onEvent: (e) => void events.push(e),
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox: qr.outbox,
    port: provider.delivery,
    pix: new EcommercePixAdapter(h.acquirer.ecommerce!),
    voids: voidHost,
    clock: systemClock,
    log,
    onSettled: (t, d) =>
      qr.journal.get(t.journalId ?? -1)?.kind === 'void' ? voids.settled(t, d) : qr.engine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
    backoff: { baseMs: 20, maxMs: 60, minMs: 10 },
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 300 && qr.outbox.depth().pending > 0; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** An e-commerce QR sale, paid by the wallet and confirmed: its journal id and PaymentId. */
  const paidSale = async (amount: number): Promise<{ saleId: number; paymentId: string }> => {
    const { entry, done } = await qr.engine.start(qrSaleRequest(amount));
    expect((await walletPays(h.running.urls.wallet, shownCode(qr.events))).code).toBe(0);
    await done;
    await settle();
    const sale = qr.journal.get(entry.id)!;
    expect(sale.state).toBe('confirmed');
    return { saleId: entry.id, paymentId: (sale.data as { paymentId: string }).paymentId };
  };
  return { db, journal: qr.journal, outbox: qr.outbox, voids, events, settle, paidSale };
}

describe('the refund of a paid e-commerce QR sale from the terminal (PUT /1/sales/{PaymentId}/void, ecom:1952)', () => {
  it('is asked once through the outbox and ends confirmed when the host shows the sale voided (10); nothing is left to void', async () => {
    const t = terminal();
    const { saleId, paymentId } = await t.paidSale(4150);
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === paymentId)).toMatchObject({
      status: 2,
      charged: 4150,
    });
    const { entry } = await t.voids.start(saleId, byToken);
    expect(t.journal.get(entry.id)).toMatchObject({
      kind: 'void',
      state: 'refunding',
      amount: 4150,
      data: { sale: { kind: 'ecommerce-qr', id: saleId, paymentId } },
    });
    expect(t.outbox.open().map((x) => x.operation)).toEqual(['pix.refund']);
    expect(t.voids.remaining(saleId)).toMatchObject({ voided: 4150, remaining: 0 });
    await t.settle();
    expect(t.journal.transitions(entry.id).map((x) => x.to)).toEqual(['started', 'refunding', 'confirmed']);
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === paymentId)).toMatchObject({
      status: 10,
      charged: 0,
    });
    // One void asked at the host, and the sale is not voided twice.
    const voids = (await h.ledger()).entries.filter((e) => e.paymentId === paymentId && e.kind === 'qrcode-void');
    expect(voids).toHaveLength(1);
    await expect(t.voids.start(saleId, byToken)).rejects.toMatchObject({ code: 'VOID_OVER_LIMIT' });
    expect(t.events.some((e) => e.type === 'alarm')).toBe(false);
    t.db.close();
  });

  it('is refused before a journal row when partial: the e-commerce QR sale is given back in full', async () => {
    const t = terminal();
    const { saleId } = await t.paidSale(2200);
    await expect(t.voids.start(saleId, { ...byToken, amount: 1000 })).rejects.toMatchObject({
      code: 'VOID_NOT_ALLOWED',
      message: expect.stringContaining('e-commerce QR sale is refunded in full'),
    });
    expect(t.journal.list().filter((e) => e.kind === 'void')).toEqual([]);
    t.db.close();
  });
});
