import { PinpadCardPort, productResolver, type PinpadCardOptions } from '../../../src/adapters/pinpad-card.js';
import { saleRequest, type TerminalIdentity } from '../../../src/acquirer/omni/sale.js';
import type { CardRequest } from '../../../src/engine/ports.js';
import { parseInitialization, TableSet } from '../../../src/initialization/index.js';
import type { VirtualPinpadOptions } from '../../../src/sim/pinpad/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { nextOrderId, startHarness, type Harness } from '../../helpers/sandbox.js';
import { startRig, type Rig } from '../../helpers/pinpad-rig.js';

/** The sandbox merchant's terminal, with the virtual pinpad's serial number. */
export const TERMINAL: TerminalIdentity = {
  subordinatedMerchantId: SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
  terminalId: SANDBOX_MERCHANT.terminal.terminalId,
  pinpadSerial: 'VPP0000000001',
  physicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
  softDescriptor: 'OMNIPOS',
};

export interface CardSaleOptions {
  /** The virtual pinpad's options (its profile: classic-only, EBX…). */
  sim?: VirtualPinpadOptions;
  /** The card pinpad the port drives, made from the rig's driver and the downloaded tables (default: the driver). */
  pinpad?: (rig: Rig, set: TableSet) => PinpadCardOptions['pinpad'];
  /** Whether a stripe sale asks the PIN (read at each sale). */
  stripePin: () => boolean;
  log?: PinpadCardOptions['log'];
}

export interface CardSale {
  rig: Rig;
  h: Harness;
  set: TableSet;
  port: PinpadCardPort;
  /** Reads the card through the port and sends the sale to the sandbox host. */
  sell(
    amount: number,
    method?: CardRequest['method'],
  ): Promise<{
    read: Awaited<ReturnType<PinpadCardPort['readCard']>>;
    req: ReturnType<typeof saleRequest>;
    answer: { Payment: { Status: number; PaymentId: string; ReturnCode?: string } };
  }>;
  stop(): Promise<void>;
}

/**
 * The card port's sale suites' setup: the virtual pinpad behind a real pseudo-terminal, the driver,
 * the sandbox host over loopback HTTP, its initialization tables downloaded and the engine's card
 * port (PinpadCardPort) on them, acquirer table 03, PIN key slot 1, data key slot 2.
 */
export async function startCardSale(opts: CardSaleOptions): Promise<CardSale> {
  const rig = await startRig(opts.sim);
  const h = await startHarness();
  const set = new TableSet(
    parseInitialization(await h.acquirer.omni.initialization(TERMINAL.subordinatedMerchantId, TERMINAL.terminalId)),
  );
  const port = new PinpadCardPort({
    pinpad: opts.pinpad ? opts.pinpad(rig, set) : rig.pinpad,
    acquirerIndex: 3,
    pinKeySlot: 1,
    dataKeySlot: 2,
    resolveProduct: productResolver(set),
    stripePin: opts.stripePin,
    ...(opts.log ? { log: opts.log } : {}),
  });
  const sell: CardSale['sell'] = async (amount, method = 'credit') => {
    const merchantOrderId = nextOrderId();
    const read = await port.readCard({ merchantOrderId, amount, method }, new AbortController().signal);
    const req = saleRequest(
      {
        merchantOrderId,
        request: { amount, method, installments: 1, interest: 'ByMerchant', confirmation: 'auto' },
        summary: read.summary,
        card: read.card,
        paymentDateTime: new Date(),
      },
      TERMINAL,
    );
    const answer = (await h.acquirer.omni.createSale(req)) as Awaited<ReturnType<CardSale['sell']>>['answer'];
    return { read, req, answer };
  };
  return {
    rig,
    h,
    set,
    port,
    sell,
    stop: async () => {
      await rig.stop();
      await h.close();
    },
  };
}
