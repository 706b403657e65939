import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, type SecurePinpad } from '../../../drivers/pinpad/index.js';
import { loadPinpadKey } from '../../../src/adapters/pinpad-keys.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { FAST, freshIv, hostDecrypt, hostPin, now } from '../../helpers/pinpad-rig.js';
import { connectSecurePinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';

describe.skipIf(!HAS_SOCAT)('a chip sale over the secure channel (DC2 + AES under KSEC) on a pseudo-terminal', () => {
  let sim: VirtualPinpad;
  let pinpad: SecurePinpad;
  const dir = tempDirForFile('omnipos-card-secure-');
  beforeAll(async () => {
    const pty = path.join(dir, 'pinpad');
    sim = await startVirtualPinpad({ tcpPort: 0, ptyPath: pty });
    pinpad = await connectSecurePinpad({ pty }, loadPinpadKey(path.join(dir, 'state')).key, {
      timings: FAST,
      probeIntervalMs: 0,
    });
  }, 30_000);
  afterAll(async () => {
    await pinpad?.close();
    await sim?.stop();
  });

  it('GCX → GTK → GOX → FCX → RMC travel sealed; the track and PIN still decrypt at the host', async () => {
    expect(pinpad.secure).toMatchObject({ recognition: 'abecs', secure: true });
    const c = TEST_CARDS[0]!;
    cardSim(sim.engine.state).deck.choose({ pan: c.pan, via: 'chip', pin: 'right' });
    const read = await pinpad.run(card.GCX, { amount: 1000, ...now(), acquirer: '03', contactless: true });
    expect(read.maskedPan).toBe(`${c.pan.slice(0, 8)}****${c.pan.slice(-4)}`);
    const enc = await pinpad.run(card.GTK, { keyIndex: 2, iv: freshIv() });
    expect(
      hostDecrypt(enc.track2!.data, enc.track2!.ksn, enc.iv)
        .toString('hex')
        .toUpperCase()
        .startsWith(c.track2.replace('=', 'D')),
    ).toBe(true);
    const gox = await pinpad.run(card.GOX, { acquirer: '03', amount: 1000, pinKeyIndex: 1, tags: ['9F26', '9F27'] });
    expect(hostPin(gox.pinBlock!.block, gox.pinBlock!.ksn, c.pan)).toBe(c.pin);
    expect((await pinpad.run(card.FCX, { outcome: 'approved', arc: '00' })).decision).toBe('approved');
    await pinpad.run(card.RMC, 'FIM');
    expect(sim.engine.state.received.slice(-5)).toEqual(['GCX', 'GTK', 'GOX', 'FCX', 'RMC']);
  });
});
