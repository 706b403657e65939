import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { cliContext } from '../../helpers/cli.js';
import { omniposArgs } from '../../helpers/omnipos-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** "omnipos sim pinpad" as its own process; its TCP and control ports from its ready line. */
async function startSim(): Promise<{
  child: ChildProcess;
  tcpPort: number;
  controlPort: number;
  stop(): Promise<void>;
}> {
  const child = spawn(process.execPath, omniposArgs(['sim', 'pinpad', '--tcp', '0', '--control', '0']), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = await new Promise<{ tcp: number; control: number }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { tcp: number; control: number });
    });
    child.once('exit', (code) => reject(new Error(`sim exited with ${code}`)));
  });
  return {
    child,
    tcpPort: ready.tcp,
    controlPort: ready.control,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const ctx = (stateDir: string) => cliContext({ OMNIPOS_STATE_DIR: stateDir });

describe('omnipos pinpad read-card | tables and omnipos sim card, against "omnipos sim pinpad" as its own process', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  const stateDir = tempDirForFile('omnipos-card-cli-');
  beforeAll(async () => {
    sim = await startSim();
  }, 30_000);
  afterAll(async () => {
    await sim?.stop();
  });

  it('sim card picks the card; read-card shows it masked, and with --json only the encrypted lengths and KSNs', async () => {
    const mc = TEST_CARDS.find((c) => c.name.startsWith('mastercard credit, chip'))!;
    const pick = ctx(stateDir);
    expect(
      await runCli(
        ['sim', 'card', '--control', String(sim.controlPort), '--pan', mc.pan, '--via', 'contactless'],
        pick,
      ),
    ).toBe(0);
    expect(pick.stdout).toContain('mastercard credit, chip and contactless (541333…0070) by contactless');
    expect(pick.stdout).not.toContain(mc.pan);

    const c = ctx(stateDir);
    expect(
      await runCli(['pinpad', 'read-card', '--tcp', `127.0.0.1:${sim.tcpPort}`, '--json', '--amount', '1500'], c),
    ).toBe(0);
    const r = JSON.parse(c.stdout) as Record<string, unknown>;
    expect(r).toMatchObject({
      cardType: 'contactless-chip',
      cardTypeCode: '06',
      maskedPan: '54133300****0070',
      label: 'MASTERCARD',
      track2: { hexLength: 48 },
      pan: { hexLength: 16 },
    });
    expect((r.track2 as { ksn: string }).ksn).toMatch(/^FFFFF03033/);
    expect(c.stdout + c.stderr).not.toContain(mc.pan);
    expect(c.stdout).not.toContain(mc.pan.slice(8, 12));

    const text = ctx(stateDir);
    expect(
      await runCli(
        ['sim', 'card', '--control', String(sim.controlPort), '--last-digit', '0', '--via', 'stripe'],
        ctx(stateDir),
      ),
    ).toBe(0);
    expect(await runCli(['pinpad', 'read-card', '--tcp', `127.0.0.1:${sim.tcpPort}`], text)).toBe(0);
    expect(text.stdout).toMatch(/card type\s+stripe \(00\)/);
    expect(text.stdout).toMatch(/PAN\s+47617300\*\*\*\*0060/);
  }, 30_000);

  it('sim card --list shows the deck with masked PANs; bad choices are refused', async () => {
    const c = ctx(stateDir);
    expect(await runCli(['sim', 'card', '--control', String(sim.controlPort), '--list'], c)).toBe(0);
    expect(c.stdout).toContain('476173******0060');
    for (const card of TEST_CARDS) expect(c.stdout).not.toContain(card.pan);
    await expect(
      runCli(
        ['sim', 'card', '--control', String(sim.controlPort), '--name', 'elo', '--via', 'contactless'],
        ctx(stateDir),
      ),
    ).resolves.toBe(2);
    await expect(
      runCli(['sim', 'card', '--control', String(sim.controlPort), '--pin', '12'], ctx(stateDir)),
    ).resolves.toBe(2);
  });

  it('pinpad tables lists the versions per network', async () => {
    const c = ctx(stateDir);
    expect(await runCli(['pinpad', 'tables', '--tcp', `127.0.0.1:${sim.tcpPort}`, '--json'], c)).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({ versions: { '03': '0000000000' } });
  });
});
