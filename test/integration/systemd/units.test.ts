import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_PINPAD_USB_IDS } from '../../../tables/pinpad/usb-ids.js';
import { PRINTER_MODELS } from '../../../tables/printers/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const UNITS = ['omnipos.service', 'omnipos-kiosk.service'];
const SYSTEMD_DIR = new URL('../../../systemd/', import.meta.url).pathname;
const read = (name: string): string => readFileSync(path.join(SYSTEMD_DIR, name), 'utf8');

/** `Key=value` lines of a unit, by section. */
function parseUnit(text: string): Map<string, [string, string][]> {
  const sections = new Map<string, [string, string][]>();
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const s = /^\[(.+)\]$/.exec(line);
    if (s) {
      current = s[1]!;
      sections.set(current, sections.get(current) ?? []);
      continue;
    }
    const i = line.indexOf('=');
    sections.get(current)!.push([line.slice(0, i), line.slice(i + 1)]);
  }
  return sections;
}
const values = (unit: Map<string, [string, string][]>, section: string, key: string): string[] =>
  (unit.get(section) ?? []).filter(([k]) => k === key).map(([, v]) => v);

const tempDir = useTempDirs();

/**
 * A staged root for `systemd-analyze verify --root`: this machine's own systemd units (the
 * targets the units name), the units under test in /etc/systemd/system, and a stub executable
 * at every path an Exec line names (the installed paths do not exist on a build machine).
 */
function stagedRoot(units: Record<string, string>, skipStub: string[] = []): string {
  const root = tempDir('omnipos-units-');
  mkdirSync(path.join(root, 'usr/lib/systemd'), { recursive: true });
  cpSync('/usr/lib/systemd/system', path.join(root, 'usr/lib/systemd/system'), {
    recursive: true,
    dereference: false,
    verbatimSymlinks: true,
  });
  const etc = path.join(root, 'etc/systemd/system');
  mkdirSync(etc, { recursive: true });
  for (const [name, text] of Object.entries(units)) {
    writeFileSync(path.join(etc, name), text);
    for (const [key, value] of [...parseUnit(text).values()].flat()) {
      if (!key.startsWith('Exec')) continue;
      const exe = value.replace(/^[-@:+!]+/, '').split(/\s+/)[0]!;
      if (!exe.startsWith('/') || skipStub.includes(exe)) continue;
      mkdirSync(path.join(root, path.dirname(exe)), { recursive: true });
      writeFileSync(path.join(root, exe), '#!/bin/sh\nexit 0\n');
      chmodSync(path.join(root, exe), 0o755);
    }
  }
  return root;
}

function verify(root: string, names: string[]): { status: number | null; output: string } {
  const r = spawnSync(
    'systemd-analyze',
    ['verify', `--root=${root}`, ...names.map((n) => path.join(root, 'etc/systemd/system', n))],
    { encoding: 'utf8', env: { ...process.env, SYSTEMD_LOG_COLOR: '0' } },
  );
  if (r.error) throw new Error(`systemd-analyze is missing (${r.error.message}): .ci/run installs Debian's systemd`);
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}

