import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createServer } from 'node:net';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The Debian package as a technician gets it: built by `npm run package` (packaging/build-deb.sh),
 * installed with `dpkg -i` into a Debian 12 root that debootstrap makes here (minbase with systemd
 * and udev, the way a terminal's image has them), in a chroot; the command, the configuration
 * check, the users, the modes, the units (`systemd-analyze verify` inside the root); then
 * reinstalled over itself with an edited conffile, removed, purged (state kept), and purged again
 * with PURGE_OMNIPOS_STATE=yes (state and users gone).
 *
 * Needs root (chroot, dpkg into a foreign root), debootstrap and a Debian mirror (deb.debian.org
 * or DEBIAN_MIRROR). `npm run test:package` (and .ci/run) runs it; the default suite does
 * not (it takes minutes). DEB_FILE=path skips the build and tests that file. Every phase's time
 * is printed. Nothing outside the temporary folder is written, and it is removed at the end.
 */

const PROJECT = path.resolve(import.meta.dirname, '..', '..');
const MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const SUITE = 'bookworm';

const missing = [
  ...(process.getuid?.() === 0 ? [] : ['root (chroot and dpkg --root)']),
  ...['debootstrap', 'dpkg-deb', 'chroot'].filter((c) => spawnSync('sh', ['-c', `command -v ${c}`]).status !== 0),
];

const work = mkdtempSync(path.join(tmpdir(), 'omnipos-pkgtest-'));
const root = path.join(work, 'root');
const timings: string[] = [];

/** `clean`: only `env` (a command inside the root sees none of the host's variables, OMNIPOS_* above all). */
function run(
  cmd: string,
  args: readonly string[],
  opts: { env?: Record<string, string>; input?: string; clean?: boolean } = {},
): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    env: opts.clean ? { ...opts.env } : { ...process.env, ...opts.env },
    input: opts.input,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return r;
}

function ok(cmd: string, args: readonly string[], opts: { env?: Record<string, string> } = {}): string {
  const r = run(cmd, args, opts);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${String(r.status)}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** A command inside the Debian root, with a plain PATH and no project variables. */
function inRoot(args: readonly string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return run('chroot', [root, ...args], {
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8', DEBIAN_FRONTEND: 'noninteractive', ...env },
    clean: true,
  });
}

function okInRoot(args: readonly string[], env: Record<string, string> = {}): string {
  const r = inRoot(args, env);
  if (r.status !== 0) throw new Error(`(chroot) ${args.join(' ')}: exit ${String(r.status)}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function timed<T>(what: string, f: () => T): T {
  const t0 = performance.now();
  try {
    return f();
  } finally {
    timings.push(`${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}

/** `cmd` in a process of its own (with the host's variables and `env`), timed: resolves with its stdout once it exits 0. */
function timedAsync(
  what: string,
  cmd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  const t0 = performance.now();
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      timings.push(`${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')}: exit ${String(code)}\n${out}\n${err}`));
    });
  });
}

const inside = (p: string): string => path.join(root, p);
const mode = (p: string): string => (statSync(inside(p)).mode & 0o7777).toString(8).padStart(4, '0');
const owner = (p: string): string => okInRoot(['stat', '-c', '%U:%G', p]).trim();

let deb = '';

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

