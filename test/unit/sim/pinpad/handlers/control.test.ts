import { describe, expect, it } from 'vitest';
import { GIX, decodeCommand, decodeResponse } from '../../../../../drivers/pinpad/index.js';
import { SimEngine } from '../../../../../src/sim/pinpad/engine.js';
import { gix } from '../../../../../src/sim/pinpad/handlers/control.js';
import { handlersFor } from '../../../../../src/sim/pinpad/handlers/index.js';
import { cardSim } from '../../../../../src/sim/pinpad/card/index.js';
import type { SimContext } from '../../../../../src/sim/pinpad/handler.js';
import { profile } from '../../../../../src/sim/pinpad/profile.js';
import { SANDBOX_KEYS } from '../../../../../tables/sandbox-keys.js';

/** PP_KSNTDESP01 (9101h, §3.2.4) as the virtual pinpad's GIX answers it now. */
async function pinKsnOf(engine: SimEngine): Promise<string> {
  const data = GIX.encode([0x9101]);
  const cmd = { ...decodeCommand(data), data };
  const ctx: SimContext = {
    profile: profile(),
    state: engine.state,
    signal: new AbortController().signal,
    notify: () => undefined,
    nextKeys: () => Promise.resolve(''),
    setLayerAfterResponse: () => undefined,
  };
  const ksn = GIX.decode(decodeResponse(await gix(cmd, ctx)), [0x9101]).data.PP_KSNTDESP01;
  return Buffer.from(ksn as Uint8Array)
    .toString('hex')
    .toUpperCase();
}

describe("the virtual pinpad's GIX reports the PIN key's KSN as it stands (issue 35's leftover)", () => {
  it('the first KSN before any PIN; after each PIN block, the KSN that block carried', async () => {
    const engine = new SimEngine({ profile: profile(), handlers: handlersFor(false), output: () => undefined });
    expect(await pinKsnOf(engine)).toBe(SANDBOX_KEYS.pinInitialKsn);
    const dukpt = cardSim(engine.state).dukpt;
    const first = dukpt.encryptPin('1234', '4111111111111111');
    expect(await pinKsnOf(engine)).toBe(first.ksn);
    const second = dukpt.encryptPin('1234', '4111111111111111');
    expect(second.ksn).not.toBe(first.ksn);
    expect(await pinKsnOf(engine)).toBe(second.ksn);
  });
});
