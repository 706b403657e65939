import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { OmniVoidAdapter } from '../../../src/acquirer/omni/voids.js';
import { EcommercePixAdapter } from '../../../src/acquirer/omni/pix.js';
import { SimulatedCardPort } from '../../../src/adapters/simulated-card.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { systemClock } from '../../../src/core/clock.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import { PixEngine, type PixEvent } from '../../../src/engine/pix/engine.js';
import { VoidEngine } from '../../../src/engine/void/engine.js';
import { SupervisorGate } from '../../../src/engine/void/supervisor.js';
import { Journal, MerchantOrderIds, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';
import { SUPERVISOR_HASH, SUPERVISOR_TOKEN } from './terminal.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';

const tempStore = useTempStores();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function terminal(o: { pixRefunds?: boolean } = {}) {
  const db = tempStore();
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const orderIds = new MerchantOrderIds(db, { ordinal: 9, clock: systemClock });
  const events: PixEvent[] = [];
  const pix = new EcommercePixAdapter(h.acquirer.ecommerce!);
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
  };
  const pixEngine = new PixEngine({
    ...common,
    host: pix,
    validityMs: 60_000,
    watchMarginMs: 1000,
    pollMs: 40,
    onEvent: (e) => void events.push(e),
  });
  const voidAdapter = new OmniVoidAdapter(h.acquirer.omni);
  const voids = new VoidEngine({
    expiryKey: TEST_EXPIRY_KEY,
    ...common,
    card: new SimulatedCardPort(),
    host: voidAdapter,
    supervisor: new SupervisorGate({ token: SUPERVISOR_TOKEN, passwordHash: () => SUPERVISOR_HASH }),
    tables: () => undefined,
    pixRefunds: o.pixRefunds ?? true,
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: new OmniDeliveryAdapter(h.acquirer.omni),
    pix,
    voids: voidAdapter,
    clock: systemClock,
    log,
    onSettled: (t, d) =>
      journal.get(t.journalId ?? -1)?.kind === 'void' ? voids.settled(t, d) : pixEngine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
    backoff: { baseMs: 20, maxMs: 60, minMs: 10 },
  });
  const pass = async (n = 1): Promise<void> => {
    for (let i = 0; i < n; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 70));
    }
  };
  /** A Pix sale created, paid at the sandbox and confirmed. */
  const paidPix = async (amount: number): Promise<number> => {
    const { entry, done } = await pixEngine.start({
      amount,
      payer: { name: 'Maria da Silva', document: '529.982.247-25' },
      confirmation: 'auto',
    });
    for (let i = 0; i < 500 && !(journal.get(entry.id)!.data as { paymentId?: string }).paymentId; i++)
      await new Promise((r) => setTimeout(r, 10));
    const paymentId = (journal.get(entry.id)!.data as { paymentId: string }).paymentId;
    expect((await h.control('POST', `/sandbox/pix/${paymentId}/pay`)).status).toBe(200);
    await done;
    expect(journal.get(entry.id)?.state).toBe('confirmed');
    return entry.id;
  };
  return { db, journal, outbox, voids, pass, paidPix };
}

const byToken = { supervisor: { token: SUPERVISOR_TOKEN } };