describe('systemd units', () => {
  it('systemd-analyze verify passes on both units, with not one warning, against a staged root', () => {
    expect(
      existsSync('/usr/lib/systemd/system/sysinit.target'),
      "this machine's systemd units (Debian's systemd package)",
    ).toBe(true);
    const units = Object.fromEntries(UNITS.map((u) => [u, read(u)]));
    const root = stagedRoot(units);
    expect(verify(root, UNITS)).toEqual({ status: 0, output: '' });
  });

  it('the check can fail: a misspelt key warns, a missing executable fails', () => {
    const typo = stagedRoot({ 'omnipos.service': read('omnipos.service').replace('WatchdogSec=', 'WatchDogSec=') });
    expect(verify(typo, ['omnipos.service']).output).toMatch(/Unknown key 'WatchDogSec'/);
    const missing = stagedRoot(
      { 'omnipos.service': read('omnipos.service'), 'omnipos-kiosk.service': read('omnipos-kiosk.service') },
      ['/usr/bin/cage'],
    );
    const r = verify(missing, ['omnipos-kiosk.service']);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/\/usr\/bin\/cage is not executable/);
  });

  it('omnipos.service: notify with a watchdog fed by systemd-notify, restart on failure, its own user, devices by class, no hardening that hides serial or USB', () => {
    const u = parseUnit(read('omnipos.service'));
    const one = (k: string): string | undefined => values(u, 'Service', k)[0];
    expect(one('Type')).toBe('notify');
    expect(one('NotifyAccess')).toBe('all');
    expect(Number(one('WatchdogSec'))).toBeGreaterThan(0);
    expect(one('Restart')).toBe('on-failure');
    expect(one('User')).toBe('omnipos');
    expect(one('ExecStart')).toMatch(/^\/usr\/bin\/node \/opt\/omnipos\/dist\/src\/cli\/bin\.js run$/);
    expect(one('DevicePolicy')).toBe('closed');
    const allowed = values(u, 'Service', 'DeviceAllow');
    for (const cls of ['char-ttyACM', 'char-ttyUSB', 'char-usb_device', 'char-hidraw'])
      expect(allowed).toContain(`${cls} rw`);
    expect(allowed.every((a) => a.startsWith('char-'))).toBe(true);
    expect(values(u, 'Service', 'SupplementaryGroups')[0]?.split(' ')).toEqual(
      expect.arrayContaining(['dialout', 'plugdev']),
    );
    expect(one('ProtectSystem')).toBe('strict');
    expect(values(u, 'Service', 'StateDirectory')).toEqual(['omnipos']);
    expect(one('PrivateDevices')).toBeUndefined();
    expect(one('PrivateUsers')).toBeUndefined();
    expect(one('MemoryDenyWriteExecute')).toBeUndefined();
    expect(one('RestrictAddressFamilies')).toContain('AF_NETLINK');
  });

  it('omnipos-kiosk.service: requires the daemon, starts after it, runs `omnipos kiosk` (which waits for the health) with the token as a credential', () => {
    const u = parseUnit(read('omnipos-kiosk.service'));
    expect(values(u, 'Unit', 'Requires')).toContain('omnipos.service');
    expect(values(u, 'Unit', 'After').join(' ').split(' ')).toContain('omnipos.service');
    expect(values(u, 'Service', 'ExecStart')[0]).toMatch(/\/opt\/omnipos\/dist\/src\/cli\/bin\.js kiosk /);
    expect(values(u, 'Service', 'LoadCredential')).toEqual(['kiosk-token:/var/lib/omnipos/kiosk-token']);
    expect(values(u, 'Service', 'User')[0]).not.toBe('omnipos');
    expect(values(u, 'Service', 'Restart')).toEqual(['always']);
  });
});

describe('udev rules', () => {
  const rules = read('99-omnipos.rules')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'));
  const KEYS =
    /^(SUBSYSTEM|KERNEL|ATTRS\{(idVendor|idProduct|serial)\}|ENV\{(DEVTYPE|ID_MM_DEVICE_IGNORE)\}|SYMLINK|GROUP|MODE)$/;

  it('every rule is well formed: known keys, == to match and = or += to assign, a stable name, a group and mode 0660', () => {
    expect(rules.length).toBeGreaterThanOrEqual(3);
    for (const rule of rules) {
      const parts = rule
        .split(/,\s*/)
        .map((p) => /^([A-Za-z_]+(?:\{[A-Za-z_]+\})?)(==|!=|\+=|=)"([^"]*)"$/.exec(p.trim()));
      expect(parts.every(Boolean), rule).toBe(true);
      for (const [, key, op] of parts as RegExpExecArray[]) {
        expect(key, rule).toMatch(KEYS);
        if (['SUBSYSTEM', 'KERNEL'].includes(key!) || key!.startsWith('ATTRS')) expect(op).toBe('==');
        else if (!key!.startsWith('ENV{DEVTYPE')) expect(['=', '+=']).toContain(op);
      }
      expect(rule).toMatch(/SYMLINK\+="(pinpad|receipt-printer)"/);
      expect(rule).toMatch(/MODE="0660"/);
      expect(rule).toMatch(/GROUP="(dialout|plugdev)"/);
    }
  });

  it('the USB ids are the ones the tables know: pinpads (tables/pinpad/usb-ids.ts) and printers (tables/printers)', () => {
    const hex = (n: number): string => n.toString(16).padStart(4, '0');
    const pinpadVendors = new Set(KNOWN_PINPAD_USB_IDS.map((i) => hex(i.vendorId)));
    const printerIds = new Set(
      PRINTER_MODELS.flatMap((m) => (m.usb ? [`${hex(m.usb.vendorId)}:${hex(m.usb.productId)}`] : [])),
    );
    for (const rule of rules) {
      const vendor = /idVendor}=="([0-9a-f]{4})"/.exec(rule)?.[1];
      const product = /idProduct}=="([0-9a-f]{4})"/.exec(rule)?.[1];
      if (rule.includes('"pinpad"')) expect(pinpadVendors.has(vendor!), rule).toBe(true);
      else expect(printerIds.has(`${vendor}:${product}`), rule).toBe(true);
    }
  });
});
