import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, isPinpadError, type SecurePinpad } from '../../../drivers/pinpad/index.js';
import { loadPinpadKey } from '../../../src/adapters/pinpad-keys.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { startLineCapture, type LineCapture } from '../../helpers/line-capture.js';
import { FAST, freshIv, now } from '../../helpers/pinpad-rig.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { connectSecurePinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const DC2 = 0x12;
/** A typed card number (GCD prompt 32h, "DIGITE NÚMERO DO CARTÃO"): the digits must never cross the line in clear. */
const TYPED_PAN = TEST_CARDS[0]!.pan;

/**
 * The secure channel when the pinpad reboots with the line up (ABECS 2.20 §5.2.2, §6.3.2): the session
 * is gone on the pinpad's side, the terminal's next sealed packet is answered ERR003 while more commands
 * wait. Read on the cable (a real TCP hop that keeps every byte): no command but OPN leaves in clear, no
 * clear answer carries card data, and each waiting command runs on the new session or fails by name.
 */
describe('secure channel: the pinpad reboots with the line up while commands wait', () => {
  const dir = tempDirForFile('omnipos-secure-reboot-');
  let sim: VirtualPinpad;
  let line: LineCapture;
  let pinpad: SecurePinpad;

  beforeAll(async () => {
    sim = await startVirtualPinpad({ tcpPort: 0, typingMs: null });
    line = await startLineCapture(sim.port);
    pinpad = await connectSecurePinpad({ port: line.port }, loadPinpadKey(path.join(dir, 'state')).key, {
      timings: FAST,
      probeIntervalMs: 0,
    });
  }, 30_000);
  afterAll(async () => {
    await pinpad?.close();
    await line?.close();
    await sim?.stop();
  });

  /** What left the terminal in clear, by command id, and whether the pinpad's clear bytes hold `digits`. */
  const onTheLine = (since: ReturnType<LineCapture['mark']>, digits: string) => {
    const packets = line.packets(since);
    const clear = (from: 'terminal' | 'pinpad') =>
      packets.filter((p) => p.from === from && p.data[0] !== DC2).map((p) => p.data.subarray(0, 3).toString('latin1'));
    return {
      terminalClear: clear('terminal'),
      pinpadClear: clear('pinpad'),
      sealedCommands: packets.filter((p) => p.from === 'terminal' && p.data[0] === DC2).length,
      digitsInClear: line.bytes('pinpad').subarray(since.pinpad).includes(Buffer.from(digits, 'latin1')),
    };
  };

  it('a queue behind the command answered ERR003: the new OPN goes first, the typed number is asked and answered sealed', async () => {
    expect(pinpad.secure).toMatchObject({ recognition: 'abecs', secure: true, sessions: 1 });
    const since = line.mark();
    sim.inject({ kind: 'reboot', command: 'DSP' });
    sim.engine.type(TYPED_PAN);
    const shown = pinpad.display(['AGUARDE', '']);
    const typed = pinpad.getData({ message: 0x32, minDigits: 12, maxDigits: 19, timeoutS: 30 });
    const info = pinpad.gix([0x8001]);
    const [a, b, c] = await Promise.allSettled([shown, typed, info]);

    expect(sim.engine.state.reboots).toBe(1);
    const seen = onTheLine(since, TYPED_PAN);
    expect(seen.terminalClear).toEqual(['OPN']);
    expect(seen.digitsInClear).toBe(false);
    expect(seen.pinpadClear).toEqual(['ERR', 'OPN']); // ERR003 to the packet under the lost key, then the new OPN
    // each command ran on the new session (the refused DSP once more, §5.2.2.3) or failed by name: here all ran
    expect(a.status).toBe('fulfilled');
    expect(b).toEqual({ status: 'fulfilled', value: TYPED_PAN });
    expect(c.status).toBe('fulfilled');
    expect(sim.engine.state.received.slice(-4)).toEqual(['OPN', 'DSP', 'GCD', 'GIX']);
    expect(pinpad.secure).toMatchObject({ secure: true, sessions: 2, lastEnd: 'nosec' });
  });

  it('a chip sale whose pinpad rebooted before GTK ends with a clear error, and nothing but OPN went in clear', async () => {
    const c = TEST_CARDS[0]!;
    cardSim(sim.engine.state).deck.choose({ pan: c.pan, via: 'chip', pin: 'right' });
    const since = line.mark();
    const read = await pinpad.run(card.GCX, { amount: 1000, ...now(), acquirer: '03', contactless: true });
    expect(read.maskedPan).toBe(`${c.pan.slice(0, 8)}****${c.pan.slice(-4)}`);
    sim.inject({ kind: 'reboot', command: 'GTK' });
    const gtk = pinpad.run(card.GTK, { keyIndex: 2, iv: freshIv() });
    const shown = pinpad.display(['PROCESSANDO', '']);
    const e = await gtk.then(
      () => null,
      (x: unknown) => x,
    );
    await shown;
    // the card went with the reboot: GTK, sent again under the new session, is refused by the pinpad
    expect(isPinpadError(e, 'PINPAD_STATUS')).toBe(true);
    expect((e as Error).message).toMatch(/^GTK/);
    const seen = onTheLine(since, c.pan);
    expect(seen.terminalClear).toEqual(['OPN']);
    expect(seen.digitsInClear).toBe(false);
    expect(seen.pinpadClear).toEqual(['ERR', 'OPN']);
    expect(pinpad.secure).toMatchObject({ secure: true, sessions: 3 });
  });
});
