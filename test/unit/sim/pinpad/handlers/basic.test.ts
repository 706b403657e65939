import { describe, expect, it } from 'vitest';
import { GCD, encodeFrame } from '../../../../../drivers/pinpad/index.js';
import { SimEngine } from '../../../../../src/sim/pinpad/engine.js';
import { handlersFor } from '../../../../../src/sim/pinpad/handlers/index.js';
import { profile } from '../../../../../src/sim/pinpad/profile.js';

describe('GCD shows its fixed message as well as the 2×16 display can (§6.5.8)', () => {
  it('"propositalmente não possuem formatação": laid out at a word, never cut inside one at the 16th character', async () => {
    const engine = new SimEngine({
      profile: profile(),
      handlers: handlersFor(false),
      output: () => undefined,
      typingMs: null,
    });
    engine.receive(encodeFrame(GCD.encode({ message: 0x0b }))); // §3.3.8: 000Bh DIGITE OS 4 ÚLTIMOS DÍGITOS
    for (const end = Date.now() + 15_000; Date.now() < end && engine.state.display[0] === '';)
      await new Promise((r) => setTimeout(r, 10));
    expect(engine.state.display).toEqual(['DIGITE OS 4', 'ÚLTIMOS DÍGITOS']);
    engine.receive(Uint8Array.of(0x18));
  });
});
