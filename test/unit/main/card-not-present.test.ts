import { describe, expect, it } from 'vitest';
import { TextReceiptPrinter } from '../../../src/adapters/text-receipt.js';
import { loadConfig, type Config } from '../../../src/config/index.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startCardNotPresent } from '../../../src/main/card-not-present.js';
import { Held } from '../../../src/main/held.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

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

describe('cardNotPresent in the daemon', () => {
  it('absent (the default): no backend, no engine', async () => {
    const held = new Held(log);
    expect(startCardNotPresent(held, config(), { clock: systemClock, log }, engineDeps())).toBeUndefined();
    await held.closeAll();
  });

  it('kind ecommerce: the e-commerce backend and its delivery port, the engine built on it', async () => {
    const held = new Held(log);
    const cnp = startCardNotPresent(
      held,
      config({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' }),
      { clock: systemClock, log },
      engineDeps(),
    );
    expect(cnp?.engine).toBeDefined();
    expect(typeof cnp?.delivery.queryByOrderId).toBe('function');
    await held.closeAll();
  });

  it('kind ecommerce without the e-commerce credentials is CONFIG_INVALID, naming the keys', () => {
    const c = config({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' });
    const without: Config = { ...c, secrets: { clientSecret: c.secrets.clientSecret } };
    expect(() => startCardNotPresent(new Held(log), without, { clock: systemClock, log }, engineDeps())).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('acquirer.omni.merchantId') }),
    );
  });

  it('a kind this build does not have is refused by the configuration', () => {
    expect(() => config({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'telepathy' })).toThrow(/cardNotPresent/);
  });
});