afterAll(() => {
  console.log(`package test timings:\n  ${timings.join('\n  ')}`);
  // The root holds no mounts (nothing is mounted into it), so removing it touches nothing else.
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(missing.length > 0 && process.env.PACKAGE_TEST !== 'required')(
  `the Debian package${missing.length ? ` (needs ${missing.join(', ')})` : ''}`,
  () => {
    beforeAll(async () => {
      expect(missing, 'what this test needs (CI sets PACKAGE_TEST=required)').toEqual([]);
      // The package and the Debian root at once: each waits mostly on downloads and the disk, not on the other.
      const t0 = performance.now();
      const [built] = await Promise.all([
        process.env.DEB_FILE ??
          timedAsync('npm run package', 'bash', [path.join(PROJECT, 'packaging', 'build-deb.sh')], {
            DEB_OUT: path.join(work, 'out'),
          }).then((out) => out.trim().split('\n').pop()!),
        timedAsync('debootstrap (minbase + systemd, udev)', 'debootstrap', [
          '--variant=minbase',
          '--include=systemd,udev',
          SUITE,
          root,
          MIRROR,
        ]),
      ]);
      timings.push(`the package and the root, side by side: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      deb = built;
      expect(path.basename(deb)).toMatch(/^omnipos_\d+\.\d+\.\d+[^_]*_(amd64|arm64)\.deb$/);
      copyFileSync(deb, inside('tmp/omnipos.deb'));
    }, 1_800_000);

    it('is a package dpkg-deb reads: name, version, architecture, conffile, maintainer scripts', () => {
      const fields = ok('dpkg-deb', ['--field', deb, 'Package', 'Version', 'Architecture', 'Depends']);
      expect(fields).toMatch(/^Package: omnipos$/m);
      expect(fields).toMatch(/^Architecture: (amd64|arm64)$/m);
      expect(ok('dpkg-deb', ['--info', deb, 'conffiles']).split('\n')).toContain('/etc/omnipos/omnipos.json');
      for (const s of ['postinst', 'prerm', 'postrm'])
        expect(ok('dpkg-deb', ['--info', deb, s])).toMatch(/^#!\/bin\/sh/);
      // No development tooling in the package: tsx, typescript, vitest are devDependencies.
      const files = ok('dpkg-deb', ['--contents', deb]);
      for (const dev of [
        'node_modules/tsx/',
        'node_modules/typescript/',
        'node_modules/vitest/',
        'node_modules/esbuild/',
      ])
        expect(files).not.toContain(dev);
      expect(files).toContain('./opt/omnipos/dist/src/cli/bin.js');
      expect(files).toContain('./opt/omnipos/node/bin/node');
    });

    it('installs with dpkg -i into a Debian 12 root: users, groups, state directory, modes, enabled unit', () => {
      timed('dpkg -i', () => okInRoot(['dpkg', '-i', '/tmp/omnipos.deb']));
      expect(okInRoot(['dpkg-query', '-W', '-f', '${Status}', 'omnipos'])).toBe('install ok installed');

      const daemon = okInRoot(['getent', 'passwd', 'omnipos']).trim().split(':');
      expect(daemon[5]).toBe('/var/lib/omnipos');
      expect(daemon[6]).toBe('/usr/sbin/nologin');
      expect(Number(daemon[2])).toBeLessThan(1000); // a system user
      expect(okInRoot(['id', '-nG', 'omnipos']).trim().split(' ').sort()).toEqual(['dialout', 'omnipos', 'plugdev']);
      const kiosk = okInRoot(['getent', 'passwd', 'omnipos-kiosk']).trim().split(':');
      expect(kiosk[6]).toBe('/usr/sbin/nologin');
      expect(okInRoot(['id', '-nG', 'omnipos-kiosk']).trim().split(' ')).toEqual(
        expect.arrayContaining(['video', 'input', 'render']),
      );
      expect(okInRoot(['id', '-nG', 'omnipos-kiosk'])).not.toMatch(/\bomnipos\b(?!-)/); // never the daemon's group

      expect([mode('var/lib/omnipos'), owner('/var/lib/omnipos')]).toEqual(['0700', 'omnipos:omnipos']);
      expect([mode('etc/omnipos'), owner('/etc/omnipos')]).toEqual(['0750', 'root:omnipos']);
      expect([mode('etc/omnipos/omnipos.json'), owner('/etc/omnipos/omnipos.json')]).toEqual(['0640', 'root:omnipos']);
      expect([mode('etc/omnipos/sandbox/client-secret'), owner('/etc/omnipos/sandbox/client-secret')]).toEqual([
        '0640',
        'root:omnipos',
      ]);
      expect([mode('usr/bin/omnipos'), owner('/usr/bin/omnipos')]).toEqual(['0755', 'root:root']);
      expect([mode('opt/omnipos/node/bin/node'), owner('/opt/omnipos/node/bin/node')]).toEqual(['0755', 'root:root']);
      // Nothing under /opt writable by anyone but root.
      expect(okInRoot(['find', '/opt/omnipos', '-perm', '/022', '!', '-type', 'l'])).toBe('');
      expect(okInRoot(['find', '/opt/omnipos', '!', '-user', 'root'])).toBe('');

      expect(lstatSync(inside('etc/systemd/system/multi-user.target.wants/omnipos.service')).isSymbolicLink()).toBe(
        true,
      );
      expect(existsSync(inside('lib/udev/rules.d/99-omnipos.rules'))).toBe(true);
    });

    it('runs on its own Node runtime: omnipos --help and omnipos config check', () => {
      const version = okInRoot(['/opt/omnipos/node/bin/node', '--version']).trim();
      expect(version).toMatch(/^v(22|24)\./);
      const help = okInRoot(['omnipos', '--help']);
      expect(help).toMatch(/^\s+init\s/m);
      expect(help).toMatch(/^\s+config check\s/m);
      const check = inRoot(['omnipos', 'config', 'check']);
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toContain('/etc/omnipos/omnipos.json');
      // Secrets masked in what it prints.
      const secret = readFileSync(inside('etc/omnipos/sandbox/client-secret'), 'utf8').trim();
      expect(check.stdout).not.toContain(secret);
      // Run by root, the command runs as omnipos (so what it writes stays the daemon's).
      expect(okInRoot(['sh', '-c', 'omnipos api token >/dev/null 2>&1; stat -c %U /var/lib/omnipos/api-token'])).toBe(
        'omnipos\n',
      );
    });

    it('starts the daemon from the package (as the unit would: omnipos run) and GET /v1/health answers', async () => {
      const [api, sandbox] = [await freePort(), await freePort()];
      const urls = Object.fromEntries(
        ['AUTH', 'REQUEST', 'QUERY', 'PARAMETERS', 'REGISTRATION', 'WALLET', 'ECOMMERCE', 'ECOMMERCE_QUERY'].map(
          (k) => [`OMNIPOS_ACQUIRER__${k}_URL`, `http://127.0.0.1:${sandbox}`],
        ),
      );
      const env = {
        PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
        LANG: 'C.UTF-8',
        ...urls,
        OMNIPOS_API__PORT: String(api),
        OMNIPOS_SANDBOX__PORT: String(sandbox),
      };
      const daemon = spawn('chroot', [root, 'omnipos', 'run'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      daemon.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      try {
        const deadline = Date.now() + 120_000;
        let status = 0;
        while (status !== 200) {
          if (daemon.exitCode !== null) throw new Error(`omnipos run exited ${String(daemon.exitCode)}: ${stderr}`);
          if (Date.now() > deadline) throw new Error(`no health in 120 s: ${stderr}`);
          const tokenFile = inside('var/lib/omnipos/api-token');
          if (existsSync(tokenFile)) {
            const token = readFileSync(tokenFile, 'utf8').trim();
            const res = await fetch(`http://127.0.0.1:${api}/v1/health`, {
              headers: { authorization: `Bearer ${token}` },
            }).catch(() => undefined);
            status = res?.status ?? 0;
            await res?.text();
          }
          if (status !== 200) await new Promise((r) => setTimeout(r, 200));
        }
        expect(owner('/var/lib/omnipos/omnipos.db')).toBe('omnipos:omnipos');
      } finally {
        daemon.kill('SIGTERM');
        if (daemon.exitCode === null) await new Promise((r) => daemon.once('exit', r));
      }
      expect(daemon.exitCode, stderr).toBe(0);
    }, 180_000);

    it("the daemon's first start made the tokens (the package makes none): the daemon's, 0600, non-empty, unreadable to the screen's user", () => {
      const tokens = ['api-token', 'kiosk-token', 'cashier-token'].map((name) => {
        const file = `var/lib/omnipos/${name}`;
        expect([mode(file), owner(`/${file}`)], name).toEqual(['0600', 'omnipos:omnipos']);
        expect(statSync(inside(file)).mode & 0o077, `${name}: group and others`).toBe(0);
        const token = readFileSync(inside(file), 'utf8').trim();
        expect(token, name).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
        // omnipos-kiosk.service hands the screen its token (LoadCredential, read by systemd as root):
        // the screen's user itself reads none of the daemon's files.
        const read = inRoot([
          'setpriv',
          '--reuid=omnipos-kiosk',
          '--regid=omnipos-kiosk',
          '--init-groups',
          'cat',
          `/${file}`,
        ]);
        expect([read.status, read.stdout], `${name} read by omnipos-kiosk`).toEqual([1, '']);
        return token;
      });
      expect(new Set(tokens).size).toBe(tokens.length);
      const unit = readFileSync(inside('lib/systemd/system/omnipos-kiosk.service'), 'utf8');
      expect(unit).toMatch(/^LoadCredential=kiosk-token:\/var\/lib\/omnipos\/kiosk-token$/m);
    });

    it('ships units that systemd-analyze verify accepts inside the root, on the bundled runtime', () => {
      const unit = readFileSync(inside('lib/systemd/system/omnipos.service'), 'utf8');
      expect(unit).toMatch(/^ExecStart=\/opt\/omnipos\/node\/bin\/node \/opt\/omnipos\/dist\/src\/cli\/bin\.js run$/m);
      expect(unit).toMatch(/^User=omnipos$/m);
      // The kiosk unit names cage and chromium (Suggests): stand-ins at their paths for the check.
      for (const exe of ['usr/bin/cage', 'usr/bin/chromium']) {
        writeFileSync(inside(exe), '#!/bin/sh\nexit 0\n');
        chmodSync(inside(exe), 0o755);
      }
      const verify = timed('systemd-analyze verify', () =>
        inRoot([
          'systemd-analyze',
          'verify',
          '/lib/systemd/system/omnipos.service',
          '/lib/systemd/system/omnipos-kiosk.service',
        ]),
      );
      expect(verify.status, verify.stderr).toBe(0);
      // Only lines about the units themselves count; none allowed.
      expect(verify.stderr.split('\n').filter((l) => /omnipos/.test(l))).toEqual([]);
      rmSync(inside('usr/bin/cage'));
      rmSync(inside('usr/bin/chromium'));
    });

    it('reinstalls over itself keeping an edited conffile and the state', () => {
      const conf = inside('etc/omnipos/omnipos.json');
      const edited = readFileSync(conf, 'utf8').replace('"terminalId": "42004201"', '"terminalId": "42004299"');
      writeFileSync(conf, edited);
      writeFileSync(inside('var/lib/omnipos/journal-marker'), 'a sale\n');
      timed('dpkg -i (again)', () => okInRoot(['dpkg', '-i', '/tmp/omnipos.deb']));
      expect(readFileSync(conf, 'utf8')).toBe(edited);
      expect(existsSync(inside('var/lib/omnipos/journal-marker'))).toBe(true);
      expect(owner('/etc/omnipos/omnipos.json')).toBe('root:omnipos');
    });

    it('removes the program and keeps the configuration and the state; purge drops the configuration, keeps the state and says where', () => {
      okInRoot(['dpkg', '-r', 'omnipos']);
      for (const gone of [
        'opt/omnipos',
        'usr/bin/omnipos',
        'lib/systemd/system/omnipos.service',
        'lib/udev/rules.d/99-omnipos.rules',
      ]) {
        expect(existsSync(inside(gone)), gone).toBe(false);
      }
      expect(existsSync(inside('etc/omnipos/omnipos.json'))).toBe(true);
      expect(existsSync(inside('var/lib/omnipos/journal-marker'))).toBe(true);

      const purge = inRoot(['dpkg', '-P', 'omnipos']);
      expect(purge.status, purge.stderr).toBe(0);
      expect(existsSync(inside('etc/omnipos'))).toBe(false);
      expect(existsSync(inside('etc/systemd/system/multi-user.target.wants/omnipos.service'))).toBe(false);
      expect(existsSync(inside('var/lib/omnipos/journal-marker'))).toBe(true);
      expect(purge.stderr).toMatch(/kept \/var\/lib\/omnipos/);
      expect(inRoot(['getent', 'passwd', 'omnipos']).status).toBe(0);
    });

    it('purged with PURGE_OMNIPOS_STATE=yes, the state, the users and the group go too', () => {
      okInRoot(['dpkg', '-i', '/tmp/omnipos.deb']);
      expect(existsSync(inside('var/lib/omnipos/journal-marker'))).toBe(true); // the kept state is found again
      okInRoot(['dpkg', '-P', 'omnipos'], { PURGE_OMNIPOS_STATE: 'yes' });
      expect(existsSync(inside('var/lib/omnipos'))).toBe(false);
      expect(inRoot(['getent', 'passwd', 'omnipos']).status).not.toBe(0);
      expect(inRoot(['getent', 'passwd', 'omnipos-kiosk']).status).not.toBe(0);
      expect(inRoot(['getent', 'group', 'omnipos']).status).not.toBe(0);
      expect(inRoot(['dpkg-query', '-W', 'omnipos']).stdout).not.toMatch(/omnipos\t0/);
    });
  },
);
