import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { secureLayerOf } from '../../../src/sim/pinpad/secure/index.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { useVirtualPinpad } from '../../helpers/virtual-pinpad.js';
import { cliContext } from '../../helpers/cli.js';

const ctx = (stateDir: string) => cliContext({ OMNIPOS_STATE_DIR: stateDir });

describe('omnipos pinpad info: recognition and the secure field', () => {
  const stateDir = path.join(tempDirForFile('omnipos-cli-secure-'), 'state');
  const current = useVirtualPinpad();
  const classic = useVirtualPinpad({ profile: { classicOnly: true, serialNumber: 'CLASSIC0001' } });

  it('a current pinpad: recognised by the secure OPN, secure true, GIX sealed', async () => {
    const c = ctx(stateDir);
    expect(await runCli(['pinpad', 'info', '--tcp', `127.0.0.1:${current.port}`, '--json'], c)).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({
      recognition: 'current (answered the secure OPN)',
      secure: true,
      cardSales: 'supported',
      source: 'GIX',
    });
    expect(current.engine.state.received).toEqual(['OPN', 'GIX', 'GIX']);
    // the layer is installed by the OPN it answers, so it sees what follows: both GIX encrypted
    expect(secureLayerOf(current.engine.state).trace).toEqual([
      { id: 'GIX', sealed: true },
      { id: 'GIX', sealed: true },
    ]);
    const t = ctx(stateDir);
    expect(await runCli(['pinpad', 'info', '--tcp', `127.0.0.1:${current.port}`], t)).toBe(0);
    expect(t.stdout).toMatch(/recognition\s+current/);
    expect(t.stdout).toMatch(/secure\s+yes/);
  });

  it('a classic-only pinpad: "not supported for card sales", secure false, information still read', async () => {
    const c = ctx(stateDir);
    expect(await runCli(['pinpad', 'info', '--tcp', `127.0.0.1:${classic.port}`], c)).toBe(0);
    expect(c.stdout).toMatch(/recognition\s+classic/);
    expect(c.stdout).toMatch(/secure\s+no/);
    expect(c.stdout).toMatch(/card sales\s+not supported for card sales/);
    expect(c.stdout).toMatch(/serial number\s+CLASSIC0001/);
    const j = ctx(stateDir);
    expect(await runCli(['pinpad', 'display', 'SO CONSULTA', '--tcp', `127.0.0.1:${classic.port}`], j)).toBe(0);
    expect(classic.engine.state.display).toEqual(['SO CONSULTA', '']);
  });
});
