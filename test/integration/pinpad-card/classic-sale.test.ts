/**
 * A pinpad that answers only the classic commands (ABECS 2.20 §3.2.2: OPN answered as an obsolete
 * pinpad, or GCX answered ERR010, §2.3.4), behind a real pseudo-terminal. Such a pinpad takes no Abecs
 * command — EBX neither (§3.1.3) — and its own card read, GCR, gives the track in clear (§3.6.1): the
 * card port refuses card sales on it by name, before any card is asked and before any Abecs command is
 * probed; display, information and the classic commands themselves still run.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, isPinpadError } from '../../../drivers/pinpad/index.js';
import { loadPinpadKey } from '../../../src/adapters/pinpad-keys.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import { PinpadCardPort } from '../../../src/adapters/pinpad-card.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { nextOrderId } from '../../helpers/sandbox.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { FAST, startRig, type Rig } from '../../helpers/pinpad-rig.js';
import { connectSecurePinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';

/** What refused card sales on a classic pinpad look like: by name, with the reason. */
const REFUSED = {
  code: 'PINPAD_UNSUPPORTED',
  message: expect.stringMatching(/no Abecs command.*no EBX.*GCR gives the track in clear/),
};
/** No card asked and no Abecs command sent: only the classic OPN/GIN/DSP a classic pinpad takes. */
// DEX is left out: ABECS 2.20's table does not tick it an Abecs command (see the first test)
const ABECS_OR_CARD = ['GCX', 'EBX', 'GCR', 'GTS', 'GOC', 'GTK', 'GOX', 'GPN', 'GCD', 'MNU'];

const readCard = (port: PinpadCardPort): Promise<unknown> =>
  port.readCard({ merchantOrderId: nextOrderId(), amount: 1500, method: 'credit' }, new AbortController().signal).then(
    () => null,
    (x: unknown) => x,
  );

describe.skipIf(!HAS_SOCAT)('a classic-only pinpad on the plain driver (it answers GCX with ERR010)', () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig({ profile: { classicOnly: true } });
  }, 30_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it('is refused card sales by name after its ERR010 to GCX: no EBX probed, no GCR, no card asked', async () => {
    const port = new PinpadCardPort({
      pinpad: new card.ClassicCardPinpad(rig.pinpad),
      acquirerIndex: 3,
      pinKeySlot: 1,
      dataKeySlot: 2,
    });
    rig.choose({ lastDigit: 0, via: 'chip' });
    const from = rig.sim.engine.state.received.length;
    expect(await readCard(port)).toMatchObject(REFUSED);
    expect(await readCard(port)).toMatchObject(REFUSED); // known classic now: nothing is even tried
    expect(rig.sim.engine.state.received.slice(from)).toEqual(['GCX']); // the one current command that told
  });

  it("CKE (§3.3.3): the driver reads the virtual pinpad's swipe event (tracks masked) and a key", async () => {
    const c = TEST_CARDS.find((x) => x.pin === '4321')!;
    rig.choose({ pan: c.pan, via: 'stripe' });
    const r = await rig.pinpad.run(card.CKE, { key: true, stripe: true, chip: 'insert', contactless: false });
    expect(r.event).toBe('stripe');
    if (r.event === 'stripe') {
      expect(r.maskedPan).toMatch(/^\d{8}\*+\d{4}$/);
      r.clear.wipe();
    }
    expect(JSON.stringify(r)).not.toContain(c.pan);
    rig.choose({ action: 'cancel' });
    expect(await rig.pinpad.run(card.CKE, { key: true })).toEqual({ event: 'key', key: '13' });
  });

  it('nothing the driver logged holds a clear PAN or track', () => {
    const all = rig.logs.join('\n');
    for (const c of TEST_CARDS) expect(all).not.toContain(c.pan);
    expect(card.holdsClearPan(all)).toBe(false);
  });
});

describe.skipIf(!HAS_SOCAT)(
  'the secure driver, an obsolete pinpad and the obsolete card commands (§3.1.2, §3.2.2)',
  () => {
    const tempDir = tempDirForFile('omnipos-classic-');
    const stops: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const s of stops.reverse()) await s();
    });
    let n = 0;
    async function secureOn(profile: { classicOnly?: boolean }) {
      const dir = path.join(tempDir, `pinpad-${++n}`);
      mkdirSync(dir);
      const pty = path.join(dir, 'pinpad');
      const sim = await startVirtualPinpad({ tcpPort: 0, ptyPath: pty, profile });
      const pinpad = await connectSecurePinpad({ pty }, loadPinpadKey(path.join(dir, 'state')).key, {
        timings: FAST,
        probeIntervalMs: 0,
      });
      stops.push(async () => {
        await pinpad.close();
        await sim.stop();
      });
      return { sim, pinpad };
    }

    it('a pinpad recognised as obsolete by its OPN answer is sent no Abecs command: card sales refused by name, nothing probed', async () => {
      const { sim, pinpad } = await secureOn({ classicOnly: true });
      expect(pinpad.secure.recognition).toBe('classic');
      const p = new card.ClassicCardPinpad(pinpad);
      expect(p.classic).toBe(true);
      cardSim(sim.engine.state).deck.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
      const port = new PinpadCardPort({ pinpad: p, acquirerIndex: 3, pinKeySlot: 1, dataKeySlot: 2 });
      expect(await readCard(port)).toMatchObject(REFUSED);
      // an Abecs command is refused before the wire (§3.2.2), EBX as much as GCX
      for (const spec of [card.EBX, card.GCX] as const) {
        const e = await pinpad.run(spec as never, {} as never).then(
          () => null,
          (x: unknown) => x,
        );
        expect(isPinpadError(e, 'PINPAD_UNSUPPORTED')).toBe(true);
      }
      // DEX is not ticked an Abecs command in 2.20's table: BibComp has it (§3.1.3), a classic pinpad shows it
      await pinpad.displayEx('SO CLASSICO');
      expect(sim.engine.state.display).toEqual(['SO CLASSICO']);
      // what a classic pinpad takes still runs: information (GIN) and the 2x16 display
      expect((await pinpad.info()).source).toBe('GIN');
      await pinpad.display(['SO CONSULTA', '']);
      expect(sim.engine.state.display).toEqual(['SO CONSULTA', '']);
      expect(sim.engine.state.received.filter((id) => ABECS_OR_CARD.includes(id))).toEqual([]);
    });

    it('a current pinpad is never sent an obsolete card command: GCR refused before the wire', async () => {
      const { sim, pinpad } = await secureOn({});
      expect(pinpad.secure.recognition).toBe('abecs');
      const e = await pinpad.run(card.GCR, { again: true }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(isPinpadError(e, 'PINPAD_UNSUPPORTED')).toBe(true);
      expect(sim.engine.state.received).not.toContain('GCR');
    });
  },
);
