import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDirForFile } from '../../helpers/temp-dir.js';

/**
 * The bundled program (packaging/bundle.ts, what `npm run build` leaves in dist/src/cli and the
 * Debian package ships) runs as installed: bundled into a package laid out in a temporary directory
 * (package.json, node_modules, config/, src/screens, as /opt/omnipos holds them), `omnipos run`
 * answers health and serves the screens and the API document, whose files it finds from its
 * chunks (dist/src/cli/daemon/ for `omnipos run`, dist/src/cli/chunks/ for the other commands), not from
 * tsc's file layout.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = tempDirForFile('omnipos-bundled-');

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('the bundled program', () => {
  it('starts from its chunks: health answers, the cashier screen and the OpenAPI document are served', async () => {
    const pkg = path.join(dir, 'omnipos');
    mkdirSync(path.join(pkg, 'src'), { recursive: true });
    copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
    for (const f of ['node_modules', 'config', 'src/screens']) symlinkSync(path.join(ROOT, f), path.join(pkg, f));
    const cli = path.join(pkg, 'dist', 'src', 'cli');
    const b = spawnSync(process.execPath, ['--import', 'tsx', 'packaging/bundle.ts'], {
      cwd: ROOT,
      env: { ...process.env, OMNIPOS_BUNDLE_DIR: cli },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(b.status, b.stderr).toBe(0);
    expect(existsSync(path.join(cli, 'bin.js'))).toBe(true);
    // Node's own modules come through require, never an ES import (whose facade reads every export: on
    // Node 22 and 24 `node:http`'s WebSocket getter loads Node's internal undici, ~30 ms of CPU at every start)
    // the commands' split and the daemon's own build (dist/src/cli/daemon, which `omnipos run` loads instead)
    const chunks = ['chunks', 'daemon', 'daemon/chunks'].flatMap((d) =>
      readdirSync(path.join(cli, d))
        .filter((f) => f.endsWith('.js'))
        .map((f) => path.join(cli, d, f)),
    );
    expect(chunks).toContain(path.join(cli, 'daemon', 'daemon-cli.js'));
    expect(readFileSync(path.join(cli, 'bin.js'), 'utf8')).toContain('"./daemon/daemon-cli.js"');
    for (const f of [path.join(cli, 'bin.js'), ...chunks]) {
      const esImports = [...readFileSync(f, 'utf8').matchAll(/^import\b[^;]*?\bfrom\s*"(node:[^"]+)"/gm)]
        .map((m) => m[1])
        .filter((m) => m !== 'node:module');
      expect(esImports, path.basename(f)).toEqual([]);
      // nor pino (CommonJS): an ES import of it has Node's loader parse and wrap it (~13 ms of a restart on Node 22)
      expect(readFileSync(f, 'utf8'), path.basename(f)).not.toMatch(/^import\b[^;]*?\bfrom\s*"pino"/m);
    }

    const state = path.join(dir, 'state');
    mkdirSync(state);
    const api = await freePort();
    const p = spawn(process.execPath, [path.join(cli, 'bin.js'), 'run'], {
      cwd: dir,
      env: { ...process.env, OMNIPOS_STATE_DIR: state, OMNIPOS_API__PORT: String(api), OMNIPOS_SANDBOX__PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const base = `http://127.0.0.1:${api}`;
      let auth = '';
      for (;;) {
        if (p.exitCode !== null) throw new Error(`omnipos run exited ${String(p.exitCode)}: ${stderr}`);
        const tokenFile = path.join(state, 'api-token');
        if (existsSync(tokenFile)) {
          auth = `Bearer ${readFileSync(tokenFile, 'utf8').trim()}`;
          const res = await fetch(`${base}/v1/health`, { headers: { authorization: auth } }).catch(() => undefined);
          if (res?.status === 200) {
            await res.text();
            break;
          }
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      const screen = await fetch(`${base}/screens/cashier.html`);
      expect(screen.status).toBe(200);
      expect(await screen.text()).toBe(readFileSync(path.join(ROOT, 'src/screens/cashier.html'), 'utf8'));
      const doc = await fetch(`${base}/v1/openapi.json`);
      expect(doc.status).toBe(200);
      expect(((await doc.json()) as { openapi: string }).openapi).toMatch(/^3\./);
      // the built-ins' exports are read once at load: none of them a deprecated one (on Node 24 every
      // export of node:fs read at load printed "DeprecationWarning: fs.F_OK is deprecated")
      expect(stderr).not.toMatch(/Warning/);
    } finally {
      p.kill('SIGTERM');
      if (p.exitCode === null) await new Promise((r) => p.once('exit', r));
    }
  }, 180_000);
});