describe('refunds of Pix sales through the void engine, the outbox and the strict sandbox', () => {
  it('a confirmed Pix is refunded in full: refund asked, pending until the provider approves (host clock + 61 s), then done; the host holds nothing', async () => {
    const t = terminal();
    const saleId = await t.paidPix(2300);
    // two supervisors at once: one refund opens, the other is refused
    const both = await Promise.allSettled([t.voids.start(saleId, byToken), t.voids.start(saleId, byToken)]);
    expect(both.map((b) => b.status).sort()).toEqual(['fulfilled', 'rejected']);
    const entry = (both.find((b) => b.status === 'fulfilled') as PromiseFulfilledResult<{ entry: { id: number } }>)
      .value.entry;
    expect(t.journal.list().filter((e) => e.kind === 'void')).toHaveLength(1);
    expect(t.journal.get(entry.id)).toMatchObject({
      kind: 'void',
      state: 'refunding',
      amount: 2300,
      data: { sale: { kind: 'pix', id: saleId } },
    });
    expect(t.outbox.open().map((x) => x.operation)).toEqual(['pix.refund']);
    await t.pass(2);
    expect(t.journal.get(entry.id)?.state).toBe('refunding');
    expect(t.outbox.open()[0]?.payload).toMatchObject({ refundAsked: true });
    expect(t.voids.remaining(saleId)).toMatchObject({ voided: 2300, remaining: 0 });
    await h.control('POST', '/sandbox/clock', { advanceMs: 61_000 });
    await t.pass(2);
    expect(t.journal.transitions(entry.id).map((x) => x.to)).toEqual(['started', 'refunding', 'confirmed']);
    const mo = t.journal.get(saleId)!.merchantOrderId;
    expect((await h.ledger()).ecommerce.find((e) => e.merchantOrderId === mo)).toMatchObject({
      status: 11,
      refunded: 2300,
      charged: 0,
    });
    await expect(t.voids.start(saleId, byToken)).rejects.toMatchObject({ code: 'VOID_OVER_LIMIT' });
    t.db.close();
  });

  // The chaos run's stuck refund (`--cnp both`, seed 625799): its transport faults include the e-commerce
  // `PUT …/void` route, which a Pix refund shares with the card-not-present void. A request lost before the
  // host read it (`reset: before`) leaves the refund "maybe asked": never asked again (a second devolução could
  // give back twice; ecom:1927 "não é uma operação instantânea"), while the charge shows 2 (ecom:1788) for good.
  it.each([
    ['the answer lost after the host read it (drop)', { drop: true }, 11],
    ['the request lost before the host read it (reset before)', { reset: 'before' as const }, 2],
  ])('a refund whose %s: asked once, never again', async (_what, fault, hostStatus) => {
    const t = terminal();
    const saleId = await t.paidPix(1900);
    await h.fault('ecommerceSaleVoid', fault);
    const { entry } = await t.voids.start(saleId, byToken);
    await t.pass(3);
    await h.control('POST', '/sandbox/clock', { advanceMs: 61_000 });
    await t.pass(3);
    const mo = t.journal.get(saleId)!.merchantOrderId;
    const host = (await h.ledger()).ecommerce.find((e) => e.merchantOrderId === mo);
    expect(host).toMatchObject({ status: hostStatus });
    const state = t.journal.get(entry.id)?.state;
    if (hostStatus === 11) expect(state).toBe('confirmed');
    else {
      expect(state).toBe('refunding');
      expect(t.outbox.open()[0]?.payload).toMatchObject({ refundAsked: true, refundUnsure: true });
      expect(t.outbox.open()[0]?.lastError).toMatch(/its answer was lost/);
    }
    t.db.close();
  });

  // A devolução may be asked outside the terminal too (ecom:1942 "Via API E-commerce Cielo ou App Cielo
  // Gestão"), in part (ecom:1929). On 333e812 the sandbox showed the charge 11 once that part was approved,
  // and the terminal, reading 11 as "Estornado" (ecom:1789), ended its whole refund `confirmed` without
  // asking anything: the customer kept 600 charged while the terminal said all was given back.
  it('a Pix given back in part outside the terminal: its whole refund asks for the rest and ends only when the host holds nothing', async () => {
    const t = terminal();
    const saleId = await t.paidPix(1000);
    const paymentId = (t.journal.get(saleId)!.data as { paymentId: string }).paymentId;
    await expect(h.acquirer.ecommerce!.voidSale(paymentId, 400)).resolves.toMatchObject({ Status: 12 });
    await h.control('POST', '/sandbox/clock', { advanceMs: 61_000 });
    const { entry } = await t.voids.start(saleId, byToken);
    await t.pass(2);
    expect(t.journal.get(entry.id)?.state).toBe('refunding');
    expect(t.outbox.open()[0]?.payload).toMatchObject({ refundAsked: true });
    await h.control('POST', '/sandbox/clock', { advanceMs: 61_000 });
    await t.pass(2);
    expect(t.journal.get(entry.id)?.state).toBe('confirmed');
    const mo = t.journal.get(saleId)!.merchantOrderId;
    expect((await h.ledger()).ecommerce.find((e) => e.merchantOrderId === mo)).toMatchObject({
      status: 11,
      refunded: 1000,
      charged: 0,
    });
    t.db.close();
  });

  it('refused before anything is sent: a partial Pix refund, no supervisor, no e-commerce credentials', async () => {
    const t = terminal();
    const saleId = await t.paidPix(1800);
    await expect(t.voids.start(saleId, { ...byToken, amount: 900 })).rejects.toMatchObject({
      code: 'VOID_NOT_ALLOWED',
      message: expect.stringContaining('refunded in full'),
    });
    await expect(t.voids.start(saleId, { supervisor: {} })).rejects.toMatchObject({ code: 'SUPERVISOR_REQUIRED' });
    expect(t.outbox.open()).toEqual([]);
    t.db.close();
    const u = terminal({ pixRefunds: false });
    const other = await u.paidPix(1700);
    await expect(u.voids.start(other, byToken)).rejects.toMatchObject({
      code: 'VOID_NOT_ALLOWED',
      message: expect.stringContaining('e-commerce credentials'),
    });
    u.db.close();
  });
});
