import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startSim, type SimProcess } from '../../helpers/sim-process.js';
import { writeAnswer } from '../../../src/sim/pinpad/wire/command.js';
import { startVirtualPinpad, useVirtualPinpad } from '../../helpers/virtual-pinpad.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { cliContext as ctx } from '../../helpers/cli.js';

describe('omnipos pinpad info|display over TCP', () => {
  const current = useVirtualPinpad();
  const classic = useVirtualPinpad({ profile: { classicOnly: true, serialNumber: 'CLASSIC0001' } });
  // A pinpad older than DEX: 2.20 does not tick DEX Abecs, so a classic pinpad of today takes it (§3.1.3); one
  // built before DEX answers it as any unknown command, ERR010 (§2.3.4).
  const beforeDex = useVirtualPinpad({
    profile: { classicOnly: true, serialNumber: 'OLDPINPAD01' },
    handlers: new Map([['DEX', () => writeAnswer('ERR', 10)]]),
  });

  it('reads a current pinpad through GIX', async () => {
    const c = ctx();
    expect(await runCli(['pinpad', 'info', '--tcp', `127.0.0.1:${current.port}`, '--json'], c)).toBe(0);
    const info = JSON.parse(c.stdout) as Record<string, unknown>;
    expect(info).toMatchObject({
      source: 'GIX',
      serialNumber: 'VPP0000000001',
      specVersion: '2.20',
      firmware: 'VSO 1.0.0',
      keys: { dukptPin: { '01': 'present' } },
    });
    expect(current.engine.state.received).toContain('GIX');
  });

  it('reads a classic-only pinpad through GIN, never sending it GIX (an Abecs command, §3.2.2)', async () => {
    const c = ctx();
    expect(await runCli(['pinpad', 'info', '--tcp', `127.0.0.1:${classic.port}`], c)).toBe(0);
    expect(c.stdout).toContain('GIN (classic command set only)');
    expect(c.stdout).toMatch(/serial number\s+CLASSIC0001/);
    expect(c.stdout).toMatch(/DUKPT PIN keys\s+01/);
    expect(classic.engine.state.received).toEqual(['OPN', 'GIN', 'GIN']);
  });

  it('shows text with DSP when it fits 2x16 and with DEX otherwise', async () => {
    expect(
      await runCli(['pinpad', 'display', 'BEM VINDO\\nCAIXA 3', '--tcp', `127.0.0.1:${current.port}`], ctx()),
    ).toBe(0);
    expect(current.engine.state.display).toEqual(['BEM VINDO', 'CAIXA 3']);
    expect(
      await runCli(
        ['pinpad', 'display', 'Aproxime, insira ou passe o cartão', '--tcp', `127.0.0.1:${current.port}`],
        ctx(),
      ),
    ).toBe(0);
    expect(current.engine.state.display).toEqual(['Aproxime, insira ou passe o cartão']);
    expect(current.engine.state.received.filter((id) => id !== 'OPN').slice(-2)).toEqual(['DSP', 'DEX']);
  });

  it('falls back to DSP (first 32 characters) on a pinpad that does not know DEX', async () => {
    const c = ctx();
    expect(
      await runCli(
        ['pinpad', 'display', 'Aproxime, insira ou passe o cartão', '--tcp', `127.0.0.1:${beforeDex.port}`],
        c,
      ),
    ).toBe(0);
    expect(c.stderr).toContain('does not know DEX');
    expect(beforeDex.engine.state.display).toEqual(['Aproxime, insira', ' ou passe o cart']);
  });

  it('shows the whole message with DEX on a classic-only pinpad (DEX is not an Abecs command)', async () => {
    const c = ctx();
    const message = 'Aproxime, insira ou passe o cartão';
    expect(await runCli(['pinpad', 'display', message, '--tcp', `127.0.0.1:${classic.port}`], c)).toBe(0);
    expect(c.stderr).not.toContain('does not know DEX');
    expect(classic.engine.state.received.at(-1)).toBe('DEX');
    expect(classic.engine.state.display).toEqual([message]);
  });

  it('exits 3 with PINPAD_NOT_FOUND when nothing listens, and 2 on a malformed --tcp', async () => {
    const stopped = await startVirtualPinpad();
    const port = stopped.port;
    await stopped.stop();
    const c = ctx();
    expect(await runCli(['pinpad', 'info', '--tcp', `127.0.0.1:${port}`], c)).toBe(3);
    expect(c.stderr).toContain('[PINPAD_NOT_FOUND]');
    expect(await runCli(['pinpad', 'info', '--tcp', 'nohost'], ctx())).toBe(2);
  });

  it('uses the embedded virtual pinpad when nothing is given (default configuration)', async () => {
    const c = ctx();
    expect(await runCli(['pinpad', 'info', '--json'], c)).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({ source: 'GIX', manufacturer: 'OMNIPOS VIRTUAL' });
  });

  it('lists ports without opening them', async () => {
    const c = ctx();
    expect(await runCli(['pinpad', 'ports', '--json'], c)).toBe(0);
    expect(Array.isArray(JSON.parse(c.stdout))).toBe(true);
  });
});

describe.skipIf(!HAS_SOCAT)('omnipos pinpad info --port against `omnipos sim pinpad --classic --pty`', () => {
  let sim: SimProcess;
  const pty = path.join(tempDirForFile('omnipos-cli-'), 'pinpad');
  beforeAll(async () => {
    sim = await startSim(['--pty', pty, '--classic']);
  }, 20_000);
  afterAll(async () => sim?.stop());

  it('reads the classic-only pinpad over the pseudo-terminal', async () => {
    const c = ctx();
    expect(await runCli(['pinpad', 'info', '--port', pty, '--json'], c)).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({
      source: 'GIN',
      device: `serial:${pty}`,
      serialNumber: 'VPP0000000001',
    });
  });
});
