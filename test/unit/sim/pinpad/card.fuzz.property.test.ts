import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameDecoder, encodeCommand, encodeFrame, encodeParams } from '../../../../drivers/pinpad/index.js';
import { cardSim } from '../../../../src/sim/pinpad/card/index.js';
import { SimEngine } from '../../../../src/sim/pinpad/engine.js';
import { handlersFor } from '../../../../src/sim/pinpad/handlers/index.js';
import { profile } from '../../../../src/sim/pinpad/profile.js';
import { fcSeed } from '../../../helpers/fc-seed.js';

const IDS = [
  'GCX',
  'GTK',
  'GOX',
  'FCX',
  'EBX',
  'CEX',
  'MNU',
  'MLI',
  'MLR',
  'MLE',
  'DSI',
  'GPN',
  'RMC',
  'TLI',
  'TLR',
  'TLE',
  'GCR',
  'GOC',
  'FNC',
  'GTS',
  'CKE',
] as const;
const SPE_IDS = Array.from({ length: 0x26 }, (_, i) => i + 1);

describe('the virtual pinpad answers any card command, however malformed, with a well-formed response (property)', () => {
  it('arbitrary parameters and blocks: one response of the same id (or ERR) with a 3-digit status, never a hang', async () => {
    const decoder = new FrameDecoder();
    const frames: Uint8Array[] = [];
    const engine = new SimEngine({
      profile: profile(),
      handlers: handlersFor(false),
      output: (b) => {
        for (const e of decoder.push(b)) if (e.type === 'frame') frames.push(e.data);
      },
      typingMs: 0,
    });
    const deck = cardSim(engine.state).deck;
    deck.delayMs = 0;
    const value = fc.oneof(
      fc.uint8Array({ maxLength: 24 }),
      fc.stringMatching(/^[0-9]{0,12}$/).map((s) => Buffer.from(s, 'latin1')),
    );
    const abecs = fc
      .array(fc.record({ id: fc.constantFrom(...SPE_IDS), value }), { maxLength: 8 })
      .map((ps) => encodeParams(ps));
    const classic = fc.uint8Array({ maxLength: 120 }).map((b) => [b]);
    const cmd = fc.record({
      id: fc.constantFrom(...IDS),
      blocks: fc.oneof(abecs, classic),
      via: fc.constantFrom('chip', 'contactless', 'stripe'),
      pin: fc.constantFrom('right', 'cancel', '1234'),
    });
    await fc.assert(
      fc.asyncProperty(cmd, async (c) => {
        deck.choose({ lastDigit: 0, via: c.via, pin: c.pin });
        frames.length = 0;
        // blocking commands that wait on a SPE_TIMEOUT of up to 255 s would never answer in a test:
        // a CAN after a while is the terminal giving up, and EOT is then the answer (checked elsewhere)
        engine.receive(encodeFrame(encodeCommand(c.id, c.blocks)));
        const end = Date.now() + 200;
        while (frames.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 1));
        if (frames.length === 0) {
          engine.receive(Uint8Array.of(0x18));
          return;
        }
        const text = Buffer.from(frames[0]!).toString('latin1');
        expect(text.slice(0, 3) === c.id || text.startsWith('ERR') || text.startsWith('NTM')).toBe(true);
        expect(text.slice(3, 6)).toMatch(/^\d{3}$/);
        expect(text.slice(3, 6), `${c.id} hit an internal error`).not.toBe('040');
      }),
      { numRuns: 1000, seed: fcSeed('sim card commands fuzz') },
    );
  }, 120_000);
});
