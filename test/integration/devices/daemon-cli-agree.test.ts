import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveTarget as cliPinpad } from '../../../src/cli/pinpad.js';
import { resolveTarget as cliPrinter } from '../../../src/cli/printer.js';
import { runCli } from '../../../src/cli/run.js';
import { createLogger } from '../../../src/core/log/index.js';
import { loadConfig } from '../../../src/config/index.js';
import { startDaemon, type Daemon } from '../../../src/main.js';
import type { PinpadDeviceConfig, PrinterDeviceConfig } from '../../../src/adapters/index.js';
import { shippedConfig, writeConfig } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { buildBibcomp } from '../../helpers/bibcomp-build.js';

/**
 * One device factory (src/adapters/devices.ts): every pinpad and printer kind the configuration
 * schema accepts — what `omnipos config check` passes — is one the daemon starts with and one the
 * CLI's commands reach, named alike. Before it, the daemon refused a USB pinpad and serial or
 * USB printers that `config check` accepted and `omnipos pinpad info` / `printer test` drove.
 * No device needs to be there: an absent pinpad or printer is waited for, not refused.
 */
const tempDir = useTempDirs();
const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!();
});

const HAS_CC = spawnSync(process.env.CC ?? 'cc', ['--version'], { stdio: 'ignore' }).status === 0;

/** A TCP port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

// A Record over the schema's kinds: a kind added to the schema without a case here does not compile.
const PINPADS: Record<PinpadDeviceConfig['kind'], (dir: string) => Promise<Record<string, unknown>>> = {
  virtual: () => Promise.resolve({ kind: 'virtual', port: 0 }),
  serial: (dir) => Promise.resolve({ kind: 'serial', path: path.join(dir, 'ttyNOPINPAD') }),
  tcp: async () => ({ kind: 'tcp', host: '127.0.0.1', port: await closedPort() }),
  usb: () => Promise.resolve({ kind: 'usb', vendorId: '1753', productId: 'c902' }),
  bibcomp: () => Promise.resolve({ kind: 'bibcomp', library: buildBibcomp(), port: 'COM1' }),
};
const PRINTERS: Record<PrinterDeviceConfig['kind'], (dir: string) => Promise<Record<string, unknown>>> = {
  none: () => Promise.resolve({ kind: 'none' }),
  virtual: () => Promise.resolve({ kind: 'virtual' }),
  tcp: async () => ({ kind: 'tcp', host: '127.0.0.1', port: await closedPort() }),
  serial: (dir) => Promise.resolve({ kind: 'serial', path: path.join(dir, 'ttyNOPRINTER') }),
  usb: () => Promise.resolve({ kind: 'usb', vendorId: '04b8', productId: '0e15' }),
};

const pinpadKinds = (Object.keys(PINPADS) as PinpadDeviceConfig['kind'][]).filter((k) => k !== 'bibcomp' || HAS_CC);
const printerKinds = Object.keys(PRINTERS) as PrinterDeviceConfig['kind'][];

/** A sandbox configuration file naming this pinpad and this printer, in its own directory. */
function configFile(dir: string, pinpad: Record<string, unknown>, printer: Record<string, unknown>): string {
  return writeConfig(path.join(dir, 'omnipos.json'), {
    ...shippedConfig(),
    stateDir: path.join(dir, 'state'),
    sandbox: { embedded: true, port: 0 },
    pinpad: { device: pinpad },
    printer,
  });
}

/** A virtual device's loopback port differs between two instances; the rest must be equal. */
const samePlace = (d: string): string => d.replace(/^virtual:127\.0\.0\.1:\d+$/, 'virtual:127.0.0.1:PORT');
const ctx = { out: () => undefined, err: () => undefined, env: {} };

describe('one device factory: config check, the daemon and the CLI accept the same pinpads and printers', () => {
  // One daemon per pinpad kind, each with the next printer kind (every printer kind is run too).
  const pairs = pinpadKinds.map((pinpad, i) => ({ pinpad, printer: printerKinds[i % printerKinds.length]! }));
  if (pairs.length < printerKinds.length)
    for (const printer of printerKinds.slice(pairs.length)) pairs.push({ pinpad: 'virtual', printer });

  it.each(pairs)(
    'pinpad $pinpad, printer $printer: config check passes, the daemon starts, the CLI names the same devices',
    async ({ pinpad, printer }) => {
      const dir = tempDir('omnipos-devices-');
      const file = configFile(dir, await PINPADS[pinpad](dir), await PRINTERS[printer](dir));
      let err = '';
      expect(
        await runCli(['config', 'check', '--config', file], { out: () => undefined, err: (t) => (err += t), env: {} }),
        err,
      ).toBe(0);

      const config = loadConfig({ path: file, env: {} });
      const daemon: Daemon = await startDaemon({
        config,
        log: createLogger({ level: 'silent' }),
        env: {},
        sandboxPort: 0,
        api: false,
      });
      running.push(() => daemon.stop());

      const cliPinpadTarget = await cliPinpad({ config: file }, ctx);
      running.push(() => cliPinpadTarget.stop());
      expect(cliPinpadTarget.kind).toBe(pinpad);
      expect(samePlace(daemon.devices.pinpad)).toBe(samePlace(cliPinpadTarget.description));

      if (printer === 'none') {
        expect(daemon.devices.printer).toBe('none');
        await expect(cliPrinter({ config: file }, ctx)).rejects.toMatchObject({ code: 'PRINTER_NOT_FOUND' });
      } else {
        const cliPrinterTarget = await cliPrinter({ config: file }, ctx);
        running.push(() => cliPrinterTarget.stop());
        expect(cliPrinterTarget.kind).toBe(printer);
        expect(samePlace(daemon.devices.printer)).toBe(samePlace(cliPrinterTarget.description));
      }
    },
    60_000,
  );
});
