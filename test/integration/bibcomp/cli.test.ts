import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { CARD_SALE_REFUSAL } from '../../../drivers/bibcomp/index.js';
import { buildBibcomp } from '../../helpers/bibcomp-build.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';
import { omniOf, shippedConfig, writeConfig } from '../../helpers/config.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { cliContext as ctx } from '../../helpers/cli.js';

describe('omnipos pinpad info with "kind": "bibcomp"', () => {
  let sim: VirtualPinpad;
  const dir = tempDirForFile('omnipos-bibcomp-cli-');
  beforeAll(async () => {
    sim = await startVirtualPinpad();
  }, 60_000);
  afterAll(async () => {
    await sim.stop();
  });

  const config = (device: Record<string, unknown>, extra: Record<string, unknown> = {}): string => {
    const file = path.join(dir, `omnipos-${Math.random().toString(36).slice(2)}.json`);
    // the shipped configuration (terminal, acquirer), with this pinpad device and a state directory of our own
    const base = shippedConfig();
    const acquirer = { kind: 'omni', omni: { ...omniOf(base), ...(extra.acquirer as object) } };
    return writeConfig(file, { ...base, ...extra, acquirer, stateDir: path.join(dir, 'state'), pinpad: { device } });
  };

  it('omnipos pinpad info on the library: information from GIN through the generic command, and card sales "no" with the specification\'s reason', async () => {
    const c = ctx();
    const file = config({ kind: 'bibcomp', library: buildBibcomp(), port: `127.0.0.1:${sim.port}` });
    expect(await runCli(['pinpad', 'info', '--config', file, '--json'], c)).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({
      device: expect.stringMatching(/^bibcomp:.*libppcomp\.so/),
      source: 'GIN',
      serialNumber: 'VPP0000000001',
      secure: false,
      cardSales: `no — ${CARD_SALE_REFUSAL}`,
    });
    const t = ctx();
    expect(await runCli(['pinpad', 'info', '--config', file], t)).toBe(0);
    expect(t.stdout).toMatch(
      /^card sales +no — not through a BibComp library: the card data must leave the pinpad encrypted by its DUKPT key/m,
    );
    expect(sim.engine.state.received).not.toContain('GIX');
  }, 30_000);

  it('omnipos diag with "kind": "bibcomp" (no daemon): the pinpad read through the library, the report complete', async () => {
    const c = ctx();
    const free = async (): Promise<number> => {
      const srv = net.createServer();
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
      const port = (srv.address() as net.AddressInfo).port;
      await new Promise((r) => srv.close(r));
      return port;
    };
    const base = shippedConfig();
    const file = config(
      { kind: 'bibcomp', library: buildBibcomp(), port: `127.0.0.1:${sim.port}` },
      { api: { ...base.api, port: await free() }, acquirer: { authUrl: `http://127.0.0.1:${await free()}` } },
    );
    await runCli(['diag', '--config', file, '--json'], c);
    const report = JSON.parse(c.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      source: 'probe',
      pinpad: { device: expect.stringMatching(/^bibcomp:/), serialNumber: 'VPP0000000001', secure: false },
    });
  }, 60_000);

  it('omnipos pinpad ports lists the BibComp libraries it finds (by name; nothing loaded)', async () => {
    const c = ctx();
    const lib = path.join(dir, 'vendor', 'lib');
    mkdirSync(lib, { recursive: true });
    writeFileSync(path.join(lib, 'libppcomp_gertec.so.1'), 'not a real library: it is never loaded');
    writeFileSync(path.join(lib, 'libother.so'), '');
    expect(await runCli(['pinpad', 'ports', '--json', '--lib-dir', lib], c)).toBe(0);
    const rows = JSON.parse(c.stdout) as { kind: string; path: string }[];
    expect(rows.filter((r) => r.kind === 'library' && r.path.startsWith(lib))).toEqual([
      { kind: 'library', path: path.join(lib, 'libppcomp_gertec.so.1'), pinpad: 'BibComp library' },
    ]);
  });

  it('a library that does not load is a configuration error naming the path', async () => {
    const c = ctx();
    const file = config({ kind: 'bibcomp', library: path.join(dir, 'missing.so'), port: 'COM1' });
    expect(await runCli(['pinpad', 'info', '--config', file], c)).not.toBe(0);
    expect(c.stderr).toMatch(/pinpad\.device\.library/);
  });

  it('omnipos config check loads the configured library: a wrong path, or a file that is no PPCOMP.H library, is found before start', async () => {
    const missing = ctx();
    const file = config({ kind: 'bibcomp', library: path.join(dir, 'missing.so'), port: 'COM1' });
    expect(await runCli(['config', 'check', '--config', file], missing)).toBe(2);
    expect(missing.stderr).toMatch(/^pinpad\.device\.library: .*missing\.so: the library does not load/m);
    const notLibrary = path.join(dir, 'libppcomp_fake.so');
    writeFileSync(notLibrary, 'not a shared object');
    const fake = ctx();
    expect(
      await runCli(
        ['config', 'check', '--config', config({ kind: 'bibcomp', library: notLibrary, port: 'COM1' })],
        fake,
      ),
    ).toBe(2);
    expect(fake.stderr).toMatch(/pinpad\.device\.library: .*libppcomp_fake\.so: the library does not load/);
    const good = ctx();
    expect(
      await runCli(
        ['config', 'check', '--config', config({ kind: 'bibcomp', library: buildBibcomp(), port: 'COM1' })],
        good,
      ),
    ).toBe(0);
  });

  it('the configuration refuses a bibcomp device without its port string', async () => {
    const c = ctx();
    const file = config({ kind: 'bibcomp', library: '/opt/vendor/libppcomp.so' });
    expect(await runCli(['pinpad', 'info', '--config', file], c)).not.toBe(0);
    expect(c.stderr).toMatch(/pinpad\.device\.port/);
  });
});
