import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SimulatedCardPort } from '../../src/adapters/simulated-card.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/log/index.js';
import { OutboxForwarder } from '../../src/engine/outbox/forwarder.js';
import type { AcquirerDeliveryPort, CardPort, SaleAuthorizationPort } from '../../src/engine/ports.js';
import { SaleEngine } from '../../src/engine/sale/engine.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase, type Db } from '../../src/store/index.js';
import { TEST_EXPIRY_KEY } from './store.js';

/** Told when the engine calls a device or the host (`call`) and when the answer is back (`back`). */
export type PortWatch = (port: PortName, moment: 'call' | 'back') => void;
export type PortName = 'card' | 'host' | 'chip' | 'printer' | 'delivery';

/** The port's answer, with the watch told of the call and of the answer. */
function watched<T>(watch: PortWatch | undefined, port: PortName, answer: () => Promise<T>): Promise<T> {
  if (!watch) return answer();
  watch(port, 'call');
  return answer().then((v) => {
    watch(port, 'back');
    return v;
  });
}

/**
 * A terminal whose devices and host answer at once (the engine's own cost, plus the journal's
 * commits): one card read encrypted once and replayed, a host that approves, a printer that
 * prints, an outbox that delivers. `watch` hears each device and host call (the sale bench's
 * step times).
 */
export async function instantTerminal(dir = mkdtempSync(path.join(tmpdir(), 'omnipos-bench-')), watch?: PortWatch) {
  const read = await new SimulatedCardPort().readCard(
    { merchantOrderId: '1', amount: 1, method: 'credit' },
    new AbortController().signal,
  );
  const card: CardPort = {
    readCard: () => watched(watch, 'card', () => Promise.resolve(read)),
    finishChip: () => watched(watch, 'chip', () => Promise.resolve({ card: 'approved', emv: { '9F27': '40' } })),
    end: () => Promise.resolve(),
  };
  let n = 0;
  const host: SaleAuthorizationPort = {
    authorize: () =>
      watched(watch, 'host', () =>
        Promise.resolve({ kind: 'approved', paymentId: `p-${++n}`, authorizationCode: '123456' } as const),
      ),
  };
  const delivery: AcquirerDeliveryPort = {
    confirm: () => watched(watch, 'delivery', () => Promise.resolve({ action: 'done', reason: 'confirmed' } as const)),
    undo: () => Promise.resolve({ action: 'done', reason: 'undone' }),
    undoByOrderId: () => Promise.resolve({ action: 'done', reason: 'undone' }),
    queryByOrderId: () => Promise.resolve({ kind: 'not-found' }),
  };
  let offset = 0;
  const idClock = { now: () => new Date(Date.now() + offset) };
  const db: Db = openTerminalDatabase(dir);
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const log = createLogger({ level: 'silent' });
  const engine = new SaleEngine({
    expiryKey: TEST_EXPIRY_KEY,
    db,
    journal,
    outbox,
    // Ids are paced at ten a second by design; the bench moves the ids' clock instead of waiting.
    orderIds: new MerchantOrderIds(db, {
      ordinal: 1,
      clock: idClock,
      wait: (ms) => Promise.resolve(void (offset += ms)),
    }),
    card,
    host,
    receipt: { print: () => watched(watch, 'printer', () => Promise.resolve('printed' as const)) },
    clock: systemClock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: delivery,
    clock: systemClock,
    log,
    onSettled: (t, d) => engine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
  });
  /** One whole sale: journal, card, host, chip, receipt, confirmation delivered. */
  const sale = async (): Promise<void> => {
    const { done } = await engine.start({
      amount: 1010,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: 'auto',
    });
    await done;
    await forwarder.runOnce();
  };
  return { db, journal, engine, sale, dir };
}
