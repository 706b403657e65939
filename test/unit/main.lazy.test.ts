import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * Fast start of the daemon: loading its composition root (src/main.ts, what `omnipos run` imports)
 * loads only the packages every start uses. node-forge (the pinpad's RSA key, the sandbox's wallet),
 * mqtt (fleet telemetry, when configured), qrcode, pngjs and jsqr (QR codes), serialport
 * (the configured pinpad's transport) load at their first use; the embedded sandbox host only when
 * the configuration embeds it; the virtual pinpad and printer only when configured; the fleet's
 * client only when fleet.mqtt is; the OpenAPI document (every route's schema as JSON Schema), the
 * docs page and the receipt PNG drawing at their first request. A running daemon (`omnipos run`,
 * the default configuration) answers GET /v1/health without having loaded those. (Figures: npm
 * run bench:startup.)
 */

/** Loaded later than the start, whatever the configuration: at the first request for them, or when configured. */
const LATER = ['src/api/openapi.ts', 'src/main/receipt-png.ts', 'src/fleet/client.ts', 'src/fleet/telemetry-outbox.ts'];

const dir = tempDirForFile('omnipos-daemon-imports-');

function listed(log: string): { src: string[]; packages: string[] } {
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const root = new URL('../../', import.meta.url).href;
  const src = [
    ...new Set(
      urls.filter((u) => u.startsWith(root) && !u.includes('/node_modules/')).map((u) => u.slice(root.length)),
    ),
  ].sort();
  const packages = [...new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))]
    .filter((p) => !['tsx', 'get-tsconfig', 'esbuild'].includes(p))
    .sort();
  return { src, packages };
}

function loaded(): { src: string[]; packages: string[] } {
  const log = path.join(dir, 'main.log');
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './test/helpers/record-imports.ts',
      '--input-type=module',
      '-e',
      "await import('./src/main.ts');",
    ],
    { env: { ...process.env, RECORD_IMPORTS_LOG: log }, encoding: 'utf8', timeout: 120_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return listed(log);
}

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** What `omnipos run` (default configuration: embedded sandbox, virtual devices) had loaded when GET /v1/health first answered. */
async function loadedWhenReady(): Promise<{ src: string[]; packages: string[] }> {
  const log = path.join(dir, 'run.log');
  const state = mkdtempSync(path.join(dir, 'state-'));
  const [api, sandbox] = [await freePort(), await freePort()];
  const urls = Object.fromEntries(
    ['AUTH', 'REQUEST', 'QUERY', 'PARAMETERS', 'WALLET', 'ECOMMERCE'].map((k) => [
      `OMNIPOS_ACQUIRER__${k}_URL`,
      `http://127.0.0.1:${sandbox}`,
    ]),
  );
  const env = {
    ...process.env,
    ...urls,
    RECORD_IMPORTS_LOG: log,
    OMNIPOS_STATE_DIR: state,
    OMNIPOS_API__PORT: String(api),
    OMNIPOS_SANDBOX__PORT: String(sandbox),
  };
  const p = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './test/helpers/record-imports.ts',
      '--import',
      './test/helpers/record-requires.ts',
      'src/cli/bin.ts',
      'run',
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  try {
    for (;;) {
      if (p.exitCode !== null) throw new Error(`omnipos run exited ${String(p.exitCode)}: ${stderr}`);
      const tokenFile = path.join(state, 'api-token');
      if (existsSync(tokenFile)) {
        const res = await fetch(`http://127.0.0.1:${api}/v1/health`, {
          headers: { authorization: `Bearer ${readFileSync(tokenFile, 'utf8').trim()}` },
        }).catch(() => undefined);
        if (res?.status === 200) {
          await res.text();
          return listed(log);
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    p.kill('SIGTERM');
    if (p.exitCode === null) await new Promise((r) => p.once('exit', r));
  }
}

describe('the daemon loads at start only what every start uses', () => {
  it('no node-forge, mqtt, QR, serial, HID or HTTP client package, and none of the sandbox host but its address table', () => {
    const r = loaded();
    expect(r.src).toContain('src/main.ts');
    for (const later of [
      // the acquirer's and the alarms' HTTP client, at their first request (~70 ms of CPU to load on Node 22;
      // the homologation runner, reached through the operations' surface, imported it statically)
      'undici',
      'node-forge',
      'mqtt',
      'qrcode',
      'pngjs',
      'jsqr',
      'serialport',
      '@serialport/stream',
      'usb',
      'koffi',
    ]) {
      expect(r.packages, later).not.toContain(later);
    }
    expect(r.src.filter((f) => f.startsWith('src/sandbox/'))).toEqual(['src/sandbox/addresses.ts']);
    // the virtual pinpad and printer: only when the configuration names them
    expect(r.src.filter((f) => f.startsWith('src/sim/'))).toEqual([]);
    for (const later of LATER) expect(r.src, later).not.toContain(later);
  }, 120_000);

  it('omnipos run answers GET /v1/health before it loads the OpenAPI document, the receipt drawing, the fleet client, node-forge, prom-client or qrcode', async () => {
    const r = await loadedWhenReady();
    // it did start what the default configuration names: the sandbox host and the virtual devices
    expect(r.src).toEqual(
      expect.arrayContaining([
        'src/main.ts',
        'src/sandbox/index.ts',
        'src/sim/pinpad/index.ts',
        'src/sim/printer/index.ts',
      ]),
    );
    for (const later of LATER) expect(r.src, later).not.toContain(later);
    for (const later of ['mqtt', 'serialport']) expect(r.packages, later).not.toContain(later);
    // CommonJS packages too (record-requires.ts): the pinpad's RSA is OpenSSL's, not node-forge's; the
    // metrics' prom-client and the sandbox's qrcode load at their first use, not at start (undici's
    // request API loads here at the first start's table download, its first use)
    for (const later of ['node-forge', 'prom-client', '@opentelemetry/api', 'qrcode', 'pngjs'])
      expect(r.packages, later).not.toContain(later);
  }, 180_000);
});
