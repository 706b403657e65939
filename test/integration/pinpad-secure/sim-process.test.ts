import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecurePinpad } from '../../../drivers/pinpad/index.js';
import { loadPinpadKey } from '../../../src/adapters/pinpad-keys.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startSim, type SimProcess } from '../../helpers/sim-process.js';
import { connectSecurePinpad } from '../../helpers/virtual-pinpad.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';

describe.skipIf(!HAS_SOCAT)(
  'secure channel against `omnipos sim pinpad` as its own process, over its pseudo-terminal',
  () => {
    const dir = tempDirForFile('omnipos-secure-proc-');
    let sim: SimProcess;
    let pinpad: SecurePinpad;

    beforeAll(async () => {
      sim = await startSim(['--pty', path.join(dir, 'pinpad')]);
      pinpad = await connectSecurePinpad(
        { pty: path.join(dir, 'pinpad') },
        loadPinpadKey(path.join(dir, 'state')).key,
        {
          timings: { ackMs: 300, responseMs: 3000, eotMs: 300, silenceMs: 50 },
          probeIntervalMs: 0,
        },
      );
    }, 30_000);

    afterAll(async () => {
      await pinpad?.close();
      await sim?.stop();
    });

    it('opens a secure session and runs information, display and CLO through it', async () => {
      expect(pinpad.secure).toMatchObject({ recognition: 'abecs', secure: true });
      expect((await pinpad.info()).serialNumber).toBe('VPP0000000001');
      await pinpad.display(['SEGURO', '']);
      await pinpad.closeSession(['ATE LOGO', '']);
      const state = await sim.state();
      expect(state.received).toEqual(['OPN', 'GIX', 'GIX', 'DSP', 'CLO']);
      expect(state.display).toEqual(['ATE LOGO', '']);
      expect(pinpad.secure).toMatchObject({ secure: false, lastEnd: 'clo' });
    });
  },
);
