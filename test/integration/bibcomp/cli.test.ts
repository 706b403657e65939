import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { runCli } from '../../../src/cli/run.js';
import { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { buildBibcomp } from './build.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function ctx(): CliContext & { stdout: string; stderr: string } {
  const c = {
    stdout: '',
    stderr: '',
    env: {} as Record<string, string | undefined>,
    out(t: string) {
      c.stdout += t;
    },
    err(t: string) {
      c.stderr += t;
    },
  };
  return c;
}

describe('omnipos pinpad info with "kind": "bibcomp"', () => {
  let sim: VirtualPinpad;
  let dir: string;
  beforeAll(async () => {
    sim = new VirtualPinpad();
    await sim.start();
    dir = mkdtempSync(path.join(tmpdir(), 'omnipos-bibcomp-cli-'));
  }, 60_000);
  afterAll(async () => {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (device: Record<string, unknown>): string => {
    const file = path.join(dir, `omnipos-${Math.random().toString(36).slice(2)}.json`);
    // the shipped configuration (terminal, acquirer), with this pinpad device and a state directory of our own
    const base = JSON.parse(readFileSync(path.join(ROOT, 'config/omnipos.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    const acquirer = { ...base.acquirer, clientSecretFile: path.join(ROOT, 'config/sandbox/client-secret'), merchantKeyFile: path.join(ROOT, 'config/sandbox/merchant-key') };
    writeFileSync(file, JSON.stringify({ ...base, acquirer, stateDir: path.join(dir, 'state'), pinpad: { device } }));
    return file;
  };

  it('reads the pinpad behind the library: recognised by secure OPN, GIX through the generic command', async () => {
    const c = ctx();
    const file = config({ kind: 'bibcomp', library: buildBibcomp(), port: `127.0.0.1:${sim.port}` });
    expect(await runCli(['pinpad', 'info', '--config', file, '--json'], c)).toBe(0);
    const info = JSON.parse(c.stdout) as Record<string, unknown>;
    expect(info).toMatchObject({ device: expect.stringMatching(/^bibcomp:/), source: 'GIX', serialNumber: 'VPP0000000001', secure: true, cardSales: 'supported' });
    expect(sim.engine.state.received).toEqual(expect.arrayContaining(['OPN', 'GIX']));
  }, 30_000);

  it('a library that does not load is a configuration error naming the path', async () => {
    const c = ctx();
    const file = config({ kind: 'bibcomp', library: path.join(dir, 'missing.so'), port: 'COM1' });
    expect(await runCli(['pinpad', 'info', '--config', file], c)).not.toBe(0);
    expect(c.stderr).toMatch(/pinpad\.device\.library/);
  });

  it('the configuration refuses a bibcomp device without its port string', async () => {
    const c = ctx();
    const file = config({ kind: 'bibcomp', library: '/opt/vendor/libppcomp.so' });
    expect(await runCli(['pinpad', 'info', '--config', file], c)).not.toBe(0);
    expect(c.stderr).toMatch(/pinpad\.device\.port/);
  });
});
