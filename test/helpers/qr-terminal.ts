import { OmniDeliveryAdapter } from '../../src/acquirer/omni/delivery.js';
import { TextReceiptPrinter } from '../../src/adapters/text-receipt.js';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { OutboxForwarder } from '../../src/engine/outbox/forwarder.js';
import type { AcquirerDeliveryPort } from '../../src/engine/ports.js';
import type { QrCodePort, QrDisplayPort } from '../../src/engine/qr/code-port.js';
import { QrEngine, type QrEvent } from '../../src/engine/qr/engine.js';
import type { QrSaleRequest } from '../../src/engine/qr/types.js';
import type { MerchantProfile } from '../../src/engine/qr/code.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase, type Db } from '../../src/store/index.js';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { log, type Harness } from './sandbox.js';

/** The sandbox's merchant as the terminal's QR code names it. */
export const SANDBOX_PROFILE = {
  merchantNumber: SANDBOX_MERCHANT.merchant.merchantNumber,
  terminalId: SANDBOX_MERCHANT.terminal.terminalId,
  nationalId: SANDBOX_MERCHANT.merchant.nationalId,
  mcc: SANDBOX_MERCHANT.merchant.mcc,
  name: SANDBOX_MERCHANT.merchant.name,
  city: SANDBOX_MERCHANT.merchant.city,
  postalCode: SANDBOX_MERCHANT.merchant.postalCode,
  deviceType: 'P' as const,
};

/** What every engine owner takes in these tests (60 s codes, fast polls, a text receipt). */
export function ownerDeps(db: Db, ordinal: number) {
  return {
    db,
    journal: new Journal(db),
    outbox: new Outbox(db),
    orderIds: new MerchantOrderIds(db, { ordinal, clock: systemClock }),
    receipt: new TextReceiptPrinter(),
    clock: systemClock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
    validityMs: 60_000,
    watchMarginMs: 500,
    pollMs: 40,
  };
}

export interface QrTerminal {
  db: Db;
  journal: Journal;
  outbox: Outbox;
  engine: QrEngine;
  events: QrEvent[];
  /** Runs the outbox until it is empty (at most ~6 s). */
  settle(): Promise<void>;
  /** One pass of the outbox. */
  runOnce(): Promise<number>;
}

/**
 * A wallet QR terminal on a state directory against the harness's sandbox: the QR engine with the
 * given delivery port (default the omni adapter), code adapter (default the terminal's own) and
 * display, and an outbox forwarder on the same port.
 */
export function qrTerminal(
  h: Harness,
  stateDir: string,
  o: {
    ordinal: number;
    host?: AcquirerDeliveryPort;
    codes?: QrCodePort;
    display?: QrDisplayPort;
    db?: Db;
    /** The merchant the terminal's own codes name (default the sandbox's first merchant). */
    merchant?: MerchantProfile;
    /** The outbox forwarder's clock (default the system's): a test moves it past the daily close. */
    outboxClock?: Clock;
  },
): QrTerminal {
  const db = o.db ?? openTerminalDatabase(stateDir);
  const deps = ownerDeps(db, o.ordinal);
  const events: QrEvent[] = [];
  const port = o.host ?? new OmniDeliveryAdapter(h.acquirer.omni);
  const engine = new QrEngine({
    ...deps,
    host: port,
    ...(o.codes ? { codes: o.codes } : { merchant: o.merchant ?? SANDBOX_PROFILE }),
    ...(o.display ? { display: o.display } : {}),
    onEvent: (e) => void events.push(e),
  });
  const forwarder = new OutboxForwarder({
    db,
    outbox: deps.outbox,
    port,
    clock: o.outboxClock ?? systemClock,
    log,
    onSettled: (t, d) => engine.settled(t, d),
    undoRace: { processingWindowMs: 1000 },
    backoff: { baseMs: 20, maxMs: 100, minMs: 10 },
  });
  return {
    db,
    journal: deps.journal,
    outbox: deps.outbox,
    engine,
    events,
    runOnce: () => forwarder.runOnce(),
    async settle() {
      for (let i = 0; i < 300 && deps.outbox.depth().pending > 0; i++) {
        await forwarder.runOnce();
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

/** A counter sale, credit, confirmed by the terminal once the receipt is out. */
export const qrSaleRequest = (amount: number, installments = 1): QrSaleRequest => ({
  amount,
  method: 'credit',
  installments,
  interest: 'ByMerchant',
  confirmation: 'auto',
});

/** The code the engine showed. */
export const shownCode = (events: readonly QrEvent[]): string =>
  (events.find((e) => e.type === 'qr') as Extract<QrEvent, { type: 'qr' }>).qrCode;
