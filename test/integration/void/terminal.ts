import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { OmniSaleAdapter, type TerminalIdentity } from '../../../src/acquirer/omni/sale.js';
import { OmniVoidAdapter } from '../../../src/acquirer/omni/voids.js';
import { PinpadCardPort, productResolver, type CardPinpad } from '../../../src/adapters/pinpad-card.js';
import { refundCardPort } from '../../../src/adapters/pinpad-card-refund.js';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { systemClock, type Clock } from '../../../src/core/clock.js';
import type { Logger } from '../../../src/core/log/index.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import { PaymentLock } from '../../../src/engine/payment-lock.js';
import { SaleEngine } from '../../../src/engine/sale/engine.js';
import type { SaleRequest } from '../../../src/engine/sale/types.js';
import { VoidEngine, type VoidEvent } from '../../../src/engine/void/engine.js';
import type { VoidHostPort } from '../../../src/engine/void/ports.js';
import type { CardPort } from '../../../src/engine/ports.js';
import { SupervisorGate, hashSupervisorPassword } from '../../../src/engine/void/supervisor.js';
import type { TableSet } from '../../../src/initialization/index.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase, type Db } from '../../../src/store/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import type { Harness } from '../../helpers/sandbox.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';

export const IDENTITY: TerminalIdentity = {
  subordinatedMerchantId: SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
  terminalId: SANDBOX_MERCHANT.terminal.terminalId,
  pinpadSerial: 'VIRT00000001',
  physicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
  softDescriptor: 'OMNIPOS',
};

export const SUPERVISOR_TOKEN = 'supervisor-token-for-the-void-tests-0123456789';
export const SUPERVISOR_PASSWORD = 'caixa2468';
/** Hashed once: scrypt costs tens of milliseconds. */
export const SUPERVISOR_HASH = hashSupervisorPassword(SUPERVISOR_PASSWORD);

/**
 * How long `settle` delivers: until at most `open` tasks are pending (0), in at most `rounds` passes (300, enough
 * for every task that can end). A test that leaves a task open on purpose (an undo found nowhere before the close)
 * says so with `open`, and gives the pass that must leave it open a few `rounds`, not 300 of ~30 ms each.
 */
export interface Settle {
  rounds?: number;
  open?: number;
}

export interface Terminal {
  db: Db;
  journal: Journal;
  outbox: Outbox;
  sales: SaleEngine;
  voids: VoidEngine;
  events: VoidEvent[];
  /** Sells with the virtual pinpad and waits for the confirmation: returns the sale's journal id. */
  sell(amount: number, settle?: Settle): Promise<number>;
  /** Delivers the outbox until no more than `settle.open` tasks are pending (none by default), bounded. */
  settle(settle?: Settle): Promise<void>;
  close(): void;
}

/**
 * A terminal of real parts: SQLite on a file, the sale and void engines, the outbox forwarder,
 * the acquirer clients over loopback to the strict sandbox, and the card ports on the driver
 * talking to the virtual pinpad over a pseudo-terminal.
 */
export function voidTerminal(o: {
  dir: string;
  h: Harness;
  pinpad: CardPinpad;
  tables: TableSet;
  log: Logger;
  clock?: Clock;
  voidClock?: Clock;
  voidHost?: VoidHostPort;
  processingWindowMs?: number;
  voidCard?: (port: CardPort) => CardPort;
}): Terminal {
  const clock = o.clock ?? systemClock;
  const db = openTerminalDatabase(o.dir, o.log);
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const orderIds = new MerchantOrderIds(db, { ordinal: 7, clock });
  const events: VoidEvent[] = [];
  const common = {
    db,
    journal,
    outbox,
    log: o.log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
    receipt: new TextReceiptPrinter(),
  };
  const cardOptions = {
    pinpad: o.pinpad,
    acquirerIndex: 3,
    pinKeySlot: 1,
    dataKeySlot: 2,
    resolveProduct: productResolver(o.tables),
  };
  // One payment at a time: the sale and void engines share the terminal's one lock, as in the daemon.
  const lock = new PaymentLock();
  const sales = new SaleEngine({
    expiryKey: TEST_EXPIRY_KEY,
    ...common,
    clock,
    orderIds,
    card: new PinpadCardPort(cardOptions),
    host: new OmniSaleAdapter(o.h.acquirer.omni, IDENTITY),
    lock,
  });
  const voidAdapter = new OmniVoidAdapter(o.h.acquirer.omni);
  const v = new VoidEngine({
    expiryKey: TEST_EXPIRY_KEY,
    ...common,
    clock: o.voidClock ?? clock,
    orderIds,
    card: o.voidCard ? o.voidCard(refundCardPort(cardOptions)) : refundCardPort(cardOptions),
    host: o.voidHost ?? voidAdapter,
    supervisor: new SupervisorGate({ token: SUPERVISOR_TOKEN, passwordHash: () => SUPERVISOR_HASH }),
    tables: () => o.tables,
    lock,
    onEvent: (e) => void events.push(e),
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox,
    port: new OmniDeliveryAdapter(o.h.acquirer.omni),
    voids: voidAdapter,
    clock,
    log: o.log,
    onSettled: (t, d) => {
      const kind = journal.get(t.journalId ?? -1)?.kind;
      if (kind === 'void') v.settled(t, d);
      else sales.settled(t, d);
    },
    undoRace: { processingWindowMs: o.processingWindowMs ?? 300 },
    backoff: { baseMs: 20, maxMs: 100, minMs: 10 },
  });
  const settle = async ({ rounds = 300, open = 0 }: Settle = {}): Promise<void> => {
    for (let i = 0; i < rounds && outbox.depth().pending > open; i++) {
      await forwarder.runOnce();
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const credit = (amount: number): SaleRequest => ({
    amount,
    method: 'credit',
    installments: 1,
    interest: 'ByMerchant',
    confirmation: 'auto',
  });
  return {
    db,
    journal,
    outbox,
    sales,
    voids: v,
    events,
    async sell(amount, o) {
      const { entry, done } = await sales.start(credit(amount));
      await done;
      await settle(o);
      const state = journal.get(entry.id)?.state;
      if (state !== 'confirmed')
        throw new Error(
          `sale ${entry.id} ended ${String(state)}: ${JSON.stringify(journal.get(entry.id)?.data.reason)}`,
        );
      return entry.id;
    },
    settle,
    close: () => {
      sales.stop();
      v.stop();
      db.close();
    },
  };
}
