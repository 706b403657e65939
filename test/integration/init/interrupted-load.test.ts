import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { InitializationStore } from '../../../src/initialization/index.js';
import { CLASSIC_HANDLERS, cardSim, type VirtualPinpad, type SimHandler } from '../../../src/sim/pinpad/index.js';
import { openTerminalDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';
import { runCliCaptured } from '../../helpers/cli.js';

const tempDir = useTempDirs();

describe('omnipos init: a pinpad load cut before TLE', () => {
  it('exits non-zero with the tables stored and the pinpad on its previous tables; the next run loads it', async () => {
    const state = tempDir();
    // A pinpad on TCP (the configuration's "tcp" device) whose cable is pulled at the third TLR.
    const original = CLASSIC_HANDLERS.get('TLR') as SimHandler;
    let tlr = 0;
    let cut = true;
    const pinpad: VirtualPinpad = await startVirtualPinpad({
      handlers: new Map<string, SimHandler>([
        [
          'TLR',
          (cmd, ctx) => {
            tlr++;
            if (cut && tlr === 3) pinpad.engine.inject({ kind: 'disconnect', when: 'now', replugAfterMs: 20 });
            return original(cmd, ctx);
          },
        ],
      ]),
    });
    const tables = () => cardSim(pinpad.engine.state).tables;
    const factory = tables().versions();
    const env = {
      OMNIPOS_STATE_DIR: state,
      OMNIPOS_CONFIG: '',
      OMNIPOS_SANDBOX__PORT: '0',
      OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
      OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
      OMNIPOS_PINPAD__DEVICE__PORT: String(pinpad.port),
    };
    const init = () => runCliCaptured(['init'], env);
    const stored = () => {
      const db = openTerminalDatabase(state, createLogger({ level: 'silent' }));
      try {
        const s = new InitializationStore(db, systemClock);
        return { tables: s.currentVersion(), pinpad: s.pinpadTableVersion() };
      } finally {
        db.close();
      }
    };
    try {
      const first = await init();
      expect(first.out).toContain('pinpad: loading table version 3769600001');
      expect(first.code).toBe(3);
      expect(first.err).toMatch(/PINPAD_DISCONNECTED|PINPAD_TIMEOUT/);
      expect(tlr).toBe(3);
      // The terminal keeps the tables it validated; the pinpad kept what it had (no TLE was sent).
      expect(stored()).toEqual({ tables: '1763769600001', pinpad: undefined });
      expect(tables().versions()).toEqual(factory);
      expect(Object.values(factory)).not.toContain('3769600001');

      cut = false;
      for (let i = 0; i < 100 && pinpad.plugs.replugged < 1; i++) await new Promise((r) => setTimeout(r, 20));
      expect(pinpad.plugs).toEqual({ unplugged: 1, replugged: 1 });
      const second = await init();
      expect(second.err).toBe('');
      expect(second.code).toBe(0);
      expect(second.out).toContain('tables version 1763769600001 is current: nothing to store');
      expect(second.out).toContain('pinpad: table version 3769600001 loaded');
      expect(Object.values(tables().versions())).toContain('3769600001');
      expect(stored()).toEqual({ tables: '1763769600001', pinpad: '3769600001' });
    } finally {
      await pinpad.stop();
    }
  }, 60_000);
});
