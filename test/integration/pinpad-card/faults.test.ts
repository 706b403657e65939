import { afterEach, describe, expect, it } from 'vitest';
import { card } from '../../../drivers/pinpad/index.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import records from '../../vectors/initialization/abecs-4.1-records.json' with { type: 'json' };
import { HAS_SOCAT } from '../../helpers/socat.js';
import { now, startRig, statusOf as code, type Rig } from '../../helpers/pinpad-rig.js';

const until = async (pred: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** The version GIX reports for a network (PP_TABVERnn). */
async function tableVersion(rig: Rig, acq: number): Promise<string | undefined> {
  const r = await rig.pinpad.gix([0x9300 + acq]);
  const v = r.data[`PP_TABVER${String(acq).padStart(2, '0')}`];
  return typeof v === 'string' ? v : undefined;
}

describe.skipIf(!HAS_SOCAT)('card commands under faults, over a pseudo-terminal', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.stop();
    rig = undefined;
  });

  it('a table load cut before TLE (the cable pulled) leaves the old tables in force; a whole load replaces them', async () => {
    rig = await startRig();
    const r = rig;
    expect(await tableVersion(r, 3)).toBe('0000000000'); // the factory tables
    // network 02: the §4.1.1 Mastercard record (TAB_ACQ 02, "MC") under a new version, cut before TLE
    expect(await card.startTableLoad(r.pinpad, { acquirer: '02', version: 'V000000001' })).toEqual({
      versionDiffers: true,
    });
    await r.pinpad.run(card.TLR, { records: [records.aid340.record] });
    await r.sim.unplug(300);
    // the terminal finds out on its next command and reconnects (CAN, OPN)
    const end = Date.now() + 10_000;
    let version: string | undefined = 'failed';
    while (version === 'failed' && Date.now() < end) {
      version = await tableVersion(r, 2).catch(() => 'failed' as const);
      if (version === 'failed') await new Promise((res) => setTimeout(res, 100));
    }
    expect(r.sim.plugs).toMatchObject({ unplugged: 1, replugged: 1 });
    expect(version).toBeUndefined();
    expect(
      cardSim(r.sim.engine.state)
        .tables.aidRecords('A0000000041010')
        .map((x) => x.acquirer),
    ).toEqual(['03']);
    // TLE without a TLI of its own is refused
    expect(await code(r.pinpad.run(card.TLE, undefined))).toBe(10);
    // a whole load
    await card.loadTables(r.pinpad, { acquirer: '02', version: 'V000000001', blocks: [`01${records.aid340.record}`] });
    expect(await tableVersion(r, 2)).toBe('V000000001');
    expect(await card.startTableLoad(r.pinpad, { acquirer: '02', version: 'V000000001' })).toEqual({
      versionDiffers: false,
    });
    await r.pinpad.run(card.TLE, undefined); // TLE with no TLR: the network's tables are erased (§3.5.4)
    expect(
      cardSim(r.sim.engine.state)
        .tables.aidRecords('A0000000041010')
        .map((x) => x.acquirer),
    ).toEqual(['03']);
    // a TLR without TLI
    expect(await code(r.pinpad.run(card.TLR, { records: [records.aid340.record] }))).toBe(10);
  }, 30_000);

  it('the pinpad unplugged during GOX (PIN entry): the call fails PINPAD_DISCONNECTED, the driver reconnects, a new read works', async () => {
    rig = await startRig();
    const r = rig;
    r.choose({ lastDigit: 0, via: 'chip', pin: 'nothing' });
    await r.pinpad.run(card.GCX, { amount: 100, ...now(), acquirer: '03', contactless: true });
    const pending = code(r.pinpad.run(card.GOX, { acquirer: '03', amount: 100, pinKeyIndex: 1 }));
    // The cable goes once the pinpad holds GOX (a fixed 200 ms was not enough under load: the GOX then met the
    // pinpad after the replug, and the call never saw a disconnection).
    await until(() => r.sim.engine.state.received.at(-1) === 'GOX');
    await r.sim.unplug(300);
    expect(await pending).toBe('PINPAD_DISCONNECTED');
    await until(() => r.pinpad.status === 'connected', 10_000);
    r.choose({ pin: 'right' });
    // the card the pinpad held is gone with the power: GOX is out of order until a new GCX
    expect(await code(r.pinpad.run(card.GOX, { acquirer: '03', amount: 100, pinKeyIndex: 1 }))).toBe(10);
    const read = await r.pinpad.run(card.GCX, { amount: 100, ...now(), acquirer: '03', contactless: true });
    expect(read.cardType).toBe('chip');
  }, 30_000);
});
