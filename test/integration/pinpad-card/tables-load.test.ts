import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PinpadTablesAdapter } from '../../../src/adapters/pinpad-tables.js';
import { createLogger } from '../../../src/core/log/index.js';
import { initialize, InitializationStore } from '../../../src/initialization/index.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { useTempStores } from '../../helpers/store.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startRig, type Rig } from '../../helpers/pinpad-rig.js';

const tempStore = useTempStores();
const log = createLogger({ level: 'silent' });

describe.skipIf(!HAS_SOCAT)('initialize() loads the virtual pinpad through TLI/TLR/TLE over a pseudo-terminal', () => {
  let h: Harness;
  let rig: Rig;
  beforeAll(async () => {
    h = await startHarness();
    rig = await startRig();
  }, 30_000);
  afterAll(async () => {
    await rig?.stop();
    await h?.close();
  });

  it('loads the sandbox tables once (version from GIX), a second run finds the pinpad up to date', async () => {
    const db = tempStore();
    const store = new InitializationStore(db, { now: () => new Date() });
    const source = {
      download: () =>
        h.acquirer.omni.initialization(
          SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
          SANDBOX_MERCHANT.terminal.terminalId,
        ),
    };
    const pinpad = new PinpadTablesAdapter(rig.pinpad);
    expect(await pinpad.tableVersion('03')).toBeUndefined(); // factory tables carry no version
    rig.sim.engine.state.received.length = 0;
    const first = await initialize({ source, store, pinpad, log });
    expect(first.pinpad).toBe('loaded');
    const received = rig.sim.engine.state.received;
    expect(received[0]).toBe('GIX');
    expect(received.slice(1, 2)).toEqual(['TLI']);
    expect(received.at(-1)).toBe('TLE');
    expect(received.filter((c) => c === 'TLR').length).toBeGreaterThan(1);
    expect(await pinpad.tableVersion('03')).toBe(first.version.slice(-10));
    const sim = cardSim(rig.sim.engine.state);
    expect(sim.tables.aidRecords('A0000000041010').map((r) => r.acquirer + r.index)).toEqual(['0303']);
    const again = await initialize({ source, store, pinpad, log });
    expect(again.pinpad).toBe('up-to-date');
    db.close();
  }, 30_000);
});
