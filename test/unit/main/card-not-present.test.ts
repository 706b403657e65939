import { describe, expect, it } from 'vitest';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { loadConfig, type Config } from '../../../src/config/index.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { acquirerBackend, omniClientsOf, type BackendWiring } from '../../../src/factory/index.js';
import { startCardNotPresent } from '../../../src/main/card-not-present.js';
import { Held } from '../../../src/main/held.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { omniSecretsOf } from '../../helpers/omni-config.js';

/** The daemon reads `cardNotPresent` (a union by kind) and builds its kind's backend and engine, or none. */
const tempDir = useTempDirs();
const log = createLogger({ level: 'silent' });

const config = (extra: Record<string, string> = {}): Config =>
  loadConfig({ env: { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: tempDir(), ...extra } });

function engineDeps() {
  const db = openTerminalDatabase(tempDir());
  return {
    db,
    journal: new Journal(db),
    outbox: new Outbox(db),
    orderIds: new MerchantOrderIds(db, { ordinal: 1, clock: systemClock }),
    receipt: new TextReceiptPrinter(),
    clock: systemClock,
    log,
    attended: true,
    ecrDecisionMs: 60_000,
    closeMarginMs: 60_000,
  };
}

function backendWiring(): BackendWiring {
  const db = openTerminalDatabase(tempDir());
  return {
    clock: systemClock,
    log,
    terminal: {
      terminalId: '12345678',
      subordinatedMerchantId: '1234567890',
      pinpadSerial: '',
      physicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
      softDescriptor: 'LOJA',
    },
    onTablesVersion: () => undefined,
    db,
    journal: new Journal(db),
  };
}

describe('cardNotPresent in the daemon', () => {
  it('absent (the default): no backend, no engine', async () => {
    const held = new Held(log);
    expect(startCardNotPresent(held, config(), { log }, engineDeps())).toBeUndefined();
    await held.closeAll();
  });

  it("kind ecommerce: built on the acquirer backend's own e-commerce client, no second set", async () => {
    const held = new Held(log);
    const c = config({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' });
    const open = acquirerBackend(c, backendWiring());
    expect(open.cardNotPresent?.ecommerce).toBeDefined();
    const client = omniClientsOf(open.backend).ecommerce;
    const cnp = startCardNotPresent(held, c, { log, offers: open.cardNotPresent }, engineDeps());
    expect(cnp?.engine).toBeDefined();
    expect(typeof cnp?.delivery.queryByOrderId).toBe('function');
    // Closing the card-not-present parts leaves the backend's e-commerce client (Pix, QR) open: it is not theirs.
    await held.closeAll();
    expect(omniClientsOf(open.backend).ecommerce).toBe(client);
    await open.close();
  });

  it('kind ecommerce without the e-commerce credentials is CONFIG_INVALID, naming the keys', () => {
    const c = config({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' });
    const without: Config = {
      ...c,
      secrets: { acquirer: { kind: 'omni', omni: { clientSecret: omniSecretsOf(c).clientSecret } } },
    };
    const open = acquirerBackend(without, backendWiring());
    expect(open.cardNotPresent?.ecommerce).toBeUndefined();
    expect(() =>
      startCardNotPresent(new Held(log), without, { log, offers: open.cardNotPresent }, engineDeps()),
    ).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('acquirer.omni.merchantId') }),
    );
    return open.close();
  });

  it('a kind this build does not have is refused by the configuration', () => {
    expect(() => config({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'telepathy' })).toThrow(/cardNotPresent/);
  });
});
